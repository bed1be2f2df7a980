import PitchsideCore

/// What the board tracker did with one frame.
public enum BoardTrackerEvent: Sendable {
    /// A search ran and found the board.
    case found(BoardDetection)
    /// After the camera moved (or seemed to), or crept, the picture around the board
    /// last known matched the picture again (dx, dy) pixels away: the board is there, moved by
    /// that much.
    case relocated(BoardDetection, dx: Int, dy: Int)
    /// A search ran and found nothing; the reason says why.
    case notFound(reason: String, bestConfidence: Double)
    /// The camera moved, so the board known until now is dropped.
    case lost(reason: String)

    /// Whether bags seen at rest before no longer lie where they were seen: a fresh search, or
    /// a match more than a pixel from where the board was. A loss alone does not say so (the
    /// camera may only have seemed to move), nor does a camera that crept by a pixel.
    public var movesTheBoard: Bool {
        switch self {
        case .found: return true
        case .relocated(_, let dx, let dy): return max(abs(dx), abs(dy)) > 1
        case .notFound, .lost: return false
        }
    }
}

/// Keeps the board known across frames: searches until found, keeps it while the camera is
/// still, drops it when stability says the camera moved, and once the camera is still again
/// finds it again, first by matching the picture around it (`BoardRelocator`), else by a fresh
/// search.
///
/// ```swift
/// var tracker = BoardTracker()
/// let event = tracker.process(frame, stability: stabilityResult)   // nil: nothing new
/// ```
public struct BoardTracker: Sendable {
    public var detector = BoardDetector()
    /// Frames between searches while no board is known, and between checks of the picture
    /// around a known one.
    public var retryInterval = 15
    public private(set) var board: BoardDetection?
    private var framesSinceSearch = Int.max / 2
    /// The picture around the board, cut when the board was placed in it, and the board as placed.
    private var reference: (patch: BoardPatch, board: BoardDetection)?
    /// How far stability registered the picture moving since the reference was cut, pixels.
    private var shiftSinceReference = (dx: 0.0, dy: 0.0)
    private var framesSinceReference = 0
    /// A shift farther than a pixel that the last check of a still camera matched, to follow if
    /// the next check matches it too.
    private var pendingCreep: (dx: Int, dy: Int)?
    /// Whether the board was found on a frame of a shake's tail (`summedStill`, not `stable`):
    /// a blurred frame places its sides a pixel or more in (dev 1016 at 640×360), so the first
    /// stable frame looks again.
    private var placedOnShake = false
    /// Whether the board known last (or the one that will be matched to find it again) was
    /// found on a shake's tail and never placed again on a still camera: a match within a pixel
    /// carries it only where a fresh search fails (held2-0016 at 640×360: a board found on the
    /// first, shaking frame, its hole a pixel off its own top, was carried through three moves
    /// and stood 2 % of its length off all game).
    private var carriedFromShake = false
    /// How long (media time) after a search found the board it is searched for again (`refine`),
    /// and until when for the board known now: long enough for a camera that still trembled to
    /// come to rest, short of the first throw (held10-0010: a search nine seconds on, with a bag
    /// in flight beside the board's end, found a board 7 % too long at a hundredth more
    /// confidence, and the census, placed anew, counted the bag twice).
    public var refineWindowUs: Int64 = 2_000_000
    private var refineUntilPtsUs: Int64 = .min
    /// How much longer or shorter, as a share of its length, a board found again on the first
    /// stable frame may be and still replace the one found on the shake whatever its confidence.
    static let relengthShare = 0.1
    /// The boards the searches of the refine window found (the one that opened it first), for
    /// the board they agree on (`refine`).
    private var windowSightings: [BoardDetection] = []
    /// Fewest sightings for their consensus to stand: of two, neither is the outlier.
    static let minimumConsensusSightings = 3
    /// How far, as a share of the board's length (and at least a pixel), a corner of the board
    /// agreed on must lie from the one known for it to be placed: each placing starts the census
    /// again, counting the bags lying there by their area (dev8-0000: a board found again a hair
    /// from where it was, and the census, started again, counted an olive bag on the ground as
    /// two on the board).
    static let consensusMoveShare = 0.01

    public init() {}

    /// `stability`: this frame's verdict, or nil when no stability analysis runs (then the board
    /// is searched for until found and kept). `mayRefine`: whether the board may still be
    /// searched for again on a still camera (`refine`): while no bag has come, placing it anew
    /// costs the census nothing.
    public mutating func process(_ frame: VideoFrame, stability: StabilityResult?, mayRefine: Bool = false) -> BoardTrackerEvent? {
        if let s = stability, s.registered {
            shiftSinceReference.dx += s.tx
            shiftSinceReference.dy += s.ty
        }
        if let s = stability, s.moved, board != nil {
            board = nil
            windowSightings = []
            framesSinceSearch = Int.max / 2
            return .lost(reason: "camera moved (shift \(String(format: "%.1f", s.summedShift)) px)")
        }
        framesSinceSearch += 1
        if board != nil {
            if placedOnShake, stability?.stable == true {
                return searchAgainOnStill(frame)
            }
            if mayRefine, frame.ptsUs <= refineUntilPtsUs, stability?.stable ?? true, framesSinceSearch >= retryInterval,
               let found = refine(frame.image) {
                return found
            }
            return followCreep(frame.image, still: stability?.stable ?? true)
        }
        guard framesSinceSearch >= retryInterval else { return nil }
        // Search only on a still camera when stability is known: a moving picture gives a board
        // that is about to move. A shake's tail that sums to no move will do (`summedStill`); a
        // board found there a pixel or two off is searched for again on the first stable frame
        // (`searchAgainOnStill`), and follows the picture once it is still (`followCreep`).
        if let s = stability, !(s.stable || s.summedStill), s.registered { return nil }
        framesSinceSearch = 0
        // Where the picture around the last board matches again within a pixel, the camera only
        // seemed to move: the board is where it was. After a real move a fresh search places it
        // better (the last board may have been found on a camera still settling), and the match
        // stands in when the search fails (bags on the top, its hole hidden).
        let relocated = reference.flatMap { patch, old in
            BoardRelocator.locate(patch, in: frame.image, expected: [(0, 0), shiftSinceReference]).map { shift in
                (board: old.translated(dx: Double(shift.dx), dy: Double(shift.dy)), shift: shift)
            }
        }
        if let r = relocated, max(abs(r.shift.dx), abs(r.shift.dy)) <= 1, !carriedFromShake {
            place(r.board, in: frame.image)
            return .relocated(r.board, dx: r.shift.dx, dy: r.shift.dy)
        }
        let result = detector.search(in: frame.image)
        if let d = result.detection, !(relocated.map { Self.isCutShort(d, of: $0.board) } ?? false) {
            let onShake = !(stability?.stable ?? true)
            place(d, in: frame.image, onShake: onShake, searchedAt: frame.ptsUs)
            placedOnShake = onShake
            return .found(d)
        }
        if let r = relocated {
            place(r.board, in: frame.image, onShake: carriedFromShake)
            return .relocated(r.board, dx: r.shift.dx, dy: r.shift.dy)
        }
        return .notFound(reason: result.reason, bestConfidence: result.bestConfidence)
    }

    /// The first stable frame after a board was found on a shake's tail: a search on the sharp
    /// picture places it again when it finds the same board (its hole within a tenth of the
    /// length of where it was, or of where the shift registered since took it) somewhere else;
    /// otherwise the board found on the shake stands. dev8-0011's settling camera moved the
    /// picture 8 px after the shake, and the board found there stood 3 px off all game. The
    /// census has seen no stable frame of this board yet, so placing it anew costs it nothing.
    /// A board of another length (by more than `relengthShare`) is one of the two measured
    /// wrong: the new one replaces the old only with a higher confidence (held-0016: a bag across
    /// the top's back end cut the sharp picture's top 30 % short, at 0.82 against the whole
    /// board's 1.00 on the shake, and the short one was kept all game).
    private mutating func searchAgainOnStill(_ frame: VideoFrame) -> BoardTrackerEvent? {
        placedOnShake = false
        guard let old = board, let d = detector.search(in: frame.image).detection else { return nil }
        // Found where it was on the sharp picture: no longer a shake's board.
        if d == old { carriedFromShake = false }
        let carried = PlanePoint(old.hole.center.x + shiftSinceReference.dx, old.hole.center.y + shiftSinceReference.dy)
        guard Self.isSameBoard(d, as: old, holeNear: [old.hole.center, carried]), d != old,
              abs(d.lengthPixels - old.lengthPixels) <= Self.relengthShare * old.lengthPixels || d.confidence > old.confidence
        else { return nil }
        framesSinceSearch = 0
        place(d, in: frame.image, searchedAt: frame.ptsUs)
        return .found(d)
    }

    /// A search now and then on a still camera, for `refineWindowUs` after a search found the
    /// board: each board it finds that is the same (its hole within a tenth of the length of where
    /// it was) is kept as a sighting, and once there are `minimumConsensusSightings`, the one they
    /// agree on (`BoardConsensus.medoid`) is placed where a corner of it lies more than
    /// `consensusMoveShare` of the length from the board known. One search is a poor judge of
    /// another, whatever their confidences: held10-0011 at 960×540, a board found at 0.77 on the
    /// first frame stability called still, while the camera still trembled, stood 4 % of its
    /// length off all game, and the searches after it found the board within 1 %; held22-0016 at
    /// 640×360, a board found at 0.90 within 2 % was replaced by one found at 0.97 with its back
    /// end turned, 7 % off.
    private mutating func refine(_ image: ImageBuffer) -> BoardTrackerEvent? {
        guard let old = board else { return nil }
        framesSinceSearch = 0
        guard let d = detector.search(in: image).detection, Self.isSameBoard(d, as: old, holeNear: [old.hole.center]) else { return nil }
        windowSightings.append(d)
        guard windowSightings.count >= Self.minimumConsensusSightings, let agreed = BoardConsensus.medoid(windowSightings),
              BoardConsensus.largestCornerMove(agreed, old) > max(1, Self.consensusMoveShare * old.lengthPixels)
        else { return nil }
        place(agreed, in: image, sightings: windowSightings)
        return .found(agreed)
    }

    /// Whether board `d`, found by a fresh search after the camera moved, is the board `old`
    /// (carried to where the picture around it matched again) with its top cut short by more
    /// than `relengthShare`: bags lying across one end hide where it ends, the search takes their
    /// edge for it, and the match carries the whole board better. held13-0004 at 1280×720: two
    /// olive bags at the board's front before the game; the search on the settled camera found
    /// it a third short at confidence 1.00 and kept it all game (corners and scale 33 % off).
    /// A piece of the old top is the same board too, wherever it put its hole: held14-0001 at
    /// 640×360, its top cut at the painted ring around the hole, took an olive bag at the other
    /// end for the hole (found at 0.74, the hole 4.6 diameters off, a quarter of the length
    /// short, and six bags too many counted on the ground all game).
    private static func isCutShort(_ d: BoardDetection, of old: BoardDetection) -> Bool {
        guard d.lengthPixels < (1 - relengthShare) * old.lengthPixels else { return false }
        let margin = pieceMargin * old.lengthPixels
        return isSameBoard(d, as: old, holeNear: [old.hole.center])
            || d.corners.allSatisfy { polygonSignedDistance(old.corners, $0) <= margin }
    }

    /// How far outside the carried board, as a share of its length, a board found afresh may
    /// reach and still be a piece of it: its corners are placed within a pixel or two.
    static let pieceMargin = 0.05

    /// Whether board `d`, found again, is the board `old`: its hole within a tenth of `old`'s
    /// length of one of `places` (where `old`'s hole was, or where a registered shift took it).
    private static func isSameBoard(_ d: BoardDetection, as old: BoardDetection, holeNear places: [PlanePoint]) -> Bool {
        places.contains { d.hole.center.distance(to: $0) <= 0.1 * old.lengthPixels }
    }

    /// `onShake`: the board was found on a shake's tail, or carried from one found there.
    /// `searchedAt`: when a search placed a board found afresh, which opens `refineWindowUs`;
    /// a board carried, or refined within the window already open, leaves the window as it is.
    /// `sightings`: the window's sightings kept (a board refined within it); a board found afresh
    /// starts them, any other placing drops them.
    private mutating func place(_ d: BoardDetection, in image: ImageBuffer, onShake: Bool = false, searchedAt ptsUs: Int64? = nil,
                                sightings: [BoardDetection] = []) {
        if let ptsUs { refineUntilPtsUs = ptsUs + refineWindowUs }
        windowSightings = ptsUs != nil ? [d] : sightings
        board = d
        reference = BoardPatch(board: d, image: image).map { ($0, d) }
        placedOnShake = false
        carriedFromShake = onShake
        shiftSinceReference = (0, 0)
        framesSinceReference = 0
        pendingCreep = nil
    }

    /// Every `retryInterval` frames on a still camera, the picture around the board is matched
    /// against the reference. Where it still matches, the reference is cut again (bags come to
    /// rest on the board and around it). A camera can creep without stability calling it a move
    /// (the end of a slow settling pan): the board follows a match a pixel away at once, and one
    /// farther away when the next check finds it there too; the event says so. No match (a
    /// person in front of the board) leaves everything as it was.
    private mutating func followCreep(_ image: ImageBuffer, still: Bool) -> BoardTrackerEvent? {
        framesSinceReference += 1
        guard still, framesSinceReference >= retryInterval, let (patch, placed) = reference else { return nil }
        framesSinceReference = 0
        let candidate = pendingCreep
        pendingCreep = nil
        // The camera may have panned while it shook without stability calling it a move: the
        // shift it registered since the reference was cut is looked at too.
        guard let shift = BoardRelocator.locate(patch, in: image, expected: [(0, 0), shiftSinceReference]) else { return nil }
        // Registration cannot confirm a farther creep: people walking about bias it by a few
        // tenths of a pixel every second (dev 0002). A shift seen in two checks in a row is no
        // passing occlusion.
        if max(abs(shift.dx), abs(shift.dy)) > 1, !(candidate.map { $0 == shift } ?? false) {
            pendingCreep = shift
            return nil
        }
        if shift == (0, 0) {
            if let fresh = BoardPatch(board: placed, image: image) { reference = (fresh, placed) }
            shiftSinceReference = (0, 0)
            return nil
        }
        let d = placed.translated(dx: Double(shift.dx), dy: Double(shift.dy))
        place(d, in: image, onShake: carriedFromShake)
        return .relocated(d, dx: shift.dx, dy: shift.dy)
    }
}

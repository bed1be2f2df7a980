import PitchsideCore

/// A bag in the census, with an identity kept from one rest state to the next.
public struct CensusBag: Sendable, Equatable, Codable {
    public var id: UInt32
    /// Position in the picture's pixels.
    public var center: PlanePoint
    public var colour: RGBColour
    public var place: BagPlacement
    /// Media time of the rest state in which the bag was first seen where it is now.
    public var sincePtsUs: Int64

    public init(id: UInt32, center: PlanePoint, colour: RGBColour, place: BagPlacement, sincePtsUs: Int64) {
        self.id = id
        self.center = center
        self.colour = colour
        self.place = place
        self.sincePtsUs = sincePtsUs
    }
}

/// A change between two rest states.
public struct CensusChange: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// A bag came to rest.
        case newBag
        /// A resting bag went through the hole.
        case knockedIn
        /// A resting bag left the board.
        case knockedOff
        /// A bag was picked up.
        case removed
    }

    public var kind: Kind
    public var bagID: UInt32
    public var place: BagPlacement
}

/// The bags at rest after motion settled, and what changed since the last rest state.
public struct CensusResult: Sendable, Equatable {
    public var seq: UInt64
    public var ptsUs: Int64
    public var imageWidth: Int
    public var imageHeight: Int
    public var bags: [CensusBag]
    public var changes: [CensusChange]

    public init(seq: UInt64, ptsUs: Int64, imageWidth: Int, imageHeight: Int, bags: [CensusBag], changes: [CensusChange]) {
        self.seq = seq
        self.ptsUs = ptsUs
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.bags = bags
        self.changes = changes
    }

    public var onBoard: Int { bags.filter { $0.place == .onBoard }.count }
    public var inHole: Int { bags.filter { $0.place == .inHole }.count }
    public var onGround: Int { bags.filter { $0.place == .onGround }.count }
}

/// Takes the census of bags around the board once motion settles (the "roll ended" idea:
/// detections that stay put for several frames), and reports changes as events.
///
/// Feed every frame with the current board and the camera's stability; a result comes back when
/// a new rest state differs from the last one reported (and for the first).
///
/// ```swift
/// var census = BagCensus()
/// if let result = census.process(frame: frame, board: board, stable: stability.stable) { ... }
/// ```
public struct BagCensus: Sendable {
    /// Frames the bag sightings must stay put before the scene counts as at rest.
    public var settleFrames = 6
    /// How far (in bag sides) a sighting may move and still be the same bag.
    public var matchDistance = 0.5
    public var finder = BagFinder()

    private var lastSightings: [BagSighting] = []
    private var unchangedFrames = 0
    private var reported: [CensusBag] = []
    private var hasReported = false
    private var nextID: UInt32 = 1
    private var boardKey: [PlanePoint] = []

    public init() {}

    /// The bags of the last reported rest state.
    public var bags: [CensusBag] { reported }

    public mutating func reset() {
        lastSightings = []
        unchangedFrames = 0
        reported = []
        hasReported = false
        boardKey = []
    }

    public mutating func process(frame: VideoFrame, board: BoardDetection?, stable: Bool) -> CensusResult? {
        guard stable, let board else {
            unchangedFrames = 0
            lastSightings = []
            return nil
        }
        let scaled = board.scaled(toWidth: frame.image.width, height: frame.image.height)
        let bagSide = BoardGeometry.bagSide / scaled.metresPerPixel
        // A different board (the camera moved) starts a new census.
        if boardKey.count == 4, zip(boardKey, scaled.corners).contains(where: { $0.distance(to: $1) > 0.5 * bagSide }) {
            reset()
        }
        boardKey = scaled.corners
        let sightings = finder.find(in: frame.image, board: scaled)
        if same(sightings, lastSightings, tolerance: 0.25 * bagSide) {
            unchangedFrames += 1
        } else {
            unchangedFrames = 0
        }
        lastSightings = sightings
        guard unchangedFrames == settleFrames else { return nil }
        let changes = reconcile(sightings, board: scaled, bagSide: bagSide, ptsUs: frame.ptsUs)
        guard !changes.isEmpty || !hasReported else { return nil }
        hasReported = true
        return CensusResult(seq: frame.seq, ptsUs: frame.ptsUs, imageWidth: frame.image.width, imageHeight: frame.image.height,
                            bags: reported, changes: changes)
    }

    private func same(_ a: [BagSighting], _ b: [BagSighting], tolerance: Double) -> Bool {
        guard a.count == b.count else { return false }
        return a.allSatisfy { s in b.contains { $0.center.distance(to: s.center) <= tolerance && $0.place == s.place } }
    }

    private static func colourDistance(_ a: RGBColour, _ b: RGBColour) -> Double {
        ColourFeature(Int(a.r), Int(a.g), Int(a.b)).distance(to: ColourFeature(Int(b.r), Int(b.g), Int(b.b)))
    }

    /// Matches the new rest state to the last one, keeps identities, and names the changes.
    private mutating func reconcile(_ sightings: [BagSighting], board: BoardDetection, bagSide: Double, ptsUs: Int64) -> [CensusChange] {
        var changes: [CensusChange] = []
        var unmatchedNew = Array(sightings.indices)
        var next: [CensusBag] = []
        var unmatchedOld: [CensusBag] = []
        // Same place, same spot: the same bag.
        for old in reported {
            if let k = unmatchedNew.min(by: { sightings[$0].center.distance(to: old.center) < sightings[$1].center.distance(to: old.center) }),
               sightings[k].center.distance(to: old.center) <= matchDistance * bagSide, sightings[k].place == old.place {
                var bag = old
                bag.center = sightings[k].center
                next.append(bag)
                unmatchedNew.removeAll { $0 == k }
            } else if old.place == .inHole, board.lengthAlongFirstEdge {
                // In a side view a bag in the hole is never seen again: it stays counted.
                next.append(old)
            } else {
                unmatchedOld.append(old)
            }
        }
        // A board bag that vanished or reappeared elsewhere in its own colour moved.
        for old in unmatchedOld {
            let candidates = unmatchedNew.filter {
                Self.colourDistance(sightings[$0].colour, old.colour) < 60 && sightings[$0].place != old.place
            }
            let holeDistance = old.center.distance(to: board.hole.center)
            if old.place == .onBoard, let k = candidates.min(by: {
                sightings[$0].center.distance(to: old.center) < sightings[$1].center.distance(to: old.center)
            }), sightings[k].center.distance(to: old.center) <= 4 * bagSide {
                var bag = old
                bag.center = sightings[k].center
                bag.place = sightings[k].place
                bag.sincePtsUs = ptsUs
                next.append(bag)
                unmatchedNew.removeAll { $0 == k }
                changes.append(CensusChange(kind: bag.place == .inHole ? .knockedIn : .knockedOff, bagID: bag.id, place: bag.place))
            } else if old.place == .onBoard, holeDistance <= 1.5 * bagSide {
                // Gone from view beside the hole: through it.
                var bag = old
                bag.center = board.hole.center
                bag.place = .inHole
                bag.sincePtsUs = ptsUs
                next.append(bag)
                changes.append(CensusChange(kind: .knockedIn, bagID: bag.id, place: .inHole))
            } else {
                changes.append(CensusChange(kind: .removed, bagID: old.id, place: old.place))
            }
        }
        for k in unmatchedNew {
            let s = sightings[k]
            let bag = CensusBag(id: nextID, center: s.center, colour: s.colour, place: s.place, sincePtsUs: ptsUs)
            nextID += 1
            next.append(bag)
            changes.append(CensusChange(kind: .newBag, bagID: bag.id, place: bag.place))
        }
        reported = next.sorted { $0.id < $1.id }
        return changes
    }
}

import PitchsideCore

/// Builds throws out of trajectory observations.
///
/// Observations of one UUID refine one track. A track *starts* a throw when it
/// is confident (> 0.9), curved like a thrown bag (a straight line is a
/// distractor), moves from the thrower toward the board (either side), starts
/// in the throw region beside the player (or, first seen in mid-flight, its fit
/// carried back reaches the thrower: `ReleaseEstimate`) and stays in the
/// corridor to the board, and is not the lower of two simultaneous parallel tracks (the bag's
/// shadow). Once a throw is in flight the region of interest follows the bag: a
/// new track starting where the throw's path ended is a bounce fragment and is
/// joined. The throw completes when no observation was accepted for more than
/// 20 frames (counted by frame `seq`) or 20 were rejected in a row.
///
/// ```swift
/// var assembler = ThrowAssembler()
/// assembler.observe(observation, seq: header.seq, context: context)
/// if let done = assembler.tick(seq: header.seq) { /* measure and score */ }
/// ```
public struct ThrowAssembler: Sendable {
    /// Why observations were accepted or not, for diagnostics.
    public struct Counters: Sendable, Equatable {
        public var accepted = 0
        public var lowConfidence = 0
        public var straight = 0
        public var wrongDirection = 0
        public var outsideRegion = 0
        public var shadow = 0
        public var joinedFragments = 0
        /// Throws started by a track first seen in mid-flight (`ReleaseEstimate`).
        public var carriedBack = 0
        public var throwsCompleted = 0
    }

    public enum Verdict: String, Sendable, Equatable {
        case started, refined, joined, lowConfidence, straight, wrongDirection, outsideRegion, shadow
        public var accepted: Bool { self == .started || self == .refined || self == .joined }
    }

    public private(set) var counters = Counters()
    /// Recently seen confident tracks, accepted or not (for the shadow test).
    private var tracks: [String: TrackedPath] = [:]
    /// UUIDs of the throw in flight, in the order they were accepted.
    private var throwUUIDs: [String] = []
    /// Releases carried back along the fit, for tracks first seen in mid-flight.
    private var carriedBackReleases: [String: TimedPoint] = [:]
    private var lastAcceptedSeq: UInt64 = 0
    private var rejectedInARow = 0
    /// The scene the throw in flight was accepted in (where the board is, which way it flies).
    private var flightContext: ThrowContext?

    public init() {}

    /// Whether a throw is in flight.
    public var inFlight: Bool { !throwUUIDs.isEmpty }

    /// Media time of the release of the throw in flight: its first point, or the release
    /// carried back along the fit when the bag was first seen in mid-flight.
    public var releasePtsUs: Int64? {
        throwUUIDs.first.flatMap { carriedBackReleases[$0]?.ptsUs ?? tracks[$0]?.first?.ptsUs }
    }

    /// Latest point of the throw in flight (where the region of interest follows the bag).
    public var lastPoint: Vec2? {
        throwUUIDs.compactMap { tracks[$0]?.last }.max { $0.ptsUs < $1.ptsUs }?.point
    }

    /// First point of the throw in flight.
    public var releasePoint: Vec2? { throwUUIDs.first.flatMap { tracks[$0]?.first?.point } }

    /// Takes one observation; says whether and why it was accepted. May complete
    /// the throw in flight first when an unrelated new throw starts.
    @discardableResult
    public mutating func observe(_ o: PSTrajectoryObservation, seq: UInt64, context: ThrowContext) -> Verdict {
        guard o.confidence > GameConstants.trajectoryConfidence, !o.detectedPoints.isEmpty else {
            // The throw's own track, its fit unsure for a while: the bag is still followed, so the
            // throw stays in flight (held-0003 throw 2 near its apex: 30 such observations in a
            // row ended it, and the same track, confident again, started a second throw).
            if throwUUIDs.contains(o.uuid) {
                counters.lowConfidence += 1
                lastAcceptedSeq = max(lastAcceptedSeq, seq)
                return .lowConfidence
            }
            return reject(.lowConfidence)
        }
        // A decodable but nonsensical message (NaN, infinite coordinates) is not a path.
        guard o.detectedPoints.allSatisfy({ $0.x.isFinite && $0.y.isFinite }), o.a.isFinite, o.vx.isFinite,
              o.vy.isFinite, o.ay.isFinite else {
            return reject(.outsideRegion)
        }
        if var t = tracks[o.uuid] { t.merge(o, seq: seq); tracks[o.uuid] = t } else { tracks[o.uuid] = TrackedPath(o, seq: seq) }
        prune(seq: seq)
        let track = tracks[o.uuid]!
        defer { if inFlight { flightContext = context } }

        if throwUUIDs.contains(o.uuid) {
            // The fit improves as points arrive: carry the release back along the latest one.
            if carriedBackReleases[o.uuid] != nil, let first = track.first,
               let release = ReleaseEstimate.carriedBack(o, from: first, context: context) {
                carriedBackReleases[o.uuid] = release
            }
            return accept(.refined, seq: seq)
        }
        if inFlight, isContinuation(track) {
            throwUUIDs.append(o.uuid)
            counters.joinedFragments += 1
            return accept(.joined, seq: seq)
        }
        let release = carriedBackRelease(track, context)
        if let why = startRejection(track, context, carriedBack: release) { return reject(why) }
        if isShadow(track) { return reject(.shadow) }
        if inFlight {
            // A proper throw path overlapping the current throw in time: the
            // current one was its shadow if it runs below; otherwise a new throw.
            let shadows = Set(throwUUIDs.compactMap { tracks[$0] }.filter { isShadow($0, of: track) }.map(\.uuid))
            throwUUIDs = throwUUIDs.filter { !shadows.contains($0) }
        }
        if throwUUIDs.isEmpty { throwUUIDs = [o.uuid] } else { throwUUIDs.append(o.uuid) }
        if let release { carriedBackReleases[o.uuid] = release; counters.carriedBack += 1 }
        return accept(.started, seq: seq)
    }

    /// Completes the throw in flight when the bag has been gone long enough.
    public mutating func tick(seq: UInt64) -> AssembledThrow? {
        guard inFlight else { return nil }
        let limit = GameConstants.noObservationFrameLimit + (lostShortOfTheBoard ? GameConstants.reacquiredTrackFrames : 0)
        let quiet = seq > lastAcceptedSeq && seq - lastAcceptedSeq > limit
        guard quiet || rejectedInARow > GameConstants.maxRejectedObservations else { return nil }
        return finish()
    }

    /// Whether the throw's path so far ends in the air short of the board (above the board's
    /// centre line, the target region's near edge not reached; a bag that fell short lies below
    /// the line): the bag was lost in mid-flight, and a new track of it is reported
    /// only once the detector has followed it for `reacquiredTrackFrames`, so waiting the usual
    /// 20 frames would end the throw just before its continuation arrives (dev3-0009: a 7-frame
    /// gap split throw 1 in two, and every later throw moved up one).
    private var lostShortOfTheBoard: Bool {
        guard let context = flightContext, let end = lastPoint, context.isShortOfTargetRegion(end) else { return false }
        return (FlightExtrapolation.belowCentreLine(end, board: context.board) ?? 0) < 0
    }

    /// Completes the throw in flight now (end of stream, game stopped).
    public mutating func finish() -> AssembledThrow? {
        guard inFlight else { return nil }
        defer {
            for uuid in throwUUIDs { tracks[uuid] = nil; carriedBackReleases[uuid] = nil }
            throwUUIDs = []
            rejectedInARow = 0
            flightContext = nil
        }
        return assemble()
    }

    /// Joins the throw's tracks, release fragment first: a track joins when it
    /// starts near where the path so far ends; tracks running alongside
    /// (shadows, late duplicates) are left out.
    private func assemble() -> AssembledThrow? {
        let members = throwUUIDs.compactMap { tracks[$0] }.filter { t in
            !others(t).contains { isShadow(t, of: $0) }
        }.sorted { ($0.first?.ptsUs ?? 0) < ($1.first?.ptsUs ?? 0) }
        guard let head = members.first, head.first != nil else { return nil }
        var points = head.points
        var fragments = [head.uuid]
        for t in members.dropFirst() {
            guard let start = t.first, let end = points.last else { continue }
            let near = start.point.distance(to: end.point) <= GameConstants.maxDistanceWithCurrentTrajectory
            let inTime = start.ptsUs >= end.ptsUs - 100_000 && start.ptsUs - end.ptsUs <= GameConstants.joinGapUs
            guard near, inTime else { continue }
            points += t.points.filter { $0.ptsUs > end.ptsUs }
            fragments.append(t.uuid)
        }
        return AssembledThrow(points: points, releaseFit: head.latest, fragments: fragments,
                              carriedBackRelease: carriedBackReleases[head.uuid])
    }

    private func others(_ except: TrackedPath) -> [TrackedPath] {
        throwUUIDs.compactMap { tracks[$0] }.filter { $0.uuid != except.uuid }
    }

    /// A new track continues the throw when it starts near where the throw's
    /// path ends, shortly after (a bounce, or the bag re-acquired).
    private func isContinuation(_ t: TrackedPath) -> Bool {
        guard let start = t.first else { return false }
        let ends = throwUUIDs.compactMap { tracks[$0]?.last }
        guard let end = ends.max(by: { $0.ptsUs < $1.ptsUs }) else { return false }
        let near = start.point.distance(to: end.point) <= GameConstants.joinDistance
        let inTime = start.ptsUs >= end.ptsUs - 100_000 && start.ptsUs - end.ptsUs <= GameConstants.joinGapUs
        return near && inTime
    }

    /// Why `t` cannot start a throw, if it cannot; `carriedBack` is its release carried back
    /// along the fit (`carriedBackRelease`), which lets a track first seen outside the throw
    /// region start one.
    private func startRejection(_ t: TrackedPath, _ c: ThrowContext, carriedBack: TimedPoint?) -> Verdict? {
        let o = t.latest
        guard let first = t.first, let last = t.last else { return .outsideRegion }
        // y = a x^2 + ... with y down: a thrown bag's arc has a clearly positive a.
        if o.a < GameConstants.minimumCurvature { return .straight }
        let moved = (last.x - first.x) * c.direction
        let fitted = o.vx == 0 ? moved : o.vx * c.direction
        if moved <= 0.01 || fitted <= 0 { return .wrongDirection }
        if !c.inThrowRegion(first.point), carriedBack == nil { return .outsideRegion }
        if !t.points.allSatisfy({ c.inCorridor($0.point) }) { return .outsideRegion }
        return nil
    }

    /// The release of a track first seen outside the throw region, carried back along its fit.
    private func carriedBackRelease(_ t: TrackedPath, _ c: ThrowContext) -> TimedPoint? {
        guard let first = t.first, !c.inThrowRegion(first.point) else { return nil }
        return ReleaseEstimate.carriedBack(t.latest, from: first, context: c)
    }

    /// Whether `t` is the lower of two tracks seen together and moving in parallel.
    private func isShadow(_ t: TrackedPath) -> Bool {
        tracks.values.contains { $0.uuid != t.uuid && isShadow(t, of: $0) }
    }

    private func isShadow(_ t: TrackedPath, of other: TrackedPath) -> Bool {
        let (dx, n) = t.commonDX(other)
        guard n >= 3, dx < GameConstants.shadowMaxDX else { return false }
        return t.commonDY(other) > 0.01 && other.latest.a >= GameConstants.minimumCurvature
    }

    private mutating func accept(_ v: Verdict, seq: UInt64) -> Verdict {
        counters.accepted += 1
        lastAcceptedSeq = max(lastAcceptedSeq, seq)
        rejectedInARow = 0
        return v
    }

    private mutating func reject(_ v: Verdict) -> Verdict {
        switch v {
        case .lowConfidence: counters.lowConfidence += 1
        case .straight: counters.straight += 1
        case .wrongDirection: counters.wrongDirection += 1
        case .outsideRegion: counters.outsideRegion += 1
        case .shadow: counters.shadow += 1
        default: break
        }
        if inFlight { rejectedInARow += 1 }
        return v
    }

    /// Forgets tracks not seen for a while (keeps the shadow test cheap).
    private mutating func prune(seq: UInt64) {
        let horizon: UInt64 = 90
        for (uuid, t) in tracks where !throwUUIDs.contains(uuid) && seq > t.lastSeenSeq + horizon {
            tracks[uuid] = nil
        }
    }

    mutating func noteCompleted() { counters.throwsCompleted += 1 }
}

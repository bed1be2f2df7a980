import PitchsideCore

/// A point of a bag's path with its media time.
public struct TimedPoint: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double
    public var ptsUs: Int64

    public init(x: Double, y: Double, ptsUs: Int64) {
        self.x = x
        self.y = y
        self.ptsUs = ptsUs
    }

    public var point: Vec2 { Vec2(x, y) }

    public var wire: PSTrajectoryPoint {
        var p = PSTrajectoryPoint()
        p.x = x
        p.y = y
        p.ptsUs = ptsUs
        return p
    }
}

/// One trajectory (one worker UUID) as its observations refine it: the union of
/// its detected points by media time and its latest fitted parabola.
public struct TrackedPath: Sendable {
    public let uuid: String
    public private(set) var points: [TimedPoint] = []
    public private(set) var latest: PSTrajectoryObservation
    public var lastSeenSeq: UInt64

    public init(_ o: PSTrajectoryObservation, seq: UInt64) {
        uuid = o.uuid
        latest = o
        lastSeenSeq = seq
        merge(o, seq: seq)
    }

    /// Adds an observation of the same track (a refinement: more points, better fit).
    public mutating func merge(_ o: PSTrajectoryObservation, seq: UInt64) {
        if o.detectedPoints.count >= latest.detectedPoints.count || o.header.ptsUs >= latest.header.ptsUs { latest = o }
        lastSeenSeq = max(lastSeenSeq, seq)
        var byPts = Dictionary(points.map { ($0.ptsUs, $0) }, uniquingKeysWith: { a, _ in a })
        for p in o.detectedPoints { byPts[p.ptsUs] = TimedPoint(x: p.x, y: p.y, ptsUs: p.ptsUs) }
        points = byPts.values.sorted { $0.ptsUs < $1.ptsUs }
    }

    public var first: TimedPoint? { points.first }
    public var last: TimedPoint? { points.last }
    public var meanY: Double { points.isEmpty ? 0 : points.map(\.y).reduce(0, +) / Double(points.count) }

    /// Mean horizontal distance to `other` at the times both were seen, with the
    /// number of such times (a bag and its shadow are seen on the same frames).
    func commonDX(_ other: TrackedPath) -> (dx: Double, count: Int) {
        let theirs = Dictionary(other.points.map { ($0.ptsUs, $0) }, uniquingKeysWith: { a, _ in a })
        var sum = 0.0, n = 0
        for p in points { if let q = theirs[p.ptsUs] { sum += abs(p.x - q.x); n += 1 } }
        return (n == 0 ? .infinity : sum / Double(n), n)
    }

    /// Mean vertical offset (self − other) at common times.
    func commonDY(_ other: TrackedPath) -> Double {
        let theirs = Dictionary(other.points.map { ($0.ptsUs, $0) }, uniquingKeysWith: { a, _ in a })
        var sum = 0.0, n = 0
        for p in points { if let q = theirs[p.ptsUs] { sum += p.y - q.y; n += 1 } }
        return n == 0 ? 0 : sum / Double(n)
    }
}

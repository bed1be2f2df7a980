import PitchsideCore

/// A completed throw's flight, ready to be measured and scored.
public struct AssembledThrow: Sendable {
    /// The joined path, release to rest, by media time.
    public var points: [TimedPoint]
    /// The fitted observation of the first fragment (release).
    public var releaseFit: PSTrajectoryObservation
    /// Track UUIDs joined into this throw (bounce fragments), in order.
    public var fragments: [String]
    /// The release carried back along the fit when the bag was first seen in mid-flight.
    public var carriedBackRelease: TimedPoint?

    public init(points: [TimedPoint], releaseFit: PSTrajectoryObservation, fragments: [String],
                carriedBackRelease: TimedPoint? = nil) {
        self.points = points
        self.releaseFit = releaseFit
        self.fragments = fragments
        self.carriedBackRelease = carriedBackRelease
    }

    public var releasePtsUs: Int64 { carriedBackRelease?.ptsUs ?? points.first?.ptsUs ?? releaseFit.timeRangeStartUs }
    public var landingPtsUs: Int64 { points.last?.ptsUs ?? releaseFit.timeRangeEndUs }
    public var landing: Vec2 { points.last?.point ?? Vec2(0, 0) }
    public var start: Vec2 { points.first?.point ?? Vec2(0, 0) }
}

import Foundation

/// A parabolic path found by `TrajectoryDetector`: the counterpart of Vision's
/// `VNTrajectoryObservation`. Coordinates are normalized (origin top-left, y down);
/// times are media microseconds.
///
/// The same `uuid` is reported again, with more points and a refined fit, each time
/// its track grows; a bounce or an exit from the frame starts a new `uuid`.
///
/// ```swift
/// for observation in detector.process(frame) where observation.confidence > 0.9 {
///     let y = observation.y(atX: 0.5)            // on the fitted parabola
///     let (x, y2) = observation.position(atPtsUs: frame.ptsUs)
/// }
/// ```
public struct TrajectoryObservation: Sendable, Equatable {
    /// A detected centroid and the media time of its frame.
    public struct Point: Sendable, Equatable, Codable {
        public var x: Double
        public var y: Double
        public var ptsUs: Int64

        public init(x: Double, y: Double, ptsUs: Int64) {
            self.x = x
            self.y = y
            self.ptsUs = ptsUs
        }
    }

    public var uuid: UUID
    /// Object centroids from the first point of the track to the latest.
    public var detectedPoints: [Point]
    /// The detected points moved onto the fitted parabola (same x, y from the equation).
    public var projectedPoints: [SIMD2<Double>]
    /// y = a·x² + b·x + c (normalized coordinates).
    public var a: Double
    public var b: Double
    public var c: Double
    /// x(t) = x0 + vx·t, y(t) = y0 + vy·t + ½·ay·t², t in seconds since `timeRangeStartUs`.
    public var x0: Double
    public var vx: Double
    public var y0: Double
    public var vy: Double
    public var ay: Double
    /// How sure it is that this is a thrown object's path, in [0, 1]: how closely the points fit
    /// a projectile seen in perspective, times how clearly the path bends under gravity (a
    /// straight path scores near 0). Thrown bags in synthetic games score above 0.9.
    public var confidence: Double
    /// Media time of the first and the latest point.
    public var timeRangeStartUs: Int64
    public var timeRangeEndUs: Int64
    /// Mean object diameter, normalized by the image width.
    public var objectSize: Double
    /// Root-mean-square distance from the fitted path, in pixels, of the points it was fitted to
    /// (the detected points may run on past the landing: those are not fitted).
    public var residualPixels: Double

    /// y on the fitted parabola at `x`.
    public func y(atX x: Double) -> Double { (a * x + b) * x + c }

    /// Position on the time-parameterized fit at media time `ptsUs`.
    public func position(atPtsUs ptsUs: Int64) -> (x: Double, y: Double) {
        let t = Double(ptsUs - timeRangeStartUs) / 1e6
        return (x0 + vx * t, y0 + vy * t + 0.5 * ay * t * t)
    }
}

import Foundation
import PitchsideCore

/// Detects objects on parabolic paths in video from a fixed camera: Pitchside's
/// `VNDetectTrajectoriesRequest`. A plain, stateful value: create one per stream and
/// give it every frame (GRAY8) in order.
///
/// ```swift
/// var detector = TrajectoryDetector()
/// detector.configuration.minimumObjectSize = 8.0 / 1280
/// for frame in frames {
///     for observation in detector.process(frame) where observation.confidence > 0.9 {
///         print(observation.uuid, observation.detectedPoints.count, observation.a)
///     }
/// }
/// ```
///
/// An observation appears once a track has `trajectoryLength` points and is reported
/// again, under the same `uuid`, on every frame that adds a point. Straight paths (a
/// bird, a shadow on the ground) are reported too, with `a` near 0, so that the caller
/// can tell them apart from throws.
public struct TrajectoryDetector {
    public typealias Configuration = TrajectoryConfiguration

    /// Options; may be changed between frames (the region of interest follows a throw).
    public var configuration: Configuration
    private var segmenter = MotionSegmenter()
    private var tracker = TrajectoryTracker()
    private var lastAnalysedPtsUs: Int64? = nil
    /// Frames analysed since the start or the last reset.
    public private(set) var analysedFrames = 0

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Forgets all tracks and the background (after a cut in the video, a camera move).
    public mutating func reset() {
        ensureUniqueSegmenter()
        segmenter.reset()
        tracker.reset()
        lastAnalysedPtsUs = nil
        analysedFrames = 0
    }

    /// Analyses the next frame of the stream; returns the trajectories this frame extended
    /// that are long enough to report.
    public mutating func process(_ frame: VideoFrame) -> [TrajectoryObservation] {
        if let last = lastAnalysedPtsUs {
            if frame.ptsUs <= last { return [] }          // duplicate or out of order: ignore
            if configuration.frameAnalysisSpacingUs > 0, frame.ptsUs - last < configuration.frameAnalysisSpacingUs {
                return []
            }
        }
        lastAnalysedPtsUs = frame.ptsUs
        analysedFrames += 1
        ensureUniqueSegmenter()
        let sizeChanged = frame.image.width != segmenter.width || frame.image.height != segmenter.height
        if sizeChanged { tracker.reset() }
        let blobs = segmenter.segment(frame.image, configuration: configuration)
        let width = Double(frame.image.width), height = Double(frame.image.height)
        tracker.update(
            blobs: blobs, ptsUs: frame.ptsUs,
            maximumSpeedPixels: configuration.maximumSpeed * width, maximumGap: configuration.maximumGap)
        var observations: [TrajectoryObservation] = []
        for track in tracker.tracks where track.updated && track.count >= configuration.trajectoryLength {
            if let o = Self.observation(of: track, width: width, height: height, minimumSpeed: configuration.minimumSpeed) {
                observations.append(o)
            }
        }
        return observations
    }

    /// Noise and threshold of the last analysed frame, for diagnostics.
    public var diagnostics: (noiseSigma: Double, threshold: Int, globalChanges: Int, activeTracks: Int) {
        (segmenter.noiseSigma, segmenter.threshold, segmenter.globalChanges, tracker.tracks.count)
    }

    private mutating func ensureUniqueSegmenter() {
        if !isKnownUniquelyReferenced(&segmenter) { segmenter = segmenter.copy() }
    }

    /// Root-mean-square distance, in pixels, of the track's points from quadratics x(t) and y(t).
    static func perspectiveResidual(_ track: Track) -> Double {
        let n = track.count
        var sum = 0.0
        track.t.withUnsafeBufferPointer { tb in
            for coordinate in [track.x, track.y] {
                coordinate.withUnsafeBufferPointer { vb in
                    let (c0, c1, c2) = PolynomialFit.quadratic(tb, vb)
                    for i in 0..<n {
                        let t = tb[i]
                        let r = vb[i] - ((c2 * t + c1) * t + c0)
                        sum += r * r
                    }
                }
            }
        }
        return (sum / Double(max(n, 1))).squareRoot()
    }

    /// The observation for a track, or nil when it is not a path: it stayed in place, or
    /// its points do not follow a projectile.
    static func observation(of track: Track, width: Double, height: Double, minimumSpeed: Double) -> TrajectoryObservation? {
        let n = track.count
        let size = track.meanDiameter
        let dx = track.x[n - 1] - track.x[0], dy = track.y[n - 1] - track.y[0]
        let distance = (dx * dx + dy * dy).squareRoot()
        guard distance >= 2 * size else { return nil }
        let duration = track.t[n - 1]
        guard duration > 0, distance / duration >= minimumSpeed * width else { return nil }
        // A tumbling, blurred, compressed bag's centroid wanders by a fraction of its size.
        let tolerance = max(1.0, 0.25 * size)
        // Seen from an elevated camera, a rising bag moves away along the optical axis, so its image
        // x(t) is not linear (perspective): judge the path by quadratics in t for both coordinates.
        let rms = perspectiveResidual(track)
        // Below confidence 0.1 the points do not follow a projectile (a swinging arm): not a path.
        guard rms <= 2.15 * tolerance else { return nil }
        let confidence = exp(-0.5 * (rms / tolerance) * (rms / tolerance))

        let xs = track.x.map { $0 / width }
        let ys = track.y.map { $0 / height }
        let (c, b, a) = xs.withUnsafeBufferPointer { xb in
            ys.withUnsafeBufferPointer { yb in PolynomialFit.quadratic(xb, yb) }
        }
        var detected: [TrajectoryObservation.Point] = []
        var projected: [SIMD2<Double>] = []
        detected.reserveCapacity(n)
        projected.reserveCapacity(n)
        for i in 0..<n {
            detected.append(.init(x: xs[i], y: ys[i], ptsUs: track.pts[i]))
            projected.append(SIMD2(xs[i], (a * xs[i] + b) * xs[i] + c))
        }
        let f = track.fit
        return TrajectoryObservation(
            uuid: track.uuid, detectedPoints: detected, projectedPoints: projected,
            a: a, b: b, c: c,
            x0: f.x0 / width, vx: f.vx / width, y0: f.y0 / height, vy: f.vy / height, ay: f.ay / height,
            confidence: confidence,
            timeRangeStartUs: track.pts[0], timeRangeEndUs: track.pts[n - 1],
            objectSize: size / width, residualPixels: rms)
    }
}

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
/// An observation appears once a track has `trajectoryLength` points that lie on one
/// projectile's path and is reported again, under the same `uuid`, on every frame that adds a
/// point. Points before the path (the bag still in the thrower's hand) are left out; points
/// after it (sliding after the landing) are reported but not fitted (`PathAssessment`). Straight paths (a bird, a shadow on the ground) are
/// reported too, with `a` and `confidence` near 0, so that the caller can tell them apart from
/// throws.
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
        return track(blobs, ptsUs: frame.ptsUs, width: Double(frame.image.width), height: Double(frame.image.height))
    }

    /// The tracking half of `process`: joins a frame's moving objects to the tracks and returns
    /// the observations of the tracks they extended.
    mutating func track(_ blobs: [MotionBlob], ptsUs: Int64, width: Double, height: Double) -> [TrajectoryObservation] {
        tracker.update(
            blobs: blobs, ptsUs: ptsUs,
            maximumSpeedPixels: configuration.maximumSpeed * width, maximumGap: configuration.maximumGap)
        var observations: [TrajectoryObservation] = []
        for i in tracker.tracks.indices where tracker.tracks[i].updated && tracker.tracks[i].count >= configuration.trajectoryLength {
            if let (o, pathStart) = Self.observation(of: tracker.tracks[i], width: width, height: height, configuration: configuration) {
                observations.append(o)
                if o.confidence >= Self.settledPathConfidence { tracker.settlePath(ofTrack: i, startingAt: pathStart) }
            }
        }
        return observations
    }

    /// Noise and threshold of the last analysed frame, for diagnostics.
    public var diagnostics: (noiseSigma: Double, threshold: Int, globalChanges: Int, activeTracks: Int) {
        (segmenter.noiseSigma, segmenter.threshold, segmenter.globalChanges, tracker.tracks.count)
    }

    /// The moving objects the last analysed frame showed (centre and diameter, full-resolution
    /// pixels), before they were joined into tracks: for finding out why a flight was missed.
    public var lastMovingObjects: [(x: Double, y: Double, diameter: Double)] {
        segmenter.blobs.map { ($0.x, $0.y, $0.diameter) }
    }

    private mutating func ensureUniqueSegmenter() {
        if !isKnownUniquelyReferenced(&segmenter) { segmenter = segmenter.copy() }
    }

    /// Confidence from which a track is taken for a flight: its points before the path are
    /// dropped and it is predicted from the whole path from then on.
    static let settledPathConfidence = 0.9

    /// The observation for a track and the index of the track's first point on the path, or nil
    /// when its points are not (or not yet) a projectile's path (`PathAssessment`). The fit and
    /// the confidence come from the points on the path; the detected points run from the first
    /// of them to the track's latest (after the landing the track may follow the bag a little
    /// further: where it came to rest tells the game more than where it touched down).
    static func observation(of track: Track, width: Double, height: Double, configuration: Configuration) -> (TrajectoryObservation, Int)? {
        let size = track.meanDiameter
        guard let judged = PathAssessment.assess(
            t: track.t, x: track.x, y: track.y, size: size, width: width,
            minimumPoints: configuration.trajectoryLength, minimumSpeed: configuration.minimumSpeed)
        else { return nil }
        let onPath = judged.range
        let range = onPath.lowerBound..<track.count
        let n = range.count
        let xs = track.x[range].map { $0 / width }
        let ys = track.y[range].map { $0 / height }
        let fitted = 0..<onPath.count
        let (c, b, a) = xs.withUnsafeBufferPointer { xb in
            ys.withUnsafeBufferPointer { yb in
                PolynomialFit.quadratic(UnsafeBufferPointer(rebasing: xb[fitted]), UnsafeBufferPointer(rebasing: yb[fitted]))
            }
        }
        var detected: [TrajectoryObservation.Point] = []
        var projected: [SIMD2<Double>] = []
        detected.reserveCapacity(n)
        projected.reserveCapacity(n)
        for (k, i) in range.enumerated() {
            detected.append(.init(x: xs[k], y: ys[k], ptsUs: track.pts[i]))
            projected.append(SIMD2(xs[k], (a * xs[k] + b) * xs[k] + c))
        }
        // x(t), y(t) with t from the first point on the path.
        let t0 = track.t[onPath.lowerBound]
        let ts = track.t[onPath].map { $0 - t0 }
        let f = ts.withUnsafeBufferPointer { tb in
            Array(track.x[onPath]).withUnsafeBufferPointer { xb in
                Array(track.y[onPath]).withUnsafeBufferPointer { yb in ProjectileFit.fit(t: tb, x: xb, y: yb) }
            }
        }
        let observation = TrajectoryObservation(
            uuid: track.uuid, detectedPoints: detected, projectedPoints: projected,
            a: a, b: b, c: c,
            x0: f.x0 / width, vx: f.vx / width, y0: f.y0 / height, vy: f.vy / height, ay: f.ay / height,
            confidence: judged.confidence,
            timeRangeStartUs: track.pts[range.lowerBound], timeRangeEndUs: track.pts[range.upperBound - 1],
            objectSize: size / width, residualPixels: judged.rms)
        return (observation, onPath.lowerBound)
    }
}

import PitchsideCore

/// BlazePose, frame after frame: the pose worker's analyser.
///
/// A plain, synchronous, stateful type. While a person is tracked, each frame
/// runs only the landmark model on the region predicted from the previous
/// frame's landmarks; when presence drops (or on the first frame), the
/// detector searches the frame (whole image, around the last known person,
/// then tiles; see `SearchPlan`) and the landmark model confirms what it finds.
///
/// ```swift
/// let estimator = try PoseEstimator(assets: PoseAssets.default().checked(), configuration: .init(threads: 1))
/// for frame in frames {
///     if let pose = estimator.process(frame) { print(pose.joint(.rightWrist)) }
/// }
/// ```
/// Not thread-safe: one estimator per thread (see `ShardSelector` for splitting a stream).
public final class PoseEstimator {
    /// Tuning; the defaults follow MediaPipe's BlazePose graphs.
    public struct Configuration: Sendable {
        /// XNNPACK threads for each model.
        public var threads: Int
        /// Detector score threshold on the whole image.
        public var minDetectionScore: Float
        /// Detector score threshold on tiles and around the last person, where
        /// people are small and score lower; the landmark model confirms them.
        public var minTileDetectionScore: Float
        /// Pose presence below which the person is considered lost.
        public var minPresence: Float
        public var search: SearchPlan
        /// Detector runs allowed per frame while searching (whole image and the
        /// region around the last person count); tiles beyond it are tried on
        /// the following frames, so an empty scene costs a bounded time per
        /// frame. The first search after a reset tries every tile.
        public var maxDetectorRunsPerFrame: Int
        /// Frames for which the last person's box still guides the search.
        public var rememberLostFrames: Int
        /// A detection whose landmarks have at least this presence (but less
        /// than `minPresence`) gets a second landmark pass on the refined region.
        public var minRefinePresence: Float

        public init(threads: Int = 1, minDetectionScore: Float = 0.5, minTileDetectionScore: Float = 0.4, minPresence: Float = 0.5,
                    search: SearchPlan = SearchPlan(), maxDetectorRunsPerFrame: Int = 8, rememberLostFrames: Int = 60,
                    minRefinePresence: Float = 0.1) {
            self.threads = threads
            self.minDetectionScore = minDetectionScore
            self.minTileDetectionScore = minTileDetectionScore
            self.minPresence = minPresence
            self.search = search
            self.maxDetectorRunsPerFrame = maxDetectorRunsPerFrame
            self.rememberLostFrames = rememberLostFrames
            self.minRefinePresence = minRefinePresence
        }
    }

    /// Work done so far, for benchmarks and diagnostics.
    public struct Statistics: Sendable, Equatable {
        public var frames = 0
        public var posesFound = 0
        public var detectorRuns = 0
        public var landmarkRuns = 0
        public var errors = 0
    }

    public let configuration: Configuration
    public let detector: PoseDetectorModel
    public let landmarkModel: PoseLandmarkModel
    public private(set) var statistics = Statistics()
    /// The last error from the runtime, if a frame failed (the frame gives no pose).
    public private(set) var lastError: Error?

    private var trackedRegion: PoseRegion?
    private var lastBox: PoseBox?
    private var framesSinceSeen = Int.max
    private var tileCursor = 0
    private var searchedOnce = false
    private var imageSize: (Int, Int)?

    public init(assets: PoseAssets, configuration: Configuration = Configuration()) throws {
        let assets = try assets.checked()
        let runtime = try LiteRtRuntime(libraryPath: assets.runtimeLibrary)
        self.configuration = configuration
        self.detector = try PoseDetectorModel(
            runtime: runtime, path: assets.detectorModel, threads: configuration.threads,
            minScore: configuration.minDetectionScore)
        self.landmarkModel = try PoseLandmarkModel(runtime: runtime, path: assets.landmarkModel, threads: configuration.threads)
    }

    public convenience init(assets: PoseAssets, threads: Int) throws {
        try self.init(assets: assets, configuration: Configuration(threads: threads))
    }

    /// The pose of the person in `frame`, or nil when there is nobody.
    public func process(_ frame: VideoFrame) -> PoseResult? {
        process(frame.image)
    }

    /// The pose of the person in `image`, or nil when there is nobody.
    public func process(_ image: ImageBuffer) -> PoseResult? {
        statistics.frames += 1
        if let size = imageSize, size != (image.width, image.height) { reset() }
        imageSize = (image.width, image.height)
        do {
            let result = try estimate(image)
            if let result {
                statistics.posesFound += 1
                trackedRegion = LandmarkDecoder.trackingRegion(result.landmarks)
                lastBox = result.personBox
                framesSinceSeen = 0
            } else {
                trackedRegion = nil
                framesSinceSeen = framesSinceSeen == .max ? .max : framesSinceSeen + 1
            }
            return result.map(\.pose)
        } catch {
            statistics.errors += 1
            lastError = error
            trackedRegion = nil
            return nil
        }
    }

    /// Forgets the tracked person (e.g. after a cut or a change of stream).
    public func reset() {
        trackedRegion = nil
        lastBox = nil
        framesSinceSeen = .max
        tileCursor = 0
        searchedOnce = false
    }

    // MARK: - Stages

    private func estimate(_ image: ImageBuffer) throws -> (pose: PoseResult, landmarks: [PoseLandmark], personBox: PoseBox)? {
        if let region = trackedRegion, let pose = try confirm(image, region: region, usedDetector: false) {
            return pose
        }
        for (index, region) in searchRegions(image).enumerated() {
            statistics.detectorRuns += 1
            // Index 0 is the whole image; the rest are tiles or the last person's neighbourhood.
            let partial = index > 0
            let minScore = partial ? configuration.minTileDetectionScore : configuration.minDetectionScore
            guard let best = try detector.detect(in: image, region: region, minScore: minScore).first else { continue }
            let proposal = best.landmarkRegion
            // A person much larger than a tile would have been found in the whole image.
            if partial && proposal.side > 1.5 * region.side { continue }
            if let pose = try confirm(image, region: proposal, usedDetector: true) { return pose }
        }
        return nil
    }

    /// Runs the landmark model on `region`; the pose when a person is present.
    private func confirm(_ image: ImageBuffer, region: PoseRegion, usedDetector: Bool) throws
        -> (pose: PoseResult, landmarks: [PoseLandmark], personBox: PoseBox)?
    {
        guard region.side >= 4 else { return nil }
        statistics.landmarkRuns += 1
        var region = region
        var output = try landmarkModel.landmarks(in: image, region: region)
        if usedDetector {
            // A detector region can be off for a small or partly seen person; one
            // more pass on the region the landmarks themselves suggest often settles it.
            if output.presence < configuration.minPresence, output.presence >= configuration.minRefinePresence {
                let refined = LandmarkDecoder.trackingRegion(output.landmarks)
                if Self.agree(refined, region) {
                    statistics.landmarkRuns += 1
                    let second = try landmarkModel.landmarks(in: image, region: refined)
                    if second.presence > output.presence { (output, region) = (second, refined) }
                }
            }
            // Landmarks on a real person describe about the region the detector
            // proposed; wild disagreement means the detection was not a person.
            guard Self.agree(LandmarkDecoder.trackingRegion(output.landmarks), region) else { return nil }
        }
        guard output.presence >= configuration.minPresence else { return nil }
        let body = Array(output.landmarks.prefix(LandmarkDecoder.bodyLandmarkCount))
        let box = PoseResult.personBox(landmarks: body)
        let pose = PoseResult(
            landmarks: body, joints: JointMapping.joints(from: body), personBox: box, presence: output.presence,
            region: region, usedDetector: usedDetector, imageWidth: image.width, imageHeight: image.height)
        return (pose, output.landmarks, box)
    }

    /// True when two regions are about the same place and size.
    static func agree(_ a: PoseRegion, _ b: PoseRegion) -> Bool {
        let ratio = a.side / max(b.side, 1e-3)
        return ratio > 0.5 && ratio < 2 && a.center.distance(to: b.center) < 0.5 * max(a.side, b.side)
    }

    /// Whole image, the neighbourhood of a recently lost person, then the next tiles in turn.
    private func searchRegions(_ image: ImageBuffer) -> [PoseRegion] {
        var regions = [PoseRegion.wholeImage(width: image.width, height: image.height)]
        if let box = lastBox, framesSinceSeen <= configuration.rememberLostFrames {
            regions.append(configuration.search.around(box))
        }
        let tiles = configuration.search.tiles(width: image.width, height: image.height)
        guard !tiles.isEmpty else { return regions }
        // The first search of a stream looks everywhere at once; later searches
        // (an empty scene, a lost person) spread the tiles over several frames.
        let budget = searchedOnce ? max(0, configuration.maxDetectorRunsPerFrame - regions.count) : tiles.count
        searchedOnce = true
        let count = min(budget, tiles.count)
        for i in 0..<count { regions.append(tiles[(tileCursor + i) % tiles.count]) }
        tileCursor = (tileCursor + count) % tiles.count
        return regions
    }
}

import PitchsideCore

/// BlazePose, frame after frame: the pose worker's analyser.
///
/// A plain, synchronous, stateful type. While people are tracked, each frame
/// runs only the landmark model on the regions predicted from the previous
/// frame's landmarks; when nobody is left (or on the first frame), the
/// detector searches the frame (whole image, around the last known person,
/// then tiles; see `SearchPlan`) and the landmark model confirms what it finds.
/// While someone is tracked, a few detector runs every `discoveryInterval`
/// frames look for more people (up to `maxPeople`): in a two-player game the
/// one waiting is in view too, and only the game knows, at release, who threw.
/// Each full pass over the frame that finds nobody new doubles the interval (up
/// to 4 times), so a scene with one player pays little; anyone lost or found
/// brings it back. Someone lost while others are still tracked is looked for
/// where they were lost, one detector run a frame for `rememberLostFrames`
/// frames: those looks at the scale of the people still tracked cannot find a
/// thrower near the camera lost in the swing while a far walker stays tracked.
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
        /// Frames for which the last person's box still guides the search, and someone lost
        /// while others stay tracked is looked for where they were lost.
        public var rememberLostFrames: Int
        /// A detection whose landmarks have at least this presence (but less
        /// than `minPresence`) gets a second landmark pass on the refined region.
        public var minRefinePresence: Float
        /// People tracked at once (1: only the first one found).
        public var maxPeople: Int
        /// `maxPeople` unless told otherwise: two players and a passer-by.
        public static let defaultMaxPeople = 3
        /// Frames between two looks for more people while someone is tracked.
        public var discoveryInterval: Int
        /// Detector runs of each such look (the whole image, then the next tiles in turn).
        public var discoveryDetectorRuns: Int

        public init(threads: Int = 1, minDetectionScore: Float = 0.5, minTileDetectionScore: Float = 0.4, minPresence: Float = 0.5,
                    search: SearchPlan = SearchPlan(), maxDetectorRunsPerFrame: Int = 8, rememberLostFrames: Int = 60,
                    minRefinePresence: Float = 0.1, maxPeople: Int = defaultMaxPeople, discoveryInterval: Int = 10,
                    discoveryDetectorRuns: Int = 3) {
            self.threads = threads
            self.minDetectionScore = minDetectionScore
            self.minTileDetectionScore = minTileDetectionScore
            self.minPresence = minPresence
            self.search = search
            self.maxDetectorRunsPerFrame = maxDetectorRunsPerFrame
            self.rememberLostFrames = rememberLostFrames
            self.minRefinePresence = minRefinePresence
            self.maxPeople = max(1, maxPeople)
            self.discoveryInterval = max(1, discoveryInterval)
            self.discoveryDetectorRuns = max(1, discoveryDetectorRuns)
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

    /// The regions of the people tracked, longest tracked first, and their boxes.
    private var trackedRegions: [PoseRegion] = []
    private var trackedBoxes: [PoseBox] = []
    /// People lost while others stayed tracked: where, and at which frame (`statistics.frames`).
    private var lostPeople: [(box: PoseBox, frame: Int)] = []
    private var lastBox: PoseBox?
    private var framesSinceSeen = Int.max
    private var tileCursor = 0
    private var searchedOnce = false
    private var framesSinceDiscovery = 0
    private var discoveryCursor = 0
    private var discoveryBackoff = 1
    private var imageSize: (Int, Int)?

    /// One person found in a frame, with what tracking needs of it.
    private struct Found {
        var pose: PoseResult
        var landmarks: [PoseLandmark]
        var personBox: PoseBox
    }

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

    /// The pose of the person in `image` tracked longest, or nil when there is nobody.
    public func process(_ image: ImageBuffer) -> PoseResult? {
        processPeople(image).first
    }

    /// The poses of everyone tracked in `frame`, longest tracked first (empty when nobody is there).
    public func processPeople(_ frame: VideoFrame) -> [PoseResult] {
        processPeople(frame.image)
    }

    /// The poses of everyone tracked in `image`, longest tracked first (empty when nobody is there).
    public func processPeople(_ image: ImageBuffer) -> [PoseResult] {
        statistics.frames += 1
        if let size = imageSize, size != (image.width, image.height) { reset() }
        imageSize = (image.width, image.height)
        do {
            var found = try followTracked(image)
            rememberLost(found: found)
            if found.isEmpty {
                if let first = try search(image) { found = [first] }
                framesSinceDiscovery = 0
            } else if found.count < configuration.maxPeople, let lost = lostPeople.last {
                if let again = try recover(image, around: lost.box, known: found) {
                    found.append(again)
                    lostPeople.removeLast()
                }
            } else if found.count < configuration.maxPeople {
                framesSinceDiscovery += 1
                if framesSinceDiscovery >= configuration.discoveryInterval * discoveryBackoff {
                    framesSinceDiscovery = 0
                    let more = try discover(image, known: found)
                    // A full pass over the frame found nobody new: look less often.
                    if more.isEmpty, discoveryCursor < configuration.discoveryDetectorRuns {
                        discoveryBackoff = min(discoveryBackoff * 2, Self.maximumDiscoveryBackoff)
                    }
                    found += more
                }
            }
            // Someone lost or found: look for more people often again, from the nearest tiles.
            if found.count != trackedRegions.count {
                discoveryCursor = 0
                discoveryBackoff = 1
            }
            trackedRegions = found.map { LandmarkDecoder.trackingRegion($0.landmarks) }
            trackedBoxes = found.map(\.personBox)
            if let first = found.first {
                statistics.posesFound += 1
                lastBox = first.personBox
                framesSinceSeen = 0
            } else {
                framesSinceSeen = framesSinceSeen == .max ? .max : framesSinceSeen + 1
            }
            return found.map(\.pose)
        } catch {
            statistics.errors += 1
            lastError = error
            trackedRegions = []
            trackedBoxes = []
            return []
        }
    }

    /// Forgets everyone tracked (e.g. after a cut or a change of stream).
    public func reset() {
        trackedRegions = []
        trackedBoxes = []
        lostPeople = []
        framesSinceDiscovery = 0
        discoveryCursor = 0
        discoveryBackoff = 1
        lastBox = nil
        framesSinceSeen = .max
        tileCursor = 0
        searchedOnce = false
    }

    // MARK: - Stages

    /// The tracked people still present, each once (two tracks that closed on one person become one).
    private func followTracked(_ image: ImageBuffer) throws -> [Found] {
        var found: [Found] = []
        for region in trackedRegions {
            guard let person = try confirm(image, region: region, usedDetector: false),
                  !found.contains(where: { Self.samePerson($0.personBox, person.personBox) }) else { continue }
            found.append(person)
        }
        return found
    }

    /// Notes who of the last frame's people `found` lacks, and forgets those lost too long ago
    /// or found again (by a look for more people).
    private func rememberLost(found: [Found]) {
        let now = statistics.frames
        for box in trackedBoxes where !found.contains(where: { Self.samePerson($0.personBox, box) }) {
            lostPeople.append((box, now))
        }
        lostPeople.removeAll { lost in
            now - lost.frame > configuration.rememberLostFrames
                || found.contains { Self.samePerson($0.personBox, lost.box) }
        }
    }

    /// Someone lost at `box` while others stayed tracked, found again by one detector run
    /// around where they were lost (the people tracked hidden from it).
    private func recover(_ image: ImageBuffer, around box: PoseBox, known: [Found]) throws -> Found? {
        try newPeople(in: image, region: configuration.search.around(box), partial: true, known: known, limit: 1).first
    }

    /// At most `limit` people not among `known` that one detector run over `region` shows (the
    /// known hidden from it), each confirmed by the landmark model. `partial`: a tile or a
    /// person's neighbourhood, not the whole image (the tiles' lower threshold, and a proposal
    /// much larger than the region would have been found in the whole image).
    private func newPeople(in image: ImageBuffer, region: PoseRegion, partial: Bool, known: [Found], limit: Int) throws -> [Found] {
        statistics.detectorRuns += 1
        let minScore = partial ? configuration.minTileDetectionScore : configuration.minDetectionScore
        var all = known
        for detection in try detector.detect(in: image, region: region, minScore: minScore, hiding: known.map(\.personBox)) {
            let proposal = detection.landmarkRegion
            if partial && proposal.side > 1.5 * region.side { continue }
            // Someone tracked already stands there: no landmark run needed.
            if all.contains(where: { $0.personBox.contains(proposal.center) }) { continue }
            guard let person = try confirm(image, region: proposal, usedDetector: true),
                  !all.contains(where: { Self.samePerson($0.personBox, person.personBox) }) else { continue }
            all.append(person)
            if all.count - known.count >= limit { break }
        }
        return Array(all.dropFirst(known.count))
    }

    /// With nobody tracked: the first person the search plan's regions show.
    private func search(_ image: ImageBuffer) throws -> Found? {
        for (index, region) in searchRegions(image).enumerated() {
            statistics.detectorRuns += 1
            // Index 0 is the whole image; the rest are tiles or the last person's neighbourhood.
            let partial = index > 0
            let minScore = partial ? configuration.minTileDetectionScore : configuration.minDetectionScore
            guard let best = try detector.detect(in: image, region: region, minScore: minScore).first else { continue }
            let proposal = best.landmarkRegion
            // A person much larger than a tile would have been found in the whole image.
            if partial && proposal.side > 1.5 * region.side { continue }
            if let person = try confirm(image, region: proposal, usedDetector: true) { return person }
        }
        return nil
    }

    /// People not yet tracked, from a few detector runs over the whole image and the next tiles.
    private func discover(_ image: ImageBuffer, known: [Found]) throws -> [Found] {
        // Tiles at the scale of the people already seen: someone else in the scene stands about as far away.
        let tallest = known.map(\.personBox.height).max() ?? 0
        let side = max(tallest * configuration.search.aroundLastScale, configuration.search.minTileSide)
        // Nearest tiles first: a second player mostly stands near the first.
        let centres = known.map(\.personBox.center)
        func nearness(_ tile: PoseRegion) -> Float { centres.map { $0.distance(to: tile.center) }.min() ?? 0 }
        let tiles = configuration.search.tiles(width: image.width, height: image.height, side: side)
            .map { ($0, nearness($0)) }.sorted { $0.1 < $1.1 }.map(\.0)
        let regions = [PoseRegion.wholeImage(width: image.width, height: image.height)] + tiles
        var all = known
        for _ in 0..<min(configuration.discoveryDetectorRuns, regions.count) {
            let index = discoveryCursor % regions.count
            discoveryCursor = (discoveryCursor + 1) % regions.count
            // Index 0 is the whole image.
            all += try newPeople(in: image, region: regions[index], partial: index > 0, known: all,
                                 limit: configuration.maxPeople - all.count)
            if all.count >= configuration.maxPeople { break }
        }
        return Array(all.dropFirst(known.count))
    }

    /// Most the discovery interval grows by after passes that find nobody new.
    static let maximumDiscoveryBackoff = 4

    /// Widest a person's box may be, in box heights.
    static let widestPerson: Float = 2

    /// Whether two person boxes are one person: they overlap by more than a third.
    static func samePerson(_ a: PoseBox, _ b: PoseBox) -> Bool {
        a.iou(b) > 1.0 / 3
    }

    /// Runs the landmark model on `region`; the pose when a person is present.
    private func confirm(_ image: ImageBuffer, region: PoseRegion, usedDetector: Bool) throws -> Found? {
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
        // Someone standing, bending or crouching is never twice as wide as tall; a board with
        // bags on it, taken for a person, is.
        guard box.width <= Self.widestPerson * box.height else { return nil }
        let pose = PoseResult(
            landmarks: body, joints: JointMapping.joints(from: body), personBox: box, presence: output.presence,
            region: region, usedDetector: usedDetector, imageWidth: image.width, imageHeight: image.height)
        return Found(pose: pose, landmarks: output.landmarks, personBox: box)
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

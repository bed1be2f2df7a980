import ArgumentParser
import Dispatch
import Foundation
import PitchsideCore
import PitchsideMedia
import PitchsidePose

/// `pitchside bench pose`: steady-state tracking throughput of the pose
/// estimator, side by side with the raw landmark-model invoke time (the
/// ceiling: every tracked frame runs the model once).
///
/// Measured in one run, on frames held in memory: the raw invoke time of each
/// model at 1 and 2 XNNPACK threads; frames/s of one estimator at 1 and 2
/// threads; and frames/s of two estimators of 1 thread each sharing the frames
/// by `seq mod 2` on two threads of this process (what two `--shard k/2`
/// workers do, without the sockets).
struct PoseBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pose",
        abstract: "Pose throughput in steady tracking against the landmark model's invoke time.",
        discussion: "See bench/README.md. Needs a release build for meaningful figures.")

    @Option(help: "Image or video to track (default: the messi5.jpg test photo from the cache, repeated).")
    var input: String?
    @Option(help: "Frames per measurement.")
    var frames = 300
    @Option(help: "Scale frames to at most this width first, as the pose rendition does (0: as is).")
    var maxWidth = 640
    @Option(help: "Invocations of each model for the raw invoke times.")
    var invokes = 100
    @Option(help: "Interleaved measurement rounds; the best of each counts (the machine is shared).")
    var rounds = 3

    func run() throws {
        let assets = try PoseAssets.default().checked()
        let path = input ?? PoseAssets.photo("messi5.jpg")
        let clip = try Self.load(path, frames: frames, maxWidth: maxWidth)
        print("pitchside bench pose: \(clip.count) frames of \(clip[0].image.width)×\(clip[0].image.height) from \(path), best of \(rounds) rounds")

        var invoke: [String: Double] = [:]
        var fps: [String: Double] = [:]
        let one = try PoseEstimator(assets: assets, configuration: .init(threads: 1))
        let two = try PoseEstimator(assets: assets, configuration: .init(threads: 2))
        let shards = try (0..<2).map { _ in try PoseEstimator(assets: assets, configuration: .init(threads: 1)) }
        for _ in 0..<rounds {
            for (name, estimator) in [("1 thread", one), ("2 threads", two)] {
                invoke["landmark, " + name] = min(invoke["landmark, " + name] ?? .infinity,
                                                  try Self.medianInvoke(estimator.landmarkModel.model, count: invokes))
                invoke["detector, " + name] = min(invoke["detector, " + name] ?? .infinity,
                                                  try Self.medianInvoke(estimator.detector.model, count: invokes))
            }
            fps["1 estimator, 1 thread"] = max(fps["1 estimator, 1 thread"] ?? 0, Self.track(one, clip))
            fps["1 estimator, 2 threads"] = max(fps["1 estimator, 2 threads"] ?? 0, Self.track(two, clip))
            fps["2 sharded estimators, 1 thread each"] = max(fps["2 sharded estimators, 1 thread each"] ?? 0,
                                                             try Self.trackSharded(shards, clip))
        }
        for estimator in [one, two] + shards where estimator.statistics.posesFound == 0 {
            throw ValidationError("no pose found in \(path): nothing to track")
        }

        print("\nraw model invoke (median of \(invokes)):")
        for key in ["landmark, 1 thread", "landmark, 2 threads", "detector, 1 thread", "detector, 2 threads"] {
            print(String(format: "  %-22@ %6.2f ms  (%5.1f /s)", key as NSString, invoke[key]! * 1000, 1 / invoke[key]!))
        }
        print("\nsteady tracking (landmark model every frame, detector only when lost):")
        let rows: [(String, String)] = [
            ("1 estimator, 1 thread", "landmark, 1 thread"),
            ("1 estimator, 2 threads", "landmark, 2 threads"),
            ("2 sharded estimators, 1 thread each", "landmark, 1 thread"),
        ]
        let base = fps["1 estimator, 1 thread"]!
        for (key, model) in rows {
            let f = fps[key]!
            let shards = key.hasPrefix("2 sharded") ? 2.0 : 1.0
            let ceiling = shards / invoke[model]!
            // Time per frame beyond the model itself: crop, decode, projection, bookkeeping.
            let overhead = shards / f - invoke[model]!
            print(String(format: "  %-36@ %6.1f frames/s  ×%.2f vs 1 thread   ceiling %6.1f/s (%3.0f%%)  pre/post %.2f ms/frame",
                         key as NSString, f, f / base, ceiling, f / ceiling * 100, overhead * 1000))
        }
        let stats = one.statistics
        print("\n1-thread estimator: \(stats.frames) frames, poses \(stats.posesFound), detector runs \(stats.detectorRuns), landmark runs \(stats.landmarkRuns)")
    }

    /// Frames in memory: a video's first `frames`, or one image repeated.
    static func load(_ path: String, frames: Int, maxWidth: Int) throws -> [VideoFrame] {
        let source = try VideoSource(url: path)
        let rendition = Rendition(name: "rgb", layout: .rgb24, maxWidth: maxWidth > 0 ? maxWidth : nil)
        let converter = RenditionConverter(renditions: [rendition])
        var clip: [VideoFrame] = []
        while clip.count < frames, let picture = try source.nextPicture() {
            clip.append(try converter.frames(from: picture, streamID: "bench", seq: UInt64(clip.count))["rgb"]!)
        }
        guard let first = clip.first else { throw ValidationError("\(path) has no pictures") }
        while clip.count < frames {
            var frame = first
            frame.seq = UInt64(clip.count)
            clip.append(frame)
        }
        return clip
    }

    static func medianInvoke(_ model: LiteRtModel, count: Int) throws -> Double {
        try model.run()
        var times: [Double] = []
        for _ in 0..<max(1, count) {
            let start = WallClock.monotonicSeconds()
            try model.run()
            times.append(WallClock.monotonicSeconds() - start)
        }
        return times.sorted()[times.count / 2]
    }

    /// Frames/s of one estimator over the clip, after settling on its first frames.
    static func track(_ estimator: PoseEstimator, _ clip: [VideoFrame]) -> Double {
        estimator.reset()
        for frame in clip.prefix(5) { _ = estimator.process(frame) }
        let start = WallClock.monotonicSeconds()
        for frame in clip { _ = estimator.process(frame) }
        return Double(clip.count) / (WallClock.monotonicSeconds() - start)
    }

    /// Frames/s of estimators sharing the clip by `seq mod N`, each on its own thread.
    static func trackSharded(_ estimators: [PoseEstimator], _ clip: [VideoFrame]) throws -> Double {
        let selectors = try estimators.indices.map { try ShardSelector(index: $0, count: estimators.count) }
        for (estimator, shard) in zip(estimators, selectors) {
            estimator.reset()
            for frame in clip.prefix(10) where shard.accepts(seq: frame.seq) { _ = estimator.process(frame) }
        }
        let group = DispatchGroup()
        let start = WallClock.monotonicSeconds()
        for (estimator, shard) in zip(estimators, selectors) {
            let thread = Thread {
                for frame in clip where shard.accepts(seq: frame.seq) { _ = estimator.process(frame) }
                group.leave()
            }
            group.enter()
            thread.start()
        }
        group.wait()
        return Double(clip.count) / (WallClock.monotonicSeconds() - start)
    }
}

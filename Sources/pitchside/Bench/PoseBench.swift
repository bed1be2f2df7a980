import ArgumentParser
import Dispatch
import Foundation
import PitchsideCore
import PitchsideMedia
import PitchsidePose

/// `pitchside bench pose`: steady-state tracking throughput of the pose
/// estimator, side by side with the raw landmark-model invoke time (the
/// ceiling: every tracked frame runs the model once) and with the same models
/// invoked by the LiteRT Python wheel (bench/peers/pose_litert.py).
///
/// Measured in one run, on frames held in memory, rounds interleaved: the raw
/// invoke time of each model at 1 and 2 XNNPACK threads, on the crops of the
/// clip's first frame (the peer invokes on the same bytes); frames/s of one
/// estimator at 1 and 2 threads; and frames/s of two estimators of 1 thread
/// each sharing the frames by `seq mod 2` on two threads of this process (what
/// two `--shard k/2` workers do, without the sockets). Time beyond the models
/// ("pre/post": crop, decode, projection, bookkeeping) is measured directly:
/// the loop's time less the time spent inside the models' runs.
struct PoseBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pose",
        abstract: "Pose throughput in steady tracking against the landmark model's invoke time and a LiteRT peer.",
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
    @Option(help: "Python interpreter with ai-edge-litert==2.3.0 for the peer (empty: skip the peer).")
    var python = "python3"
    @Option(help: "The peer script.")
    var peer = "bench/peers/pose_litert.py"
    @Flag(help: "Only track the clip once with one 1-thread estimator (for profilers such as callgrind).")
    var trackOnly = false

    func run() throws {
        let assets = try PoseAssets.default().checked()
        let path = input ?? PoseAssets.photo("messi5.jpg")
        let clip = try Self.load(path, frames: frames, maxWidth: maxWidth)
        print("pitchside bench pose: \(clip.count) frames of \(clip[0].image.width)×\(clip[0].image.height) from \(path), best of \(rounds) rounds")
        print(String(format: "load average at start: %.2f (%d processors)", Self.loadAverage(), ProcessInfo.processInfo.activeProcessorCount))

        if trackOnly {
            let estimator = try PoseEstimator(assets: assets, configuration: .init(threads: 1))
            let m = try Self.track([estimator], clip)
            print(String(format: "1 estimator, 1 thread: %.1f frames/s, in models %.2f ms/frame (processor %.2f ms), pre/post %.2f ms/frame (processor %.2f ms)",
                         m.fps, m.modelSeconds * 1000, m.modelProcessorSeconds * 1000,
                         m.prePostSeconds * 1000, m.prePostProcessorSeconds * 1000))
            return
        }
        var invoke: [String: Double] = [:]
        var invokeCPU: [String: Double] = [:]
        var tracking: [String: Tracking] = [:]
        var prePostCPU: [String: Double] = [:]
        var peerMs: [String: Double] = [:]
        var peerNote = "not run (no --python)"
        let one = try PoseEstimator(assets: assets, configuration: .init(threads: 1))
        let two = try PoseEstimator(assets: assets, configuration: .init(threads: 2))
        let shards = try (0..<2).map { _ in try PoseEstimator(assets: assets, configuration: .init(threads: 1)) }

        // Both sides invoke on the crops of the first frame: the landmark input
        // after the estimator found the person, the detector's whole-image search.
        func prime() { for e in [one, two] { e.reset(); _ = e.process(clip[0]) } }
        prime()
        let scratch = FileManager.default.temporaryDirectory
        let landmarkInput = scratch.appendingPathComponent("pitchside-pose-landmark-\(getpid()).f32")
        let detectorInput = scratch.appendingPathComponent("pitchside-pose-detector-\(getpid()).f32")
        defer {
            try? FileManager.default.removeItem(at: landmarkInput)
            try? FileManager.default.removeItem(at: detectorInput)
        }
        let runPeer = !python.isEmpty && FileManager.default.fileExists(atPath: peer)
        if runPeer {
            try Self.write(one.landmarkModel.model, to: landmarkInput)
            try Self.write(one.detector.model, to: detectorInput)
        }

        func keepMin(_ table: inout [String: Double], _ key: String, _ value: Double) {
            table[key] = min(table[key] ?? .infinity, value)
        }
        for _ in 0..<rounds {
            prime()
            for (name, estimator) in [("1 thread", one), ("2 threads", two)] {
                for (model, lite) in [("landmark", estimator.landmarkModel.model), ("detector", estimator.detector.model)] {
                    let (wall, cpu) = try Self.medianInvoke(lite, count: invokes)
                    keepMin(&invoke, "\(model), \(name)", wall)
                    keepMin(&invokeCPU, "\(model), \(name)", cpu)
                }
            }
            if runPeer {
                for threads in [1, 2] {
                    do {
                        let result = try runPeerOnce(threads: threads, landmark: landmarkInput, detector: detectorInput)
                        for (key, ms) in result {
                            // "landmark, interpreter, wall" → "landmark, interpreter, 1 thread, wall"
                            let parts = key.components(separatedBy: ", ")
                            let name = ([parts[0], parts[1], threads == 1 ? "1 thread" : "2 threads", parts[2]]).joined(separator: ", ")
                            keepMin(&peerMs, name, ms)
                        }
                        peerNote = "ai-edge-litert 2.3.0 from Python (\(python))"
                    } catch {
                        peerNote = "not run (\(error))"
                    }
                }
            }
            for (key, estimators) in [("1 estimator, 1 thread", [one]), ("1 estimator, 2 threads", [two]),
                                      ("2 sharded estimators, 1 thread each", shards)] {
                let m = try Self.track(estimators, clip)
                if m.fps > tracking[key]?.fps ?? 0 { tracking[key] = m }
                prePostCPU[key] = min(prePostCPU[key] ?? .infinity, m.prePostProcessorSeconds)
            }
        }
        for estimator in [one, two] + shards where estimator.statistics.posesFound == 0 {
            throw ValidationError("no pose found in \(path): nothing to track")
        }

        print("\nraw model invoke, median of \(invokes), best round; same input bytes on both sides")
        print("  peer: \(peerNote)")
        print("  (wall ms / processor ms of the process)   Pitchside        peer Interpreter   peer CompiledModel   Pitchside ÷ best peer")
        for model in ["landmark", "detector"] {
            for threads in ["1 thread", "2 threads"] {
                let key = "\(model), \(threads)"
                var line = "  " + Self.padded(key, 38) + String(format: " %6.2f / %6.2f", invoke[key]! * 1000, invokeCPU[key]! * 1000)
                let peer = ["interpreter", "compiled model"].compactMap { api -> (Double, Double)? in
                    guard let wall = peerMs["\(model), \(api), \(threads), wall"],
                          let cpu = peerMs["\(model), \(api), \(threads), cpu"] else { return nil }
                    return (wall, cpu)
                }
                if peer.count == 2 {
                    let bestWall = min(peer[0].0, peer[1].0), bestCPU = min(peer[0].1, peer[1].1)
                    line += String(format: "    %6.2f / %6.2f    %6.2f / %6.2f       ×%.2f / ×%.2f",
                                   peer[0].0, peer[0].1, peer[1].0, peer[1].1,
                                   invoke[key]! * 1000 / bestWall, invokeCPU[key]! * 1000 / bestCPU)
                }
                print(line)
            }
        }
        print("\nsteady tracking (landmark model every frame, detector only when lost), best round:")
        print("                                        frames/s  vs 1 thread  vs ceiling (1 / median invoke)   ms/frame: in models  pre/post   processor ms/frame: in models  pre/post")
        let rows: [(String, String)] = [
            ("1 estimator, 1 thread", "landmark, 1 thread"),
            ("1 estimator, 2 threads", "landmark, 2 threads"),
            ("2 sharded estimators, 1 thread each", "landmark, 1 thread"),
        ]
        let base = tracking["1 estimator, 1 thread"]!.fps
        for (key, model) in rows {
            let m = tracking[key]!
            let shards = key.hasPrefix("2 sharded") ? 2.0 : 1.0
            let ceiling = shards / invoke[model]!
            print("  " + Self.padded(key, 36) + String(format: " %7.1f     ×%.2f       %3.0f%% of %6.1f/s              %6.2f      %6.2f                 %6.2f      %6.2f",
                         m.fps, m.fps / base, m.fps / ceiling * 100, ceiling,
                         m.modelSeconds * 1000, m.prePostSeconds * 1000,
                         m.modelProcessorSeconds * 1000, prePostCPU[key]! * 1000))
        }
        let stats = one.statistics
        print("\n1-thread estimator: \(stats.frames) frames, poses \(stats.posesFound), detector runs \(stats.detectorRuns), landmark runs \(stats.landmarkRuns)")
        print(String(format: "load average at end: %.2f", Self.loadAverage()))
    }

    /// Runs the peer once (one round) and returns its medians in ms, keyed "landmark, interpreter, wall" etc.
    private func runPeerOnce(threads: Int, landmark: URL, detector: URL) throws -> [String: Double] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, peer, "--threads", String(threads), "--invokes", String(invokes), "--rounds", "1",
                             "--landmark-input", landmark.path, "--detector-input", detector.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let object = try? JSONSerialization.jsonObject(with: out) as? [String: Any],
              let wall = object["ms"] as? [String: Double], let cpu = object["cpu_ms"] as? [String: Double]
        else { throw ValidationError("\(python) \(peer) failed (is ai-edge-litert==2.3.0 installed?)") }
        var result: [String: Double] = [:]
        for (key, ms) in wall { result[key + ", wall"] = ms }
        for (key, ms) in cpu { result[key + ", cpu"] = ms }
        return result
    }

    /// The model's current input 0 as raw float32 bytes.
    static func write(_ model: LiteRtModel, to url: URL) throws {
        let data = model.withInput(0) { Data(buffer: $0) }
        try data.write(to: url)
    }

    static func padded(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func loadAverage() -> Double {
        var load = [Double](repeating: 0, count: 3)
        return getloadavg(&load, 3) > 0 ? load[0] : .nan
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

    /// Median wall time and median processor time (all of the process's threads) of one run.
    static func medianInvoke(_ model: LiteRtModel, count: Int) throws -> (wall: Double, cpu: Double) {
        try model.run()
        var wall: [Double] = [], cpu: [Double] = []
        for _ in 0..<max(1, count) {
            let start = WallClock.monotonicSeconds(), startCPU = processorSeconds()
            try model.run()
            wall.append(WallClock.monotonicSeconds() - start)
            cpu.append(processorSeconds() - startCPU)
        }
        return (wall.sorted()[wall.count / 2], cpu.sorted()[cpu.count / 2])
    }

    static func processorSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
    }

    struct Tracking {
        var fps: Double
        /// Per frame, averaged over the estimators: wall time inside model runs, and all the rest.
        var modelSeconds: Double
        var prePostSeconds: Double
        /// Per frame: the estimators' threads' processor time inside and outside
        /// model runs (what a busy machine inflates least; inside counts only
        /// the calling thread, so it is the model's whole cost at 1 thread).
        var modelProcessorSeconds: Double
        var prePostProcessorSeconds: Double
    }

    /// Frames/s of estimators sharing the clip by `seq mod N`, each on its own
    /// thread (one estimator: this thread), after settling on the first frames.
    static func track(_ estimators: [PoseEstimator], _ clip: [VideoFrame]) throws -> Tracking {
        let selectors = try estimators.indices.map { try ShardSelector(index: $0, count: estimators.count) }
        for (estimator, shard) in zip(estimators, selectors) {
            estimator.reset()
            for frame in clip.prefix(10) where shard.accepts(seq: frame.seq) { _ = estimator.process(frame) }
        }
        func modelTime() -> Double {
            estimators.reduce(0) { $0 + $1.landmarkModel.model.runSeconds + $1.detector.model.runSeconds }
        }
        func modelThreadTime() -> Double {
            estimators.reduce(0) { $0 + $1.landmarkModel.model.runThreadSeconds + $1.detector.model.runThreadSeconds }
        }
        let modelBefore = modelTime(), modelThreadBefore = modelThreadTime()
        let loopThreadSeconds = Tally()
        let start = WallClock.monotonicSeconds()
        if estimators.count == 1 {
            let threadStart = ThreadClock.seconds()
            for frame in clip { _ = estimators[0].process(frame) }
            loopThreadSeconds.add(ThreadClock.seconds() - threadStart)
        } else {
            let group = DispatchGroup()
            for (estimator, shard) in zip(estimators, selectors) {
                let thread = Thread {
                    let threadStart = ThreadClock.seconds()
                    for frame in clip where shard.accepts(seq: frame.seq) { _ = estimator.process(frame) }
                    loopThreadSeconds.add(ThreadClock.seconds() - threadStart)
                    group.leave()
                }
                group.enter()
                thread.start()
            }
            group.wait()
        }
        let elapsed = WallClock.monotonicSeconds() - start
        let frames = Double(clip.count)
        let model = (modelTime() - modelBefore) / frames
        // Each estimator's thread was busy for `elapsed`, over its share of the frames.
        let busy = elapsed * Double(estimators.count) / frames
        let insideModels = (modelThreadTime() - modelThreadBefore) / frames
        let outsideModels = loopThreadSeconds.total / frames - insideModels
        return Tracking(fps: frames / elapsed, modelSeconds: model, prePostSeconds: busy - model,
                        modelProcessorSeconds: insideModels, prePostProcessorSeconds: outsideModels)
    }
}

/// A sum that several threads add to.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var sum = 0.0
    var total: Double { lock.withLock { sum } }
    func add(_ value: Double) { lock.withLock { sum += value } }
}

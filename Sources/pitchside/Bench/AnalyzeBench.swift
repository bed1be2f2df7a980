import ArgumentParser
import Foundation
import PitchsideCore
import PitchsideNodes
import PitchsidePose
import PitchsideSynth

/// `pitchside bench analyze`: the whole cluster on a 60 s 1280×720 game, as users run it.
struct AnalyzeBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Time `pitchside analyze` on a 60 s 1280×720 30 fps game (× real time, processor time per process), then capture-to-aggregator latency in live pacing.",
        discussion: """
            The game (seed 5050 by default) is rendered once into $PITCHSIDE_CACHE/bench-games.
            Baseline, same run: the processor time the processes used, spread over 2 cores with
            no waiting (and no process faster than its own processor time): the best wall time
            this pipeline could reach here; the ratio says how much the cluster loses to
            lockstep waits, sockets and other load.
              pitchside bench analyze
              pitchside bench analyze --pose-shards 2 --no-live
            """)

    @Option(help: "Seed of the game (5000–5099 are for tests and benchmarks).") var seed: UInt64 = 5050
    @Option(help: "Seconds of game.") var seconds: Double = 60
    @Option(help: ArgumentHelp("A video to use instead of the synthetic game.", valueName: "file")) var video: String?
    @Option(help: "Pose workers for analyze (each takes every N-th frame).") var poseShards = 1
    @Option(help: "Poses on every N-th frame while the body moves slowly (analyze's --pose-every).") var poseEvery = AnalyzeCommand.defaultPoseEvery
    @Option(help: "Seconds of the live run (from the start of the game).") var liveSeconds: Double = 60
    @Flag(help: "Skip the live-pacing latency run.") var noLive = false
    @Flag(help: "Skip the analyze run.") var noAnalyze = false

    func run() throws {
        let path = try video ?? Self.gameVideo(seed: seed, seconds: seconds)
        let info = try Self.probe(path)
        print("bench analyze: \(path)")
        print(String(format: "  %d frames %@ @ %.0f fps = %.1f s of game; load average %@; 2 cores",
                     info.frames, info.size, info.fps, info.seconds, loadAverage()))
        if !noAnalyze { try analyzeRun(path, info: info) }
        if !noLive { try liveRun(path, info: info) }
    }

    // MARK: - analyze (lockstep)

    private func analyzeRun(_ path: String, info: VideoFacts) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pitchside-bench-analyze-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let before = Self.childrenCPU()
        let start = WallClock.monotonicSeconds()
        var sampler = ProcessSampler()
        let analyze = try Self.spawn(["analyze", path, "--json", "--pose-shards", "\(poseShards)",
                                         "--pose-every", "\(poseEvery)"], output: dir, name: "analyze")
        while analyze.isRunning {
            sampler.sample()
            usleep(200_000)
        }
        analyze.waitUntilExit()
        let wall = WallClock.monotonicSeconds() - start
        let total = Self.childrenCPU() - before
        guard analyze.terminationStatus == 0 else {
            throw ValidationError("analyze failed (\(analyze.terminationStatus)): \(Self.read(dir, "analyze.err").suffix(2000))")
        }
        let events = Self.read(dir, "analyze.out").split(separator: "\n")
        let throwsFound = events.filter { $0.contains("\"throwCompleted\"") }.count
        print("\npitchside analyze --pose-shards \(poseShards) --pose-every \(poseEvery) (lockstep): \(events.count) events, \(throwsFound) throws")
        print(String(format: "  wall %.1f s = %.2f× real time; processor %.1f s (%.1f ms/frame); load average after %@",
                     wall, info.seconds / wall, total, total * 1000 / Double(info.frames), loadAverage()))
        print("  process                 cpu s   ms/frame   share of wall")
        for (name, cpu) in sampler.byName {
            print("  " + name.padding(toLength: 20, withPad: " ", startingAt: 0)
                  + String(format: " %7.1f %10.2f %12.0f %%", cpu, cpu * 1000 / Double(info.frames), cpu / wall * 100))
        }
        let busiest = sampler.byName.first?.seconds ?? 0
        let ceiling = max(total / 2, busiest)
        print(String(format: "  baseline: %.1f s of processor time over 2 cores, the busiest process alone %.1f s → best wall %.1f s = %.2f× real time; reached %.0f %% of it",
                     total, busiest, ceiling, info.seconds / ceiling, ceiling / wall * 100))
    }

    // MARK: - live latency

    private func liveRun(_ path: String, info: VideoFacts) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pitchside-bench-live-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = FreePorts.block()
        let common = ["--base-port", "\(base)", "--log-level", "info"]
        let frames = min(info.frames, Int(liveSeconds * info.fps))
        var sampler = ProcessSampler()
        let start = WallClock.monotonicSeconds()
        let aggregator = try Self.spawn(["aggregate", "--database", dir.appendingPathComponent("g.sqlite").path, "--exit-at-end"] + common,
                                        output: dir, name: "aggregate")
        var workers: [Process] = []
        for role in ["detection", "trajectory", "pose"] {
            workers.append(try Self.spawn(["worker", role, "--exit-at-end", "--queue", "\(UpCommand.liveReceiveQueue)"] + common,
                                          output: dir, name: role))
        }
        let capture = try Self.spawn(["capture", "--input", path, "--pacing", "live", "--consumers", "3", "--quiet",
                                      "--max-frames", "\(frames)"] + common, output: dir, name: "capture")
        let everyone = [capture] + workers + [aggregator]
        let deadline = start + liveSeconds + 120
        while everyone.contains(where: \.isRunning) && WallClock.monotonicSeconds() < deadline {
            sampler.sample()
            usleep(200_000)
        }
        for p in everyone where p.isRunning { p.terminate() }
        for p in everyone { p.waitUntilExit() }
        let wall = WallClock.monotonicSeconds() - start
        let log = Self.read(dir, "aggregate.err")
        let latency = log.components(separatedBy: "\n").first { $0.contains("frame latency") }
            .flatMap { $0.components(separatedBy: "aggregator: ").last } ?? "not measured (see \(dir.path))"
        print(String(format: "\nlive pacing, %d frames (%.1f s of game), wall %.1f s; load average after %@", frames,
                     Double(frames) / info.fps, wall, loadAverage()))
        print("  frame latency, capture to aggregator (every role's FrameDone in): \(latency)")
        for role in ["detection", "trajectory", "pose"] {
            let end = Self.read(dir, "\(role).err").components(separatedBy: "\n").first { $0.contains("end of stream") }
            let lost = end.flatMap { $0.components(separatedBy: "end of stream ").last } ?? "no end of stream"
            let cpu = sampler.byName.first { $0.name == "worker \(role)" }?.seconds ?? 0
            print("  " + role.padding(toLength: 11, withPad: " ", startingAt: 0)
                  + String(format: " %@; cpu %.1f s (%.1f ms/frame)", lost, cpu, cpu * 1000 / Double(frames)))
        }
    }

    // MARK: - helpers

    struct VideoFacts {
        var frames: Int
        var fps: Double
        var size: String
        var seconds: Double { Double(frames) / fps }
    }

    /// Frame count and rate of the video (the synthetic game's truth.json has them).
    static func probe(_ path: String) throws -> VideoFacts {
        let truth = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("truth.json")
        if let data = FileManager.default.contents(atPath: truth.path),
           let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
           let video = json["video"] as? [String: Any], let frames = (video["frameCount"] as? NSNumber)?.intValue,
           let fps = (video["fps"] as? NSNumber)?.doubleValue, let w = video["width"] as? NSNumber,
           let h = video["height"] as? NSNumber {
            return VideoFacts(frames: frames, fps: fps, size: "\(w.intValue)×\(h.intValue)")
        }
        throw ValidationError("\(path): no truth.json beside it to read the frame count from")
    }

    /// The benchmark game, rendered once into the cache.
    static func gameVideo(seed: UInt64, seconds: Double) throws -> String {
        let dir = "\(PoseAssets.cacheDirectory())/bench-games/analyze-seed\(seed)-1280x720-\(Int(seconds))s"
        if FileManager.default.fileExists(atPath: dir + "/truth.json") { return dir + "/game.mp4" }
        print("rendering the benchmark game (seed \(seed), \(Int(seconds)) s at 1280×720) into \(dir), once")
        let (game, _) = SynthBench.benchGame(seed: seed, seconds: seconds)
        let scratch = dir + ".partial-\(getpid())"
        var writer = GameWriter(directory: scratch)
        writer.encoderThreads = 2
        _ = try writer.write(game)
        try? FileManager.default.removeItem(atPath: dir)
        try FileManager.default.moveItem(atPath: scratch, toPath: dir)
        return dir + "/game.mp4"
    }

    static func spawn(_ arguments: [String], output dir: URL, name: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: SelfExecutable.path)
        p.arguments = arguments
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("\(name).out").path, contents: nil)
        _ = FileManager.default.createFile(atPath: dir.appendingPathComponent("\(name).err").path, contents: nil)
        p.standardOutput = try FileHandle(forWritingTo: dir.appendingPathComponent("\(name).out"))
        p.standardError = try FileHandle(forWritingTo: dir.appendingPathComponent("\(name).err"))
        try p.run()
        return p
    }

    static func read(_ dir: URL, _ file: String) -> String {
        (try? String(contentsOf: dir.appendingPathComponent(file), encoding: .utf8)) ?? ""
    }

    /// Processor seconds of every reaped child (and their reaped children).
    static func childrenCPU() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}

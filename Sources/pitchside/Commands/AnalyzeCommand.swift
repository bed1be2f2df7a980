import ArgumentParser
import Foundation
import PitchsideCore
import PitchsidePose
import PitchsideNodes

/// `pitchside analyze VIDEO`: the whole cluster on one file, in lockstep, then exit.
struct AnalyzeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analyze",
        abstract: "Run the whole cluster on a video file in lockstep and print every game event.",
        discussion: """
            Nothing is lost in lockstep, so the result is the same on every run. The cluster uses
            its own loopback ports and a temporary game log, and exits when the file is done.
              pitchside analyze game.mp4
              pitchside analyze game.mp4 --json > events.jsonl
              pitchside eval --run events.jsonl --truth truth.json
            """
    )

    @Argument(help: "Video file.")
    var video: String

    @Flag(help: "Print events as JSON lines (protobuf JSON of pitchside.v1.GameEvent).")
    var json = false

    @Option(help: ArgumentHelp("Workers to run, comma-separated.", valueName: "list"))
    var workers = UpCommand.availableWorkers.joined(separator: ",")

    @Option(help: "Pose workers, each taking every N-th frame.")
    var poseShards = 1

    @Option(help: "Poses on every N-th frame while the body moves slowly (every frame in a throw's swing).")
    var poseEvery = AnalyzeCommand.defaultPoseEvery

    /// Pose is the costliest analysis; between throws every other frame says as much.
    static let defaultPoseEvery = 2

    @Option(help: "People each pose worker tracks (1 halves the pose work of a two-player game, but the waiting player may be typed instead of the thrower).")
    var poseMaxPeople = PoseEstimator.Configuration.defaultMaxPeople

    @Option(help: "Frames capture may run ahead of the slowest worker.")
    var window = 16

    @Option(help: "Base port of the cluster's loopback endpoints (default: a random free block below the ephemeral range).")
    var basePort: Int?

    @Option(help: "Log level of the cluster's processes.")
    var logLevel = "warning"

    @Option(help: ArgumentHelp("Also keep every worker result the game handled in this file, for `pitchside replay`.", valueName: "file"))
    var keepResults: String?

    @OptionGroup var game: GameOptions

    func run() throws {
        guard FileManager.default.fileExists(atPath: video) else { fail("no such file: \(video)") }
        let logger = Logs.logger("pitchside.analyze", level: logLevel)
        let roles = try UpCommand.parseWorkers(workers)
        let base = basePort ?? FreePorts.block()
        var configuration = PitchsideConfiguration()
        configuration.endpoints = Endpoints(basePort: base)
        configuration.logLevel = logLevel
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pitchside-analyze-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        var children = try UpCommand.workerChildren(roles: roles, poseShards: poseShards, poseEvery: poseEvery,
                                                    poseMaxPeople: poseMaxPeople, configuration: configuration,
                                                    extra: ["--exit-at-end", "--window", "\(window)"], restart: false)
        var aggregate = ["aggregate", "--database", directory.appendingPathComponent("games.sqlite").path,
                         "--roles", roles.joined(separator: ","), "--exit-at-end"] + game.arguments
        if json { aggregate.append("--json") } else { aggregate.append("--human") }
        if let keepResults { aggregate += ["--keep-results", URL(fileURLWithPath: keepResults).path] }
        children.append(ChildSpec(name: "aggregator", executable: SelfExecutable.path,
                                  arguments: aggregate + ClusterOptions.childArguments(configuration),
                                  restartOnExit: false, endsRunOnExit: true))
        children.append(ChildSpec(name: "capture", executable: SelfExecutable.path,
                                  arguments: ["capture", "--input", video, "--pacing", "lockstep",
                                              "--consumers", "\(children.count - 1)", "--quiet"]
                                      + ClusterOptions.childArguments(configuration),
                                  restartOnExit: false))
        let supervisor = Supervisor(children: children, logger: logger)
        supervisor.installSignalHandlers()
        switch supervisor.run() {
        case .finished(_, let status) where status == 0: return
        case .finished(let child, let status): fail("\(child) exited with status \(status)")
        case .stopped: throw ExitCode(130)
        }
    }
}

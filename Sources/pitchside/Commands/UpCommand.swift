import ArgumentParser
import Foundation
import PitchsideCore
import PitchsidePose
import PitchsideGame
import PitchsideNodes
import PitchsideSynth
import Logging

/// `pitchside up`: the whole cluster as supervised child processes on this machine.
struct UpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "up",
        abstract: "Run the whole cluster locally as supervised processes, printing live scores.",
        discussion: """
            Starts capture, the workers and the aggregator as child processes (restarting any that
            dies) and prints the score stream. Ctrl-C stops everything cleanly.
              pitchside up --demo                  the built-in demo game (rendered on first use)
              pitchside up --input game.mp4        your own video
              pitchside up --input /dev/video0     a camera
            """
    )

    @OptionGroup var cluster: ClusterOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("Video file, camera device or URL.", valueName: "path|url"))
    var input: String?

    @Flag(help: "Play the built-in demo game (rendered into the cache on first use).")
    var demo = false

    @Option(help: "Pacing: live (default), lockstep or max.")
    var pacing = "live"

    @Flag(help: "Play the input again when it ends.")
    var loop = false

    @Option(help: ArgumentHelp("Workers to run, comma-separated.", valueName: "list"))
    var workers = UpCommand.availableWorkers.joined(separator: ",")

    @Option(help: "Pose workers, each taking every N-th frame (--shard k/N).")
    var poseShards = 1

    // 2, as `analyze` and the accuracy figures use: with every frame, the pose worker could not
    // keep up live on a 2-core machine beside the other workers (the demo lost 193 of 1987 frames).
    @Option(help: "Poses on every N-th frame while the body moves slowly (every frame in a throw's swing; 1: always every frame).")
    var poseEvery = 2

    @Option(help: "People each pose worker tracks (1 halves the pose work of a two-player game, but the waiting player may be typed instead of the thrower).")
    var poseMaxPeople = PoseEstimator.Configuration.defaultMaxPeople

    @Flag(help: "Print score events as JSON lines instead of the human view.")
    var json = false

    @OptionGroup var game: GameOptions

    /// Worker roles this build has.
    static let availableWorkers = ["detection", "trajectory", "pose"]

    func run() throws {
        let configuration = try cluster.resolve()
        let logger = Logs.logger("pitchside.up", level: configuration.logLevel)
        let roles = try Self.parseWorkers(workers)
        guard Pacing(rawValue: pacing) != nil else { throw ValidationError("pacing must be live, lockstep or max") }
        let video: String
        var game = self.game
        switch (input, demo) {
        case (let input?, false): video = input
        case (nil, true):
            video = try DemoGame.path(logger: logger)
            // The demo is scored by its own rules and players unless told otherwise (a
            // two-player demo under the official rules was scored as Apple's one-player game,
            // every underleg throw ×5 for a player called "player").
            if game.rules == nil, game.players == nil, let own = DemoGame.rulesAndPlayers() {
                game.rules = own.rules
                game.players = own.players.joined(separator: ",")
            }
        default: throw ValidationError("give either --input or --demo")
        }

        let shared = ClusterOptions.childArguments(configuration)
        // Live: a worker keeps 2 frames waiting, so its results stay current when it falls behind.
        var children = try Self.workerChildren(roles: roles, poseShards: poseShards, poseEvery: poseEvery,
                                               poseMaxPeople: poseMaxPeople, configuration: configuration,
                                               extra: pacing == "live" ? ["--queue", "\(Self.liveReceiveQueue)"] : [])
        let consumers = children.count
        // One log per run: a new run is a new game; a restarted aggregator reuses this run's log.
        // Named by time and process: two runs started within a second shared one log, and each
        // aggregator died on the other's events, again and again.
        let database = configuration.dataDirectory + "/up-\(Int(Date().timeIntervalSince1970))-\(getpid()).sqlite"
        children.append(ChildSpec(name: "aggregator", executable: SelfExecutable.path,
                                  arguments: ["aggregate", "--database", database, "--roles", roles.joined(separator: ",")]
                                      + game.arguments + shared))
        var captureArguments = ["capture", "--input", video, "--pacing", pacing, "--consumers", "\(consumers)", "--quiet"]
        if loop { captureArguments.append("--loop") }
        children.append(ChildSpec(name: "capture", executable: SelfExecutable.path, arguments: captureArguments + shared,
                                  restartOnExit: false, endsRunOnExit: !loop))

        logger.info("starting \(children.map(\.name).joined(separator: ", ")) on \(video)")
        let supervisor = Supervisor(children: children, logger: logger)
        supervisor.installSignalHandlers()
        let printer = ScorePrinter(endpoints: configuration.endpoints, json: json, logger: logger)
        printer.start()
        let outcome = supervisor.run()
        printer.stop()
        if case .finished(_, let status) = outcome, status != 0 {
            fail("capture exited with status \(status)")
        }
    }

    /// Frames a live worker keeps waiting.
    static let liveReceiveQueue = 2

    /// Checks a comma-separated worker list against the roles this build has.
    static func parseWorkers(_ list: String) throws -> [String] {
        let roles = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !roles.isEmpty else { throw ValidationError("no workers given") }
        for role in roles where !availableWorkers.contains(role) {
            throw ValidationError("unknown worker '\(role)' (available: \(availableWorkers.joined(separator: ", ")))")
        }
        return roles
    }

    /// The worker processes of a cluster. The pose worker may be sharded by frame
    /// (`poseShards` workers), and may analyse only every `poseEvery`-th of its frames while
    /// the body moves slowly (`worker pose --every`); the game interpolates the gaps.
    static func workerChildren(roles: [String], poseShards: Int, poseEvery: Int,
                               poseMaxPeople: Int = PoseEstimator.Configuration.defaultMaxPeople,
                               configuration: PitchsideConfiguration,
                               extra: [String] = [], restart: Bool = true) throws -> [ChildSpec] {
        guard poseShards >= 1 else { throw ValidationError("--pose-shards must be at least 1") }
        guard poseMaxPeople >= 1 else { throw ValidationError("--pose-max-people must be at least 1") }
        guard poseEvery >= 1, UInt64(poseShards * poseEvery) <= PoseGapFiller.maximumGap else {
            throw ValidationError("--pose-every × --pose-shards must be 1 to \(PoseGapFiller.maximumGap): the game fills gaps of at most that many frames")
        }
        let shared = ClusterOptions.childArguments(configuration) + extra
        var poseOptions = poseEvery > 1 ? ["--every", "\(poseEvery)"] : []
        if poseMaxPeople != PoseEstimator.Configuration.defaultMaxPeople { poseOptions += ["--max-people", "\(poseMaxPeople)"] }
        var children: [ChildSpec] = []
        for role in roles {
            if role == "pose" && poseShards > 1 {
                for k in 0..<poseShards {
                    children.append(ChildSpec(name: "pose-\(k)", executable: SelfExecutable.path,
                                              arguments: ["worker", "pose", "--shard", "\(k)/\(poseShards)"] + poseOptions + shared,
                                              restartOnExit: restart))
                }
            } else {
                children.append(ChildSpec(name: role, executable: SelfExecutable.path,
                                          arguments: ["worker", role] + (role == "pose" ? poseOptions : []) + shared,
                                          restartOnExit: restart))
            }
        }
        return children
    }
}

/// The path of the running executable, so children run the same build.
enum SelfExecutable {
    static var path: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }
}

/// The built-in demo game: a synthetic game rendered once into the cache.
enum DemoGame {
    /// Apple's game, as in the sample: one player, 8 throws (underleg and overhand), three in the
    /// hole, one off, 29 points; the cluster scores it right live and in lockstep.
    static let seed = 2021

    static var directory: String { PoseAssets.cacheDirectory() + "/demo-\(seed)" }

    /// The rules and player names the demo game was rendered with (its truth.json), if readable.
    static func rulesAndPlayers() -> (rules: String, players: [String])? {
        guard let truth = try? GroundTruth.load(path: directory + "/truth.json"), !truth.settings.players.isEmpty else { return nil }
        return (truth.settings.rules.rawValue, truth.settings.players.map(\.name))
    }

    static func path(logger: Logger) throws -> String {
        let video = directory + "/game.mp4"
        if FileManager.default.fileExists(atPath: video) { return video }
        logger.info("rendering the demo game (seed \(seed)) into \(directory), once")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SelfExecutable.path)
        process.arguments = ["synth", "game", "--seed", "\(seed)", "--out", directory, "--size", "1280x720"]
        // What synth prints is the game's truth, throw by throw: not before the live scores.
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: video) else {
            throw NodeError.failed("could not render the demo game (pitchside synth exited with \(process.terminationStatus))")
        }
        return video
    }
}

/// Prints the score stream from a background thread while the cluster runs.
final class ScorePrinter: @unchecked Sendable {
    private let subscriber: ScoreSubscriber
    private let json: Bool
    private let stopping = StopFlag()
    private let finished = DispatchSemaphore(value: 0)

    init(endpoints: Endpoints, json: Bool, logger: Logger) {
        subscriber = ScoreSubscriber(endpoints: endpoints, stream: nil, logger: logger)
        self.json = json
    }

    func start() {
        Thread.detachNewThread { [self] in
            defer { finished.signal() }
            try? subscriber.run(isCancelled: { self.stopping.isRaised }) { event in
                print(self.json ? ScoreFormatter.json(event) : ScoreFormatter.line(event))
                fflush(stdout)
            }
        }
    }

    /// Lets the last events arrive, then ends the subscription.
    func stop() {
        usleep(300_000)
        stopping.raise()
        finished.wait()
    }
}

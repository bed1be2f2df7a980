import ArgumentParser
import Foundation
import PitchsideSynth

/// `pitchside eval`: measures a run, or an analyser, against synthetic games' ground truth.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval", abstract: "Measure a run or an analyser against synthetic games' ground truth.",
        discussion: """
            pitchside eval --run events.jsonl --truth games/7/truth.json      a run's game events (eval game, the default)
            pitchside eval trajectory --corpus synth-corpus/dev               the trajectory detector on a corpus
            pitchside eval detection --corpus synth-corpus/dev                the detection analysis on a corpus
            """,
        subcommands: [EvalGameCommand.self, EvalTrajectoryCommand.self, EvalDetectionCommand.self],
        defaultSubcommand: EvalGameCommand.self)
}

/// `pitchside eval game` (the default): compares a run's game events with ground truth.
struct EvalGameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "game", abstract: "Compare a run's game events with a synthetic game's ground truth.",
        discussion: """
            --run takes JSON lines: GameEvent JSON (throws, score updates, summary) and WorkerResult JSON
            (board observations, for board and hole localisation), mixed in any order.
            Exit status 1 when a --min-… / --max-… threshold is not met.
            """)

    @Option(name: .customLong("run"), help: "The run's JSON-lines file (game events, optionally worker results).")
    var runPath: String
    @Option(help: "truth.json of the synthetic game.") var truth: String
    @Option(help: "More worker results (board observations), JSON lines.") var results: String?
    @Option(help: "Release-time tolerance for matching throws, seconds.") var tolerance = 0.5
    @Flag(help: "Print the report as JSON.") var json = false
    @Option(help: "Minimum throw recall (0–1).") var minRecall: Double?
    @Option(help: "Minimum throw precision (0–1).") var minPrecision: Double?
    @Option(help: "Minimum outcome accuracy (0–1).") var minOutcomeAccuracy: Double?
    @Option(help: "Minimum points accuracy (0–1).") var minPointsAccuracy: Double?
    @Option(help: "Minimum throw-type accuracy (0–1).") var minTypeAccuracy: Double?
    @Option(help: "Minimum game-total accuracy (0–1).") var minGameTotalAccuracy: Double?
    @Option(help: "Maximum median speed error, m/s.") var maxSpeedError: Double?
    @Option(help: "Maximum median launch angle error, degrees.") var maxLaunchAngleError: Double?
    @Option(help: "Maximum median release angle error, degrees.") var maxReleaseAngleError: Double?
    @Option(help: "Maximum median board corner error, pixels.") var maxBoardError: Double?
    @Option(help: "Maximum median hole centre error, pixels.") var maxHoleError: Double?

    func run() throws {
        var log = try RunLog.parse(String(contentsOfFile: runPath, encoding: .utf8))
        if let results {
            let more = try RunLog.parse(String(contentsOfFile: results, encoding: .utf8))
            log.boards += more.boards
        }
        let truthValue = try GroundTruth.load(path: truth)
        let report = Evaluator(releaseTolerance: tolerance).evaluate(run: log, truth: truthValue)
        var thresholds = EvalThresholds()
        thresholds.minRecall = minRecall
        thresholds.minPrecision = minPrecision
        thresholds.minOutcomeAccuracy = minOutcomeAccuracy
        thresholds.minPointsAccuracy = minPointsAccuracy
        thresholds.minTypeAccuracy = minTypeAccuracy
        thresholds.minGameTotalAccuracy = minGameTotalAccuracy
        thresholds.maxSpeedError = maxSpeedError
        thresholds.maxLaunchAngleError = maxLaunchAngleError
        thresholds.maxReleaseAngleError = maxReleaseAngleError
        thresholds.maxBoardError = maxBoardError
        thresholds.maxHoleError = maxHoleError
        let failures = thresholds.check(report)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.text)
        }
        if !failures.isEmpty {
            FileHandle.standardError.write(Data(("below threshold: " + failures.joined(separator: "; ") + "\n").utf8))
            throw ExitCode(1)
        }
    }
}

import ArgumentParser
import Foundation
import PitchsideCore
import PitchsideGame
import PitchsideNodes
import PitchsideSynth

/// `pitchside eval games`: the whole cluster (`pitchside analyze`) on every game of a corpus,
/// each run compared with its truth, and the corpus figures pooled over every throw.
struct EvalGamesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "games", abstract: "Run pitchside analyze on every game of a corpus and pool the figures.",
        discussion: """
            The corpus is a directory of games (each with game.mp4 and truth.json), as written by
            `pitchside synth corpus` (its index.json, else every GAME/truth.json). Each game's events are kept in --out (NAME.events.jsonl, the
            cluster's log in NAME.log, the worker results its game handled in NAME.results), so --reuse evaluates again without analysing,
            and --replay RUNS plays the games again over the results kept in RUNS with this build's game (seconds a game, not minutes:
            for a change to how the game judges throws; a change to a worker needs the videos analysed again, but a change to the
            detection worker is measured in minutes with the detection results of `eval detection --keep-results DIR`: --detection DIR).
              pitchside synth corpus --name held --count 20 --seed 9000 --root /tmp/corpora
              pitchside eval games --corpus /tmp/corpora/held --markdown accuracy.md
              pitchside eval games --corpus /tmp/corpora/held --replay /tmp/corpora/held/runs --out /tmp/replayed
              pitchside eval games --corpus /tmp/corpora/held --replay /tmp/corpora/held/runs --out /tmp/replayed --throw-classifier model.json
              pitchside eval detection --corpus /tmp/corpora/held --keep-results /tmp/detection
              pitchside eval games --corpus /tmp/corpora/held --replay /tmp/corpora/held/runs --out /tmp/replayed --detection /tmp/detection
            Exit status 1 when a game could not be analysed (with --replay: replayed).
            """)

    @Option(help: ArgumentHelp("Directory of games (game.mp4 + truth.json each).", valueName: "dir")) var corpus: String
    @Option(help: ArgumentHelp("Where the runs' events go (default: CORPUS/runs).", valueName: "dir")) var out: String?
    @Flag(help: "Use events already in --out instead of analysing again.") var reuse = false
    @Option(help: ArgumentHelp("Play each game again over the worker results an earlier run kept in this directory (NAME.results) instead of analysing.", valueName: "dir"))
    var replay: String?
    @Option(help: ArgumentHelp("With --replay: the detection results of each game (NAME.jsonl) from `eval detection --keep-results` in place of the kept ones, to measure a detection change in the games in seconds.", valueName: "dir"))
    var detection: String?
    @Option(help: "Pose workers per run, each taking every N-th frame.") var poseShards = 1
    @Option(help: "Poses on every N-th frame while the body moves slowly (analyze's --pose-every).") var poseEvery = AnalyzeCommand.defaultPoseEvery
    @Option(help: ArgumentHelp(
        "Throw-type classifier of every run: trained (the compiled-in model), rules, or a model file from `pitchside train classifier --out` (with --replay: compare models in seconds).",
        valueName: "trained|rules|file"))
    var throwClassifier = "trained"
    @Option(help: "Release-time tolerance for matching throws, seconds.") var tolerance = 0.5
    @Option(help: ArgumentHelp("Also write the report as Markdown to this file.", valueName: "file")) var markdown: String?
    @Flag(help: "Print the corpus report as JSON.") var json = false

    func validate() throws {
        if detection != nil, replay == nil {
            throw ValidationError("--detection replaces the detection results of kept runs: give --replay RUNS too")
        }
        // Checked once here rather than failing every game of the corpus the same way.
        _ = try GameOptions.parse(["--throw-classifier", throwClassifier]).classifier()
    }

    func run() throws {
        let games = try CorpusGames.list(corpus)
        let runs = out ?? corpus + "/runs"
        if let replay, URL(fileURLWithPath: replay).standardized.path == URL(fileURLWithPath: runs).standardized.path {
            fail("--replay and --out are the same directory: the replayed events would replace the run's")
        }
        try FileManager.default.createDirectory(atPath: runs, withIntermediateDirectories: true)
        var results: [CorpusGameResult] = []
        var failed: [String] = []
        let started = WallClock.monotonicSeconds()
        for (k, game) in games.enumerated() {
            let truth = try GroundTruth.load(path: game.directory + "/truth.json")
            let events = "\(runs)/\(game.name).events.jsonl"
            let t0 = WallClock.monotonicSeconds()
            if let replay {
                do {
                    try replayGame(results: "\(replay)/\(game.name).results", detection: detection.map { "\($0)/\(game.name).jsonl" },
                                   truth: truth, events: events)
                } catch {
                    log("[\(k + 1)/\(games.count)] \(game.name): \(error)")
                    failed.append(game.name)
                    continue
                }
            } else if !(reuse && FileManager.default.fileExists(atPath: events)) {
                log("[\(k + 1)/\(games.count)] \(game.name): analysing \(truth.video.frameCount) frames (\(truth.video.width)×\(truth.video.height))")
                let status = try analyse(game: game, truth: truth, events: events, log: "\(runs)/\(game.name).log",
                                         keptResults: "\(runs)/\(game.name).results")
                guard status == 0 else {
                    log("[\(k + 1)/\(games.count)] \(game.name): pitchside analyze exited with status \(status); see \(runs)/\(game.name).log")
                    failed.append(game.name)
                    continue
                }
            }
            let run = try RunLog.parse(String(contentsOfFile: events, encoding: .utf8))
            let result = CorpusGameResult(name: game.name, run: run, truth: truth, evaluator: Evaluator(releaseTolerance: tolerance))
            results.append(result)
            let r = result.report
            log(String(format: "[%d/%d] %@: %d/%d throws found, %d reported, totals %@ (%.0f s; %.0f s so far)",
                       k + 1, games.count, game.name, r.matchedThrows, r.truthThrows, r.runThrows,
                       result.totalsExact ? "exact" : "wrong", WallClock.monotonicSeconds() - t0,
                       WallClock.monotonicSeconds() - started))
        }
        let report = GameCorpusReport(games: results)
        if let markdown { try report.markdown().write(toFile: markdown, atomically: true, encoding: .utf8) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.markdown(), terminator: "")
        }
        if !failed.isEmpty {
            FileHandle.standardError.write(Data("not \(replay == nil ? "analysed" : "replayed"): \(failed.joined(separator: ", "))\n".utf8))
            throw ExitCode(1)
        }
    }

    /// `pitchside analyze` on the game with its rules and players; stdout to `events`.
    private func analyse(game: (name: String, directory: String), truth: GroundTruth, events: String, log: String,
                         keptResults: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: SelfExecutable.path)
        var arguments = ["analyze", game.directory + "/game.mp4", "--json", "--pose-shards", "\(poseShards)", "--pose-every", "\(poseEvery)"]
        arguments += gameArguments(truth) + ["--keep-results", keptResults]
        process.arguments = arguments
        guard FileManager.default.createFile(atPath: events + ".part", contents: nil),
              FileManager.default.createFile(atPath: log, contents: nil) else {
            throw ValidationError("cannot write in \((events as NSString).deletingLastPathComponent)")
        }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: events + ".part"))
        let errors = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        defer { try? output.close(); try? errors.close() }
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus == 0 {
            _ = try? FileManager.default.removeItem(atPath: events)
            try FileManager.default.moveItem(atPath: events + ".part", toPath: events)
        }
        return process.terminationStatus
    }

    /// The game's rules and players from its truth, and the classifier asked for, as `analyze`
    /// options (`GameOptions`).
    private func gameArguments(_ truth: GroundTruth) -> [String] {
        ["--rules", truth.settings.rules.rawValue, "--players", truth.settings.players.map(\.name).joined(separator: ","),
         "--throw-classifier", throwClassifier]
    }

    struct ReplayError: Error, CustomStringConvertible {
        let description: String
    }

    /// The game played again over kept results, with the rules and players `analyse` gives it.
    private func replayGame(results: String, detection: String?, truth: GroundTruth, events: String) throws {
        var kept: [PSWorkerResult]
        do {
            kept = try KeptResults.read(path: results)
        } catch let error as KeptResults.ReadError {
            throw ReplayError(description: "\(error)")
        } catch {
            throw ReplayError(description: "no results kept for this game (\(results): \(error.localizedDescription)); run eval games without --replay first")
        }
        // The options `analyse` gives the run's aggregator, read the same way.
        let options = try GameOptions.parse(gameArguments(truth))
        let configuration = try options.configuration()
        if let detection { kept = try splice(detection: detection, into: kept) }
        let replayed = GameReplay.events(kept, configuration: { _ in configuration }, classifier: try options.classifier())
        let text = replayed.map { ScoreFormatter.json($0) + "\n" }.joined()
        try text.write(toFile: events, atomically: true, encoding: .utf8)
    }

    /// The kept results with the detection results in `path` (JSON lines of worker results) in
    /// place of their own (`DetectionSplice`).
    private func splice(detection path: String, into kept: [PSWorkerResult]) throws -> [PSWorkerResult] {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ReplayError(description: "no detection results for this game (\(path)); run eval detection --keep-results first")
        }
        var results: [PSWorkerResult] = []
        for (k, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
            guard let result = try? PSWorkerResult(jsonString: String(line)) else {
                throw ReplayError(description: "\(path):\(k + 1): not a worker result in JSON")
            }
            results.append(result)
        }
        do {
            return try DetectionSplice.splice(results, into: kept)
        } catch let error as DetectionSplice.Mismatch {
            throw ReplayError(description: "\(path): \(error)")
        }
    }

    private func log(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}

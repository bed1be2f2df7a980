import ArgumentParser
import Foundation
import PitchsideGame
import PitchsideNodes

/// `pitchside aggregate`: merges worker results into games and publishes the score stream.
struct AggregateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aggregate",
        abstract: "Merge worker results into game state and scores; publish the score stream.",
        discussion: """
            Every event is appended to a durable SQLite log before it is published, so a restarted
            aggregator continues each game where it stood. Subscribers join with `pitchside scores`
            or any ZeroMQ SUB socket on the events endpoint (topics game/<stream>/<event>).
            """
    )

    @OptionGroup var cluster: ClusterOptions
    @OptionGroup var game: GameOptions

    @Option(help: ArgumentHelp("Durable game log (SQLite; default <data directory>/games.sqlite).", valueName: "file"))
    var database: String?

    @Option(help: ArgumentHelp("Worker roles the merge waits for, comma-separated.", valueName: "list"))
    var roles = "detection,trajectory,pose"

    @Option(help: ArgumentHelp("Streams served, comma-separated; results of any other are refused and counted (default: every stream).", valueName: "list"))
    var streams: String?

    @Flag(help: "Exit once every worker has reported the end of the stream.")
    var exitAtEnd = false

    @Option(help: ArgumentHelp("Also keep every worker result the games handled in this file, for `pitchside replay`.", valueName: "file"))
    var keepResults: String?

    @Flag(help: "Also print every event as a JSON line on stdout.")
    var json = false

    @Flag(help: "Also print every event as a human-readable line on stdout.")
    var human = false

    func run() throws {
        let configuration = try cluster.resolve()
        let logger = Logs.logger("pitchside.aggregate", level: configuration.logLevel)
        let path = database ?? (configuration.dataDirectory + "/games.sqlite")
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        var options = AggregatorNode.Options(databasePath: path)
        options.expectedRoles = Set(roles.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) })
        options.exitAtEndOfStream = exitAtEnd
        options.keepResultsPath = keepResults
        options.knownStreams = streams.map { Set($0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }) }
        options.game = try game.configuration()
        options.classifier = try game.classifier()
        let (printJSON, printHuman) = (json, human)
        let node = AggregatorNode(options: options, endpoints: configuration.endpoints, logger: logger) { event in
            if printJSON { print(ScoreFormatter.json(event)) } else if printHuman { print(ScoreFormatter.line(event)) }
            if printJSON || printHuman { fflush(stdout) }
        }
        let stop = StopFlag.onSignals()
        do {
            let report = try node.run(isCancelled: { stop.isRaised })
            logger.info("aggregator done: \(report.results) results, \(report.events) events, \(report.rejected) rejected, \(report.late) late, \(report.redelivered) redelivered, \(report.outOfSequence) out of sequence, \(report.queries) queries")
        } catch {
            fail("\(error)")
        }
    }
}

/// Which rules the game follows.
struct GameOptions: ParsableArguments {
    @Option(help: "Scoring: apple (one player, 8 throws, ×5 underleg) or official (two players, innings, cancellation, to 21). (default: apple; `up --demo`: the demo game's own)")
    var rules: String?

    /// The rules in force: `--rules`, else Apple's.
    var resolvedRules: String { rules ?? GameConfiguration.Mode.apple.rawValue }

    @Option(help: ArgumentHelp("Player names, comma-separated.", valueName: "list"))
    var players: String?

    @Flag(help: "Official rules: going over 21 drops the score back to 15 (house 'bust' variant).")
    var bust = false

    @Option(help: ArgumentHelp(
        "Throw-type classifier: trained (the compiled-in model), rules, or a model file from `pitchside train classifier --out`.",
        valueName: "trained|rules|file"))
    var throwClassifier = "trained"

    /// The same options, for a child process.
    var arguments: [String] {
        var list = ["--rules", resolvedRules]
        if let players { list += ["--players", players] }
        if bust { list.append("--bust") }
        if throwClassifier != "trained" { list += ["--throw-classifier", throwClassifier] }
        return list
    }

    func configuration() throws -> GameConfiguration {
        guard let mode = GameConfiguration.Mode(rawValue: resolvedRules) else {
            throw ValidationError("--rules must be apple or official")
        }
        let names = players.map { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
        if let names, mode == .official && names.count != 2 {
            throw ValidationError("official rules need two players, e.g. --players red,blue")
        }
        return GameConfiguration(mode: mode, players: names, bust: bust)
    }

    func classifier() throws -> any ThrowTypeClassifier {
        switch throwClassifier {
        case "trained": return LearnedThrowTypeClassifier()
        case "rules": return RuleThrowTypeClassifier()
        default:
            let model: ThrowTypeModel
            do {
                model = try ThrowTypeModel.load(URL(fileURLWithPath: throwClassifier))
            } catch let error as ThrowTypeModel.LoadError {
                throw ValidationError("--throw-classifier \(throwClassifier): \(error)")
            } catch is DecodingError {
                throw ValidationError("--throw-classifier \(throwClassifier): not a model written by `pitchside train classifier --out`")
            } catch {
                throw ValidationError("--throw-classifier \(throwClassifier): \(error.localizedDescription)")
            }
            return LearnedThrowTypeClassifier(model: model)
        }
    }
}

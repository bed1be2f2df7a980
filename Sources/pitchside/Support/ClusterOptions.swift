import ArgumentParser
import Foundation
import Logging
import PitchsideCore
import PitchsideTransport

/// Options every process shares: the configuration file, the stream, the endpoints and logging.
/// Flags win over the environment, which wins over the file.
struct ClusterOptions: ParsableArguments {
    @Option(help: ArgumentHelp("YAML configuration file (also PITCHSIDE_CONFIG).", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("Stream (camera) id stamped on frames and events (default: default).", valueName: "id"))
    var stream: String?

    @Option(help: ArgumentHelp("Frames PUB endpoint (default tcp://127.0.0.1:5550).", valueName: "endpoint"))
    var framesEndpoint: String?
    @Option(help: ArgumentHelp("Credit ROUTER endpoint for lockstep pacing (default tcp://127.0.0.1:5551).", valueName: "endpoint"))
    var creditsEndpoint: String?
    @Option(help: ArgumentHelp("Worker results PULL endpoint (default tcp://127.0.0.1:5560).", valueName: "endpoint"))
    var resultsEndpoint: String?
    @Option(help: ArgumentHelp("Game events PUB endpoint (default tcp://127.0.0.1:5570).", valueName: "endpoint"))
    var eventsEndpoint: String?
    @Option(help: ArgumentHelp("Snapshot/history ROUTER endpoint (default tcp://127.0.0.1:5571).", valueName: "endpoint"))
    var queriesEndpoint: String?
    @Option(help: ArgumentHelp("Control PUB endpoint: the aggregator's receipts to workers (default tcp://127.0.0.1:5552).", valueName: "endpoint"))
    var controlEndpoint: String?
    @Option(help: ArgumentHelp("Base port: every endpoint on 127.0.0.1 from here (frames = base, credits +1, control +2, results +10, events +20, queries +21).", valueName: "port"))
    var basePort: Int?

    @Option(help: ArgumentHelp("Log level: trace, debug, info, notice, warning, error, critical.", valueName: "level"))
    var logLevel: String?

    @Option(help: ArgumentHelp("CURVE: this process's secret key (made by `pitchside keys`); encrypts and authenticates every tcp endpoint (also PITCHSIDE_CURVE_SECRET_KEY).", valueName: "file"))
    var curveSecretKey: String?
    @Option(name: .customLong("curve-server-key"), parsing: .singleValue,
            help: ArgumentHelp("CURVE: public key of the servers this process connects to; NAME=FILE for one endpoint (frames, credits, control, results, events, queries). Repeatable (also PITCHSIDE_CURVE_SERVER_KEY).", valueName: "[name=]file"))
    var curveServerKeys: [String] = []
    @Option(name: .customLong("curve-allow"), parsing: .singleValue,
            help: ArgumentHelp("CURVE: public key file, or directory of *.pub, of clients admitted to this process's endpoints. Repeatable (also PITCHSIDE_CURVE_ALLOW, colon-separated).", valueName: "path"))
    var curveAllow: [String] = []

    /// The merged configuration: defaults, file, environment, then these flags.
    func resolve() throws -> PitchsideConfiguration {
        var configuration: PitchsideConfiguration
        do {
            configuration = try PitchsideConfiguration.load(file: config)
        } catch {
            throw ValidationError("\(error)")
        }
        if let basePort { configuration.endpoints = Endpoints(basePort: basePort) }
        if let framesEndpoint { configuration.endpoints.frames = framesEndpoint }
        if let creditsEndpoint { configuration.endpoints.credits = creditsEndpoint }
        if let resultsEndpoint { configuration.endpoints.results = resultsEndpoint }
        if let eventsEndpoint { configuration.endpoints.events = eventsEndpoint }
        if let queriesEndpoint { configuration.endpoints.queries = queriesEndpoint }
        if let controlEndpoint { configuration.endpoints.control = controlEndpoint }
        if let stream { configuration.stream = stream }
        if let logLevel { configuration.logLevel = logLevel }
        guard Logger.Level(rawValue: configuration.logLevel) != nil else {
            throw ValidationError("unknown log level '\(configuration.logLevel)'")
        }
        if let curveSecretKey { configuration.updateCurve { $0.secretKeyFile = curveSecretKey } }
        for entry in curveServerKeys {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 {
                guard Endpoints.names.contains(parts[0]) else {
                    throw ValidationError("--curve-server-key \(entry): unknown endpoint \(parts[0]) (known: \(Endpoints.names.joined(separator: ", ")))")
                }
                configuration.updateCurve { $0.serverKeyFiles[parts[0]] = parts[1] }
            } else {
                configuration.updateCurve { $0.serverKeyFile = entry }
            }
        }
        if !curveAllow.isEmpty { configuration.updateCurve { $0.allowedClients = curveAllow } }
        // Every socket this process makes from now on uses the configured CURVE keys.
        do {
            TransportSecurity.installForProcess(try configuration.curve.map {
                try TransportSecurity(configuration: $0, endpoints: configuration.endpoints)
            })
        } catch {
            throw ValidationError("\(error)")
        }
        return configuration
    }

    /// The flags that hand this configuration to a child process.
    static func childArguments(_ configuration: PitchsideConfiguration) -> [String] {
        let e = configuration.endpoints
        var arguments = [
            "--frames-endpoint", e.frames, "--credits-endpoint", e.credits, "--results-endpoint", e.results,
            "--events-endpoint", e.events, "--queries-endpoint", e.queries, "--control-endpoint", e.control,
            "--stream", configuration.stream, "--log-level", configuration.logLevel,
        ]
        if let curve = configuration.curve {
            arguments += ["--curve-secret-key", curve.secretKeyFile]
            if let file = curve.serverKeyFile { arguments += ["--curve-server-key", file] }
            for (name, file) in curve.serverKeyFiles.sorted(by: { $0.key < $1.key }) { arguments += ["--curve-server-key", "\(name)=\(file)"] }
            for path in curve.allowedClients { arguments += ["--curve-allow", path] }
        }
        return arguments
    }
}

/// Sets up logging to stderr once per process.
enum Logs {
    nonisolated(unsafe) private static var bootstrapped = false

    static func logger(_ label: String, level: String) -> Logger {
        if !bootstrapped {
            LoggingSystem.bootstrap { StreamLogHandler.standardError(label: $0) }
            bootstrapped = true
        }
        var logger = Logger(label: label)
        logger.logLevel = Logger.Level(rawValue: level) ?? .info
        return logger
    }
}

/// A flag the signal handlers raise so long loops end cleanly.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false
    private var sources: [DispatchSourceSignal] = []

    var isRaised: Bool { lock.lock(); defer { lock.unlock() }; return raised }

    func raise() { lock.lock(); raised = true; lock.unlock() }

    /// SIGINT and SIGTERM raise the flag instead of killing the process.
    static func onSignals() -> StopFlag {
        let flag = StopFlag()
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { flag.raise() }
            source.resume()
            flag.sources.append(source)
        }
        return flag
    }
}

/// Prints an error as one line and exits non-zero.
func fail(_ message: String, code: Int32 = 1) -> Never {
    FileHandle.standardError.write(Data("pitchside: error: \(message)\n".utf8))
    exit(code)
}

import Foundation
import Yams

/// The one configuration every subcommand shares.
///
/// Sources, later ones winning: built-in defaults, a YAML file
/// (`--config FILE` or `PITCHSIDE_CONFIG`), environment variables
/// (`PITCHSIDE_FRAMES_ENDPOINT`, `PITCHSIDE_STREAM`, …), then command-line flags.
///
/// ```yaml
/// stream: court-1
/// endpoints:
///   frames: tcp://10.0.0.5:5550
///   results: tcp://10.0.0.6:5560
/// log_level: info
/// curve:                              # encrypt and authenticate tcp sockets (CURVE + ZAP)
///   secret_key: keys/worker-1.key     # this process's key pair (pitchside keys makes them)
///   server_key: keys/cluster.pub      # the public key of the processes this one connects to
///   server_keys: {results: keys/aggregator.pub}   # ... per endpoint, where they differ
///   allow: [keys/clients]             # public keys (files, or directories of *.pub) admitted
/// ```
public struct PitchsideConfiguration: Sendable, Equatable {
    public var endpoints = Endpoints()
    /// Stream (camera) identifier stamped on every frame and event.
    public var stream = "default"
    public var logLevel = "info"
    /// Where the aggregator keeps its durable game log.
    public var dataDirectory = "pitchside-data"
    /// CURVE encryption and authentication of tcp sockets; nil: plain tcp.
    public var curve: CurveConfiguration?

    public init() {}

    /// Loads defaults, then `file` (if any), then the environment.
    public static func load(file: String?, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> PitchsideConfiguration {
        var config = PitchsideConfiguration()
        if let path = file ?? environment["PITCHSIDE_CONFIG"] {
            try config.apply(yamlFile: path)
        }
        config.apply(environment: environment)
        return config
    }

    public mutating func apply(yamlFile path: String) throws {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw ConfigurationError.unreadable(path)
        }
        try apply(yaml: text, source: path)
    }

    public mutating func apply(yaml text: String, source: String = "configuration") throws {
        let parsed: Any?
        do {
            parsed = try Yams.load(yaml: text)
        } catch {
            throw ConfigurationError.invalid(source, "not valid YAML: \(error)")
        }
        guard let root = parsed as? [String: Any] else {
            if parsed == nil { return }
            throw ConfigurationError.invalid(source, "the top level must be a mapping")
        }
        let known: Set<String> = ["endpoints", "stream", "log_level", "data_directory", "curve"]
        for key in root.keys where !known.contains(key) {
            throw ConfigurationError.invalid(source, "unknown key '\(key)' (known: \(known.sorted().joined(separator: ", ")))")
        }
        if let endpoints = root["endpoints"] {
            guard let map = endpoints as? [String: Any] else {
                throw ConfigurationError.invalid(source, "'endpoints' must be a mapping")
            }
            for (name, value) in map {
                guard Endpoints.names.contains(name) else {
                    throw ConfigurationError.invalid(source, "unknown endpoint '\(name)' (known: \(Endpoints.names.joined(separator: ", ")))")
                }
                guard let address = value as? String, address.contains("://") else {
                    throw ConfigurationError.invalid(source, "endpoint '\(name)' must be a ZeroMQ address like tcp://host:port")
                }
                self.endpoints[name] = address
            }
        }
        if let curve = root["curve"] {
            guard let map = curve as? [String: Any] else {
                throw ConfigurationError.invalid(source, "'curve' must be a mapping")
            }
            try applyCurve(map, source: source)
        }
        if let stream = root["stream"] { self.stream = "\(stream)" }
        if let level = root["log_level"] { self.logLevel = "\(level)" }
        if let dir = root["data_directory"] { self.dataDirectory = "\(dir)" }
    }

    public mutating func apply(environment: [String: String]) {
        for name in Endpoints.names {
            if let value = environment["PITCHSIDE_\(name.uppercased())_ENDPOINT"], !value.isEmpty {
                endpoints[name] = value
            }
        }
        if let stream = environment["PITCHSIDE_STREAM"], !stream.isEmpty { self.stream = stream }
        if let level = environment["PITCHSIDE_LOG_LEVEL"], !level.isEmpty { self.logLevel = level }
        if let dir = environment["PITCHSIDE_DATA_DIR"], !dir.isEmpty { self.dataDirectory = dir }
        if let key = environment["PITCHSIDE_CURVE_SECRET_KEY"], !key.isEmpty { updateCurve { $0.secretKeyFile = key } }
        if let key = environment["PITCHSIDE_CURVE_SERVER_KEY"], !key.isEmpty { updateCurve { $0.serverKeyFile = key } }
        if let allow = environment["PITCHSIDE_CURVE_ALLOW"], !allow.isEmpty {
            updateCurve { $0.allowedClients = allow.split(separator: ":").map(String.init) }
        }
    }

    /// Changes the CURVE settings, starting from empty ones when there are none yet.
    public mutating func updateCurve(_ change: (inout CurveConfiguration) -> Void) {
        var settings = curve ?? CurveConfiguration(secretKeyFile: "")
        change(&settings)
        curve = settings
    }

    private mutating func applyCurve(_ map: [String: Any], source: String) throws {
        let known: Set<String> = ["secret_key", "server_key", "server_keys", "allow"]
        for key in map.keys where !known.contains(key) {
            throw ConfigurationError.invalid(source, "unknown key 'curve.\(key)' (known: \(known.sorted().joined(separator: ", ")))")
        }
        var settings = curve ?? CurveConfiguration(secretKeyFile: "")
        if let key = map["secret_key"] { settings.secretKeyFile = "\(key)" }
        if let key = map["server_key"] { settings.serverKeyFile = "\(key)" }
        if let keys = map["server_keys"] {
            guard let perEndpoint = keys as? [String: Any] else {
                throw ConfigurationError.invalid(source, "'curve.server_keys' must map endpoint names to public key files")
            }
            for (name, file) in perEndpoint {
                guard Endpoints.names.contains(name) else {
                    throw ConfigurationError.invalid(source, "unknown endpoint '\(name)' in curve.server_keys (known: \(Endpoints.names.joined(separator: ", ")))")
                }
                settings.serverKeyFiles[name] = "\(file)"
            }
        }
        if let allow = map["allow"] {
            if let list = allow as? [Any] { settings.allowedClients = list.map { "\($0)" } }
            else { settings.allowedClients = ["\(allow)"] }
        }
        curve = settings
    }
}

/// Where CURVE keys come from (files; `TransportSecurity` in PitchsideTransport loads them).
public struct CurveConfiguration: Sendable, Equatable {
    /// This process's secret key (its public key is derived from it).
    public var secretKeyFile: String
    /// The public key of the server behind every endpoint this process connects to...
    public var serverKeyFile: String?
    /// ...or per endpoint name (`frames`, `results`, ...), where servers differ.
    public var serverKeyFiles: [String: String] = [:]
    /// Public key files, or directories of `*.pub`, of the clients admitted to what this process binds.
    public var allowedClients: [String] = []

    public init(secretKeyFile: String) { self.secretKeyFile = secretKeyFile }
}

public enum ConfigurationError: Error, CustomStringConvertible {
    case unreadable(String)
    case invalid(String, String)

    public var description: String {
        switch self {
        case .unreadable(let path): return "cannot read configuration file \(path)"
        case .invalid(let source, let why): return "\(source): \(why)"
        }
    }
}

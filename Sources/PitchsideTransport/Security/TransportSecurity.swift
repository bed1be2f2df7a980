import Foundation
import PitchsideCore

/// CURVE encryption and authentication for the sockets that cross machines (`tcp://`).
///
/// A context made with a security (or after `TransportSecurity.installForProcess`) makes every
/// socket that binds a `tcp://` endpoint a CURVE server with this process's key pair, whose
/// ZAP handler admits only the `allowedClients`; and every socket that connects to a `tcp://`
/// endpoint a CURVE client that checks the server's public key (`serverKey(for:)`). Traffic is
/// encrypted; a peer without an admitted key, or without CURVE at all, gets nothing. `ipc://`
/// and `inproc://` endpoints (one machine) are left as they are.
///
/// ```swift
/// let security = TransportSecurity(keyPair: try CurveKeyPair(secretKeyFile: "keys/capture.key"),
///                                  defaultServerKey: try CurveKeys.read("keys/cluster.pub"),
///                                  allowedClients: try CurveKeys.readPublicKeys(["keys/clients"]))
/// let context = try ZMQContext(security: security)
/// ```
public struct TransportSecurity: Sendable, Equatable {
    /// This process's key pair: its identity as a client and its key as a server.
    public var keyPair: CurveKeyPair
    /// The public key of the server behind each endpoint address this process connects to.
    public var serverKeys: [String: String]
    /// The server key for any endpoint not in `serverKeys`.
    public var defaultServerKey: String?
    /// Public keys of the clients admitted to the endpoints this process binds.
    public var allowedClients: Set<String>
    /// The ZAP domain servers announce.
    public static let domain = "pitchside"

    public init(keyPair: CurveKeyPair, serverKeys: [String: String] = [:], defaultServerKey: String? = nil,
                allowedClients: some Sequence<String>) {
        self.keyPair = keyPair
        self.serverKeys = serverKeys
        self.defaultServerKey = defaultServerKey
        self.allowedClients = Set(allowedClients)
    }

    /// Whether `endpoint` is secured (CURVE applies to tcp only).
    public static func applies(to endpoint: String) -> Bool { endpoint.hasPrefix("tcp://") }

    /// The public key of the server at `endpoint`.
    public func serverKey(for endpoint: String) throws -> String {
        if let key = serverKeys[endpoint] ?? defaultServerKey { return key }
        throw CurveKeyError("CURVE is on but no server key is configured for \(endpoint) (security.server_keys or server_key)")
    }

    // MARK: The process-wide default

    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed: TransportSecurity?

    /// Every context made from now on in this process uses `security` (nil: none). The command
    /// line installs the configured security once, at start-up, before any socket exists.
    public static func installForProcess(_ security: TransportSecurity?) {
        lock.withLock { installed = security }
    }

    /// The security installed for this process, if any.
    public static var forProcess: TransportSecurity? { lock.withLock { installed } }
}

extension TransportSecurity {
    /// Loads the keys `configuration` names; server keys given per endpoint name resolve to
    /// addresses through `endpoints`. Every error names the file or setting at fault.
    public init(configuration: CurveConfiguration, endpoints: Endpoints) throws {
        guard !configuration.secretKeyFile.isEmpty else {
            throw CurveKeyError("CURVE needs this process's secret key file (curve.secret_key, PITCHSIDE_CURVE_SECRET_KEY or --curve-secret-key; pitchside keys makes one)")
        }
        let keyPair = try CurveKeyPair(secretKeyFile: configuration.secretKeyFile)
        let defaultServerKey = try configuration.serverKeyFile.map { try CurveKeys.read($0, what: "server public key") }
        var serverKeys: [String: String] = [:]
        for (name, file) in configuration.serverKeyFiles {
            guard let address = endpoints[name] else { throw CurveKeyError("unknown endpoint name \(name) for a server key") }
            serverKeys[address] = try CurveKeys.read(file, what: "server public key")
        }
        self.init(keyPair: keyPair, serverKeys: serverKeys, defaultServerKey: defaultServerKey,
                  allowedClients: try CurveKeys.readPublicKeys(configuration.allowedClients))
    }
}

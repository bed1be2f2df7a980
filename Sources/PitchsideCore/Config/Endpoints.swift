/// The ZeroMQ endpoints of a cluster. Defaults bind loopback only; the same
/// binary runs across machines by changing these (flags, environment, or file).
public struct Endpoints: Sendable, Equatable, Codable {
    /// Capture PUBlishes frames here; workers SUBscribe.
    public var frames = "tcp://127.0.0.1:5550"
    /// Capture's ROUTER for the credit protocol (lockstep pacing); workers connect DEALERs.
    public var credits = "tcp://127.0.0.1:5551"
    /// Aggregator PULLs worker results here; workers PUSH.
    public var results = "tcp://127.0.0.1:5560"
    /// Aggregator PUBlishes game events here; anyone SUBscribes.
    public var events = "tcp://127.0.0.1:5570"
    /// Aggregator's ROUTER for snapshot and history queries.
    public var queries = "tcp://127.0.0.1:5571"
    /// The aggregator PUBlishes control messages to workers here: receipts for their
    /// results (`ack/_/<producer>`); workers SUBscribe.
    public var control = "tcp://127.0.0.1:5552"

    public init() {}

    /// Every endpoint moved to a base port: frames = base, credits = base+1, control = base+2,
    /// results = base+10, events = base+20, queries = base+21. Tests use this to run
    /// several clusters side by side.
    public init(host: String = "127.0.0.1", basePort: Int) {
        frames = "tcp://\(host):\(basePort)"
        credits = "tcp://\(host):\(basePort + 1)"
        control = "tcp://\(host):\(basePort + 2)"
        results = "tcp://\(host):\(basePort + 10)"
        events = "tcp://\(host):\(basePort + 20)"
        queries = "tcp://\(host):\(basePort + 21)"
    }

    /// Names of the endpoints, as used by the config file and the
    /// `PITCHSIDE_<NAME>_ENDPOINT` environment variables.
    public static let names = ["frames", "credits", "control", "results", "events", "queries"]

    public subscript(name: String) -> String? {
        get {
            switch name {
            case "frames": return frames
            case "credits": return credits
            case "control": return control
            case "results": return results
            case "events": return events
            case "queries": return queries
            default: return nil
            }
        }
        set {
            guard let newValue else { return }
            switch name {
            case "frames": frames = newValue
            case "credits": credits = newValue
            case "control": control = newValue
            case "results": results = newValue
            case "events": events = newValue
            case "queries": queries = newValue
            default: break
            }
        }
    }
}

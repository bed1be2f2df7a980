/// Counts of what a receiver took off its socket, for heartbeats and logs.
///
/// Every message received is delivered or rejected exactly once:
/// `received == delivered + malformed + oversized + wrongShape`.
public struct MessageStats: Sendable, Equatable, CustomStringConvertible {
    /// Messages taken off the socket (credit-sync probes excluded).
    public var received = 0
    /// Messages decoded and handed to the caller.
    public var delivered = 0
    /// Payloads that did not decode, malformed topics, and messages the validator refused.
    public var malformed = 0
    /// Payloads over the receiver's size limit (not decoded).
    public var oversized = 0
    /// Messages with a part count other than [topic, payload].
    public var wrongShape = 0

    public init() {}

    /// Messages skipped for any reason.
    public var rejected: Int { malformed + oversized + wrongShape }

    public var description: String {
        "received \(received), delivered \(delivered), malformed \(malformed), oversized \(oversized), wrong shape \(wrongShape)"
    }
}

/// Why a receiver skipped a message, for a node to log.
public struct MessageRejection: Sendable, CustomStringConvertible {
    public enum Reason: String, Sendable {
        case malformed, oversized, wrongShape = "wrong shape"
    }

    public var reason: Reason
    public var topic: String?
    public var detail: String

    public var description: String {
        "skipped \(reason.rawValue) message\(topic.map { " on \"\($0)\"" } ?? ""): \(detail)"
    }
}

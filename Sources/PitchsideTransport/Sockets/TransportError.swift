import CZeroMQ
import Foundation

/// A failed ZeroMQ call, with libzmq's own text and the endpoint involved.
///
/// `description` reads like "cannot bind tcp://127.0.0.1:5550: Address already in use",
/// so a node can print it as is.
public struct TransportError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What was being done ("bind", "connect", "send", "receive", "set option 23", ...).
    public var operation: String
    /// The endpoint involved, when there is one.
    public var endpoint: String?
    /// The errno value reported by libzmq (`zmq_errno()`).
    public var code: Int32
    /// `zmq_strerror(code)`.
    public var reason: String

    public init(operation: String, endpoint: String? = nil, code: Int32, reason: String? = nil) {
        self.operation = operation
        self.endpoint = endpoint
        self.code = code
        self.reason = reason ?? String(cString: zmq_strerror(code))
    }

    /// The error for the last failed libzmq call on this thread.
    static func last(_ operation: String, endpoint: String? = nil) -> TransportError {
        TransportError(operation: operation, endpoint: endpoint, code: zmq_errno())
    }

    /// The context was terminated: blocking calls return this so that a loop can end cleanly.
    public var isTerminated: Bool { code == ETERM }

    public var description: String {
        if let endpoint {
            return "cannot \(operation) \(endpoint): \(reason)"
        }
        return "cannot \(operation): \(reason)"
    }
}

import Foundation
import SwiftProtobuf

/// Sending protobuf messages as `[topic, payload]`.
extension ZMQSocket {
    /// Serializes `message` and sends `[topic, payload]`; false when `dontWait` and the socket would block.
    @discardableResult
    public func send<M: SwiftProtobuf.Message>(_ message: M, topic: Topic, dontWait: Bool = false) throws -> Bool {
        try send(topic: topic.string, payload: message.serializedData(), dontWait: dontWait)
    }

    /// As `send(_:topic:dontWait:)` with a topic string (e.g. a credit-sync probe).
    @discardableResult
    public func send<M: SwiftProtobuf.Message>(_ message: M, topic: String, dontWait: Bool = false) throws -> Bool {
        try send(topic: topic, payload: message.serializedData(), dontWait: dontWait)
    }
}

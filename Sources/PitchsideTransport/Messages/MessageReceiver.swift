import Foundation
import PitchsideCore
import SwiftProtobuf

/// Receives `[topic, payload]` messages of one protobuf type, skipping and counting bad ones.
///
/// A message with the wrong number of parts, a malformed topic, a payload over
/// `maxPayloadBytes`, a payload that does not decode, or one the `validate` hook refuses is
/// counted in `stats`, reported to `onReject`, and skipped; `receive` goes on to the next
/// message, so bad input is never fatal (DESIGN §2, §8).
///
/// ```swift
/// let frames = MessageReceiver<PSFrame>(socket: sub, maxPayloadBytes: 32 << 20)
/// frames.onReject = { logger.warning("\($0)") }
/// while let received = try frames.receive(timeout: 1.0) {
///     process(received.message)
/// }
/// ```
///
/// In lockstep pacing, set `credits` so that the credit gate's sync probes, which arrive on the
/// same SUB socket, are answered (see `CreditClient`).
///
/// Any swift-protobuf message type works; frames can also be read as `FrameView`, which views
/// the pixels inside the received message instead of copying them:
/// `MessageReceiver<FrameView>(socket: sub, credits: credits)`.
public final class MessageReceiver<M> {
    /// One good message.
    public struct Received {
        public var topic: Topic
        public var message: M
        public var payloadBytes: Int
    }

    public let socket: ZMQSocket
    /// Larger payloads are skipped as oversized (ZMQ_MAXMSGSIZE is a harder limit that disconnects the peer).
    public var maxPayloadBytes: Int
    public private(set) var stats = MessageStats()
    /// Extra checks after decoding; return a reason to reject the message, nil to accept it.
    public var validate: ((Topic, M) -> String?)?
    /// Called for every skipped message (log it; do not throw).
    public var onReject: ((MessageRejection) -> Void)?
    /// The consumer side of lockstep pacing, which answers the gate's sync probes.
    public var credits: CreditClient?

    private let messageName: String
    private let decode: (Data) throws -> M

    /// A receiver of `M`, decoded by `decode` (which throws for a payload it cannot read).
    public init(socket: ZMQSocket, maxPayloadBytes: Int = 64 << 20, credits: CreditClient? = nil,
                messageName: String, decode: @escaping (Data) throws -> M) {
        self.socket = socket
        self.maxPayloadBytes = maxPayloadBytes
        self.credits = credits
        self.messageName = messageName
        self.decode = decode
    }

    /// A receiver of a swift-protobuf message type.
    public convenience init(socket: ZMQSocket, maxPayloadBytes: Int = 64 << 20, credits: CreditClient? = nil)
        where M: SwiftProtobuf.Message
    {
        self.init(socket: socket, maxPayloadBytes: maxPayloadBytes, credits: credits,
                  messageName: M.protoMessageName, decode: { try M(serializedBytes: $0) })
    }

    /// A receiver of frames that views their pixels in place (see `FrameView`).
    public convenience init(socket: ZMQSocket, maxPayloadBytes: Int = 64 << 20, credits: CreditClient? = nil)
        where M == FrameView
    {
        self.init(socket: socket, maxPayloadBytes: maxPayloadBytes, credits: credits,
                  messageName: PSFrame.protoMessageName, decode: { try FrameView(serializedBytes: $0) })
    }

    /// The next good message, or nil when `timeout` seconds pass without one (nil waits forever).
    public func receive(timeout: Double? = nil) throws -> Received? {
        let deadline = timeout.map { WallClock.monotonicSeconds() + $0 }
        while true {
            try credits?.tick()
            // Wake up now and then while waiting so that the credit client can re-send its hello.
            var slice: Double? = deadline.map { max(0, $0 - WallClock.monotonicSeconds()) }
            if credits != nil { slice = min(slice ?? CreditClient.tickInterval, CreditClient.tickInterval) }
            guard let parts = try socket.receive(timeout: slice) else {
                if let deadline, WallClock.monotonicSeconds() >= deadline { return nil }
                continue
            }
            if let received = try accept(parts) { return received }
            if let deadline, WallClock.monotonicSeconds() >= deadline { return nil }
        }
    }

    /// Classifies one raw message: the decoded message, or nil after counting why not.
    private func accept(_ parts: [Data]) throws -> Received? {
        if parts.count == 2, CreditSync.isProbe(topic: parts[0]) {
            try credits?.handleProbe(parts[1])
            return nil
        }
        credits?.noteActivity()
        stats.received += 1
        guard parts.count == 2 else {
            let topic = parts.first.flatMap { String(data: $0.prefix(200), encoding: .utf8) }
            return reject(.wrongShape, topic: topic, "\(parts.count) parts, expected [topic, payload]")
        }
        let topicText = String(decoding: parts[0], as: UTF8.self)
        let topic: Topic
        do {
            topic = try Topic(parsing: topicText)
        } catch {
            return reject(.malformed, topic: String(topicText.prefix(200)), "\(error)")
        }
        let payload = parts[1]
        guard payload.count <= maxPayloadBytes else {
            return reject(.oversized, topic: topic.string, "\(payload.count) bytes, limit \(maxPayloadBytes)")
        }
        let message: M
        do {
            message = try decode(payload)
        } catch {
            return reject(.malformed, topic: topic.string, "\(messageName) does not decode (\(payload.count) bytes): \(error)")
        }
        if let validate, let reason = validate(topic, message) {
            return reject(.malformed, topic: topic.string, reason)
        }
        stats.delivered += 1
        return Received(topic: topic, message: message, payloadBytes: payload.count)
    }

    private func reject(_ reason: MessageRejection.Reason, topic: String?, _ detail: String) -> Received? {
        switch reason {
        case .malformed: stats.malformed += 1
        case .oversized: stats.oversized += 1
        case .wrongShape: stats.wrongShape += 1
        }
        onReject?(MessageRejection(reason: reason, topic: topic, detail: detail))
        return nil
    }
}

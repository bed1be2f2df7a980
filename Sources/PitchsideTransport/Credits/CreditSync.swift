import Foundation

/// The join handshake of lockstep pacing, so that no frame is published before a consumer's
/// subscription has reached the publisher (the ZeroMQ guide's "slow joiner" problem; this is
/// its "node coordination" remedy).
///
/// 1. The consumer subscribes its SUB to its frame prefixes, then to `credit-sync/<consumer id>`,
///    and sends `Hello` on its DEALER.
/// 2. Until it is confirmed, the gate publishes a probe on the frame PUB:
///    `[credit-sync/<consumer id>, CreditMessage{hello: {consumer_id}}]`.
/// 3. The consumer's SUB receives the probe: its subscriptions (sent earlier on the same
///    connection) are in place. It confirms with `Credit{consumer_id, stream_id: "", seq: 0}`.
/// 4. The gate counts the consumer from then on.
public enum CreditSync {
    /// The topic prefix of every sync probe (not a `Topic`: it is never a frame).
    public static let topicPrefix = "credit-sync/"

    /// The probe topic for one consumer.
    public static func topic(consumerID: String) -> String { topicPrefix + consumerID }

    /// Whether a first message part is a sync probe.
    public static func isProbe(topic: Data) -> Bool {
        topic.starts(with: topicPrefix.utf8)
    }
}

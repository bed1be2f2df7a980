import PitchsideCore

/// How far one worker's numbered results are durable in the game log.
public struct DeliveryMark: Sendable, Equatable {
    public var producerID: String
    public var epoch: UInt64
    /// Every result of (producer, epoch) up to this seq has been handled and logged.
    public var committed: UInt64

    public init(producerID: String, epoch: UInt64, committed: UInt64) {
        self.producerID = producerID
        self.epoch = epoch
        self.committed = committed
    }
}

/// The receiving half of at-least-once delivery (the sending half is the workers'
/// `ResultOutbox`): takes each worker's numbered results exactly once and in order,
/// and knows which of them are durable.
///
/// Per producer it expects `next`; a lower seq is a duplicate (a resend, or a copy
/// a worker queued while the aggregator was down), a higher one is a gap (dropped:
/// the worker sends again from `next` when the receipt asks for it). A result is
/// *pending* from its admission until the aggregator has handled it and logged
/// the outcome (`finish`); `marks()` gives, per producer, the seq below which
/// nothing is pending, and is committed with the events in one transaction. A new
/// epoch is a restarted worker: numbering starts again. Results without a
/// `PSDelivery` (other clients, tests) are taken as they come.
///
/// ```swift
/// var tracker = DeliveryTracker(restoring: try log.deliveryMarks())
/// guard tracker.admit(result).isAccepted else { continue }
/// ... // merge, handle
/// for r in handled { tracker.finish(r) }
/// try recorder.handle(handled, deliveries: tracker.marks())
/// ```
public struct DeliveryTracker: Sendable {
    public enum Verdict: Equatable, Sendable {
        /// The result carries no delivery numbers: taken as it comes.
        case unsequenced
        case accepted
        /// Already taken (or older than what is durable).
        case duplicate
        /// Results before it are missing; dropped until they are sent again.
        case gap(expected: UInt64)

        public var isAccepted: Bool { self == .accepted || self == .unsequenced }
    }

    public struct Counters: Sendable, Equatable {
        public var accepted = 0
        public var duplicates = 0
        public var gaps = 0
        /// Results a worker no longer had when asked for them (its outbox overflowed, or the log was lost).
        public var unrecoverable = 0
        public var newEpochs = 0
    }

    private struct Producer: Sendable {
        var epoch: UInt64
        var next: UInt64
        var pending: Set<UInt64> = []
    }

    public private(set) var counters = Counters()
    private var producers: [String: Producer] = [:]

    /// Starts from the marks the log kept: each worker resends from `committed + 1`.
    public init(restoring marks: [DeliveryMark] = []) {
        for m in marks { producers[m.producerID] = Producer(epoch: m.epoch, next: m.committed + 1) }
    }

    /// Decides whether to take a result.
    public mutating func admit(_ result: PSWorkerResult) -> Verdict {
        guard result.hasDelivery, !result.delivery.producerID.isEmpty else { return .unsequenced }
        let d = result.delivery
        var p = producers[d.producerID] ?? Producer(epoch: d.epoch, next: 1)
        if p.epoch != d.epoch {
            p = Producer(epoch: d.epoch, next: 1)
            counters.newEpochs += 1
        }
        defer { producers[d.producerID] = p }
        if d.seq < p.next {
            counters.duplicates += 1
            return .duplicate
        }
        if d.seq > p.next, d.retainedFrom > p.next {
            // What lies before the worker's oldest kept result can never come again.
            let resume = min(d.retainedFrom, d.seq)
            counters.unrecoverable += Int(resume - p.next)
            p.next = resume
        }
        if d.seq > p.next {
            counters.gaps += 1
            return .gap(expected: p.next)
        }
        p.next += 1
        p.pending.insert(d.seq)
        counters.accepted += 1
        return .accepted
    }

    /// The result was handled (or refused) and its outcome is about to be logged.
    public mutating func finish(_ result: PSWorkerResult) {
        guard result.hasDelivery else { return }
        let d = result.delivery
        guard var p = producers[d.producerID], p.epoch == d.epoch else { return }
        p.pending.remove(d.seq)
        producers[d.producerID] = p
    }

    /// Per producer, the seq through which nothing is pending: log these with the outcome.
    public func marks() -> [DeliveryMark] {
        producers.keys.sorted().map { id in
            let p = producers[id]!
            return DeliveryMark(producerID: id, epoch: p.epoch, committed: (p.pending.min() ?? p.next) - 1)
        }
    }

    /// Receipts for every producer: `durable` is what the log holds (the marks of the last commit).
    public func acks(aggregatorEpoch: UInt64, durable: [DeliveryMark]) -> [PSResultsAck] {
        let logged = Dictionary(durable.map { ($0.producerID, $0) }, uniquingKeysWith: { $1 })
        return producers.keys.sorted().map { id in
            let p = producers[id]!
            return PSResultsAck.with {
                $0.aggregatorEpoch = aggregatorEpoch
                $0.producerID = id
                $0.epoch = p.epoch
                $0.committed = logged[id].flatMap { $0.epoch == p.epoch ? $0.committed : nil } ?? 0
                $0.next = p.next
            }
        }
    }
}

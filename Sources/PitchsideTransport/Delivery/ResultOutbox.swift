import PitchsideCore

/// A worker's results from the moment they are produced until the aggregator has
/// made them durable: the sending half of at-least-once delivery (the aggregator
/// drops the duplicates, see `DeliveryTracker`).
///
/// Every result is numbered (`PSDelivery`: producer, a random epoch per process,
/// seq 1, 2, 3, ...) and kept. The aggregator's receipts (`PSResultsAck`) say
/// what is durable (forgotten here) and which seq it takes next. Results pushed
/// into a dead aggregator's socket, or lost with its buffers when it was killed,
/// are sent again from that seq when a restarted aggregator (a new
/// `aggregator_epoch`) or a stalled one (`next` unchanged for `resendAfter`
/// seconds while more was sent) asks for it.
///
/// The outbox is bounded: when it holds `capacity` results the worker stops
/// taking frames (`isFull`) until receipts make room, so in lockstep the capture
/// node waits too and nothing is lost.
///
/// ```swift
/// var outbox = ResultOutbox(producerID: "pose", capacity: 20_000)
/// outbox.append(result, topic: "result/cam1/pose")
/// while let (topic, message) = outbox.nextToSend() {
///     guard try push.send(message, topic: topic, dontWait: true) else { break }
///     outbox.didSend()
/// }
/// outbox.receive(ack, now: WallClock.monotonicSeconds())
/// ```
public struct ResultOutbox: Sendable {
    public let producerID: String
    public let epoch: UInt64
    public let capacity: Int
    /// A receipt whose `next` has not moved for this long, while more was sent, asks for a resend.
    public let resendAfter: Double

    /// What the outbox did, for heartbeats and logs.
    public struct Counters: Sendable, Equatable {
        public var appended = 0
        public var sent = 0
        public var resent = 0
        public var rewinds = 0
        public var committed = 0
    }

    public private(set) var counters = Counters()

    private struct Entry: Sendable {
        var seq: UInt64
        var topic: String
        var result: PSWorkerResult
    }

    private var entries: [Entry] = []
    private var head = 0  // entries[..<head] are committed and dropped lazily
    private var sendIndex = 0  // next entry to send
    private var nextSeq: UInt64 = 1
    private var sentThrough: UInt64 = 0
    private var highestSent: UInt64 = 0
    private var aggregatorEpoch: UInt64?
    private var lastNext: (seq: UInt64, since: Double)?

    public init(producerID: String, epoch: UInt64 = UInt64.random(in: 1...UInt64.max), capacity: Int = 20_000,
                resendAfter: Double = 2) {
        self.producerID = producerID
        self.epoch = epoch
        self.capacity = max(1, capacity)
        self.resendAfter = resendAfter
    }

    /// Results kept (sent or not) until the aggregator commits them.
    public var count: Int { entries.count - head }
    /// True when every result was committed by the aggregator.
    public var isEmpty: Bool { count == 0 }
    /// The worker should take no new frame until receipts make room.
    public var isFull: Bool { count >= capacity }
    /// Results not handed to the socket yet.
    public var unsent: Int { entries.count - sendIndex }
    /// The oldest seq that can still be sent again.
    public var retainedFrom: UInt64 { head < entries.count ? entries[head].seq : nextSeq }

    /// Numbers a result and keeps it; returns its seq.
    @discardableResult
    public mutating func append(_ result: PSWorkerResult, topic: String) -> UInt64 {
        let seq = nextSeq
        nextSeq += 1
        entries.append(Entry(seq: seq, topic: topic, result: result))
        counters.appended += 1
        return seq
    }

    /// The next result to hand to the socket, stamped with its delivery numbers.
    public func nextToSend() -> (topic: String, result: PSWorkerResult)? {
        guard sendIndex < entries.count else { return nil }
        let entry = entries[sendIndex]
        var result = entry.result
        result.delivery = PSDelivery.with {
            $0.producerID = producerID
            $0.epoch = epoch
            $0.seq = entry.seq
            $0.retainedFrom = retainedFrom
        }
        return (entry.topic, result)
    }

    /// The result `nextToSend` returned was accepted by the socket.
    public mutating func didSend() {
        guard sendIndex < entries.count else { return }
        let seq = entries[sendIndex].seq
        if seq <= highestSent { counters.resent += 1 } else { counters.sent += 1 }
        highestSent = max(highestSent, seq)
        sentThrough = seq
        sendIndex += 1
    }

    /// Takes a receipt: forgets what is durable; goes back to `next` when the aggregator
    /// restarted or has been stuck there while more was sent. Returns true on a rewind.
    @discardableResult
    public mutating func receive(_ ack: PSResultsAck, now: Double) -> Bool {
        guard ack.producerID == producerID, ack.epoch == epoch else { return false }
        commit(through: ack.committed)

        // A first receipt is no restart: what it lacks may still be in flight.
        let restarted = aggregatorEpoch != nil && aggregatorEpoch != ack.aggregatorEpoch
        aggregatorEpoch = ack.aggregatorEpoch
        if lastNext?.seq != ack.next { lastNext = (ack.next, now) }
        guard ack.next <= sentThrough else { return false }
        let stuck = now - (lastNext?.since ?? now) >= resendAfter
        guard restarted || stuck else { return false }
        lastNext = (ack.next, now)
        return rewind(to: ack.next)
    }

    private mutating func commit(through seq: UInt64) {
        while head < entries.count, entries[head].seq <= seq {
            head += 1
            counters.committed += 1
        }
        sendIndex = max(sendIndex, head)
        // Compact once the dropped prefix is large, so memory follows what is kept.
        if head > 1024 && head * 2 > entries.count {
            entries.removeFirst(head)
            sendIndex -= head
            head = 0
        }
    }

    /// Sends again from `seq` (or the oldest result kept, if that is later).
    private mutating func rewind(to seq: UInt64) -> Bool {
        var index = head
        while index < entries.count, entries[index].seq < seq { index += 1 }
        guard index < sendIndex else { return false }
        sendIndex = index
        sentThrough = entries[index].seq - 1
        counters.rewinds += 1
        return true
    }
}

/// Frames of one stream a consumer received and lost (gaps in seq), as it reports them.
public struct FrameCounts: Sendable, Equatable, CustomStringConvertible {
    public var received: Int
    public var dropped: Int
    public init(received: Int, dropped: Int) {
        self.received = received
        self.dropped = dropped
    }
    /// Frames accounted for: equals the frames published once the consumer saw the end of stream.
    public var total: Int { received + dropped }
    public var description: String { "\(received) received, \(dropped) lost" }
}

/// The bookkeeping of the credit gate, without sockets: who is registered, what each consumer
/// has acknowledged, and who holds up the next frame. `CreditGate` does the I/O around it.
///
/// A consumer with window W may have at most W frames of a stream outstanding: publishing seq s
/// is allowed once it has acknowledged every frame up to s − W. A consumer that joins mid-stream
/// starts with nothing outstanding.
public struct CreditLedger: Sendable {
    /// One registered consumer.
    public struct Consumer: Sendable, Equatable {
        public var id: String
        public var subscriptions: [String]
        public var window: Int
        /// Confirmed by a sync probe: its subscriptions are in place and the gate waits for it.
        public var isSynchronised = false
        /// Per stream, the highest seq acknowledged (−1: none yet; absent: not yet publishing to it).
        public var ackedThrough: [String: Int64] = [:]
        /// Monotonic time of its last message.
        public var lastHeard: Double
        /// Per stream, what the consumer says it received and lost (its latest credit).
        public var counts: [String: FrameCounts] = [:]

        /// Whether it receives frames of `streamID` (no subscriptions: every stream).
        public func wants(streamID: String) -> Bool {
            if subscriptions.isEmpty { return true }
            let streamPrefix = Topic.prefix(.frame, stream: streamID)
            return subscriptions.contains { streamPrefix.hasPrefix($0) || $0.hasPrefix(streamPrefix) }
        }
    }

    public private(set) var consumers: [String: Consumer] = [:]

    public init() {}

    /// Consumers whose subscriptions are confirmed.
    public var synchronisedCount: Int { consumers.values.filter(\.isSynchronised).count }
    /// Consumers that said hello but whose sync probe has not come back yet.
    public var unsynchronised: [String] { consumers.values.filter { !$0.isSynchronised }.map(\.id).sorted() }

    /// Registers (or re-registers: a restarted worker) a consumer; it waits for its sync probe.
    public mutating func hello(id: String, subscriptions: [String], window: Int, now: Double) {
        consumers[id] = Consumer(id: id, subscriptions: subscriptions, window: max(1, window), lastHeard: now)
    }

    /// The consumer's probe came back. Returns false for an unknown consumer.
    @discardableResult
    public mutating func synchronise(id: String, now: Double) -> Bool {
        guard var consumer = consumers[id] else { return false }
        if !consumer.isSynchronised {
            consumer.isSynchronised = true
            consumer.ackedThrough = [:]
        }
        consumer.lastHeard = now
        consumers[id] = consumer
        return true
    }

    /// The consumer finished frames of `streamID` up to `seq`, having received and lost
    /// `counts` of them so far. Returns false for an unknown consumer.
    @discardableResult
    public mutating func acknowledge(id: String, streamID: String, seq: UInt64, counts: FrameCounts? = nil,
                                     now: Double) -> Bool {
        guard var consumer = consumers[id] else { return false }
        consumer.lastHeard = now
        if let counts, counts.total >= consumer.counts[streamID]?.total ?? 0 {
            consumer.counts[streamID] = counts
        }
        let seq = Int64(clamping: seq)
        if seq > consumer.ackedThrough[streamID, default: -1] {
            consumer.ackedThrough[streamID] = seq
        }
        consumers[id] = consumer
        return true
    }

    /// Unregisters a consumer (Goodbye, or dropped for silence).
    @discardableResult
    public mutating func remove(id: String) -> Consumer? {
        consumers.removeValue(forKey: id)
    }

    /// Notes that any message came from the consumer.
    public mutating func heard(id: String, now: Double) {
        consumers[id]?.lastHeard = now
    }

    /// The synchronised consumers that must acknowledge more before `seq` of `streamID` may be
    /// published, sorted by id. A consumer new to the stream is taken to have nothing outstanding.
    public mutating func blockers(streamID: String, seq: UInt64) -> [String] {
        let seq = Int64(clamping: seq)
        var result: [String] = []
        for id in consumers.keys.sorted() {
            guard var consumer = consumers[id], consumer.isSynchronised, consumer.wants(streamID: streamID) else { continue }
            let acked: Int64
            if let known = consumer.ackedThrough[streamID] {
                acked = known
            } else {
                acked = seq - 1
                consumer.ackedThrough[streamID] = acked
                consumers[id] = consumer
            }
            if seq - acked > Int64(consumer.window) { result.append(id) }
        }
        return result
    }
}

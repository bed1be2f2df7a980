import Foundation
import Logging
import PitchsideCore

/// The capture side of `lockstep` pacing: the ZeroMQ guide's credit-based flow control.
///
/// Consumers (workers) connect a DEALER to the gate's ROUTER and say `Hello` with their id,
/// topic subscriptions and window; each acknowledges frames with `Credit` as it finishes them.
/// Before publishing frame `seq` of a stream, the capture node calls `waitUntilAllowed`, which
/// returns once every registered consumer of that stream has acknowledged up to `seq − window`.
/// So no frame is ever dropped at a high-water mark, results are deterministic, and a file is
/// processed as fast as the slowest worker (DESIGN §7).
///
/// A consumer that says `Goodbye` is unregistered at once; one that holds up the gate and stays
/// silent for `silenceTimeout` seconds is dropped with a warning, so a dead worker cannot hang
/// capture. Joining uses `CreditSync` probes published on the frame PUB.
///
/// ```swift
/// let gate = try CreditGate(context: context, endpoint: endpoints.credits, publisher: framesPub)
/// guard try gate.waitForConsumers(count: 3, timeout: 30) else { throw ... }
/// for frame in frames {
///     guard try gate.waitUntilAllowed(streamID: "cam1", seq: frame.seq) == .allowed else { break }
///     try framesPub.send(frame, topic: .frame(stream: "cam1", rendition: "gray"))
/// }
/// ```
///
/// The gate and the publisher socket belong to one thread (the capture loop).
public final class CreditGate {
    /// Tuning of the gate.
    public struct Configuration: Sendable {
        /// A consumer holding up the gate without a word for this long is dropped (seconds).
        public var silenceTimeout: Double = 10
        /// How often unconfirmed consumers are probed (seconds).
        public var probeInterval: Double = 0.05
        public init(silenceTimeout: Double = 10, probeInterval: Double = 0.05) {
            self.silenceTimeout = silenceTimeout
            self.probeInterval = probeInterval
        }
    }

    /// How a wait ended.
    public enum WaitOutcome: Equatable, Sendable {
        case allowed
        case timedOut
        case cancelled
    }

    /// The high-water mark to give the frame PUB and the consumers' SUBs in lockstep pacing.
    ///
    /// Credits bound the queues, so the high-water marks must never bite: libzmq learns that a
    /// reader has drained its pipe only every half-HWM messages, so a PUB whose SNDHWM is near the
    /// window drops frames even in strict lockstep (measured with libzmq 4.3.4: SNDHWM 8 loses
    /// frames with one frame outstanding; 32 does not).
    public static func recommendedHighWaterMark(window: Int) -> Int {
        max(64, 16 * max(1, window))
    }

    /// The endpoint actually bound (a `*` port resolved).
    public let endpoint: String
    public let configuration: Configuration
    public private(set) var ledger = CreditLedger()
    /// Ids of consumers dropped for silence, in order.
    public private(set) var droppedConsumers: [String] = []
    /// Consumers that said goodbye or were dropped, as they last stood (their final counts),
    /// until they register again.
    public private(set) var departedConsumers: [String: CreditLedger.Consumer] = [:]
    /// Credit messages that did not decode or came from unknown consumers.
    public private(set) var ignoredMessages = 0

    private let router: ZMQSocket
    private let publisher: ZMQSocket
    private var logger: Logger
    private var lastProbe = -Double.infinity

    /// Binds a ROUTER at `endpoint`; probes go out on `publisher` (the frame PUB).
    public init(context: ZMQContext, endpoint: String, publisher: ZMQSocket,
                configuration: Configuration = Configuration(),
                logger: Logger = Logger(label: "pitchside.transport.credits")) throws {
        router = try context.socket(.router)
        try router.set(.linger, 0)
        try router.set(.routerHandover, 1)  // a restarted worker with the same identity takes over
        self.endpoint = try router.bind(endpoint)
        self.publisher = publisher
        self.configuration = configuration
        self.logger = logger
    }

    public func close() { router.close() }

    /// Ids of the consumers the gate waits for.
    public var consumers: [String] {
        ledger.consumers.values.filter(\.isSynchronised).map(\.id).sorted()
    }

    /// Waits until at least `count` consumers are registered and confirmed; false on timeout.
    public func waitForConsumers(count: Int, timeout: Double, isCancelled: () -> Bool = { false }) throws -> Bool {
        let deadline = WallClock.monotonicSeconds() + timeout
        while ledger.synchronisedCount < count {
            let remaining = deadline - WallClock.monotonicSeconds()
            if remaining <= 0 || isCancelled() { return false }
            try pump(timeout: min(remaining, configuration.probeInterval))
        }
        return true
    }

    /// Blocks until every consumer of `streamID` lets `seq` be published, dropping consumers
    /// that stay silent too long. `timeout` (seconds, nil: none) and `isCancelled` end the wait early.
    public func waitUntilAllowed(streamID: String, seq: UInt64, timeout: Double? = nil,
                                 isCancelled: () -> Bool = { false }) throws -> WaitOutcome {
        let start = WallClock.monotonicSeconds()
        try pump(timeout: 0)
        while true {
            let blockers = ledger.blockers(streamID: streamID, seq: seq)
            if blockers.isEmpty { return .allowed }
            let now = WallClock.monotonicSeconds()
            for id in blockers {
                // Silence counts from the start of this wait: waiting for others is not silence.
                guard let consumer = ledger.consumers[id] else { continue }
                let silentFor = now - max(consumer.lastHeard, start)
                if silentFor > configuration.silenceTimeout {
                    departedConsumers[id] = ledger.remove(id: id)
                    droppedConsumers.append(id)
                    logger.warning("dropped consumer \(id): no credit for \(String(format: "%.1f", silentFor)) s while frame \(streamID)/\(seq) waited for it", metadata: [
                        "acked": "\(consumer.ackedThrough[streamID] ?? -1)", "window": "\(consumer.window)",
                    ])
                }
            }
            if isCancelled() { return .cancelled }
            if let timeout, now - start >= timeout { return .timedOut }
            try pump(timeout: configuration.probeInterval)
        }
    }

    /// Handles credit messages for up to `timeout` seconds (returns early after the first batch),
    /// and probes unconfirmed consumers.
    public func pump(timeout: Double) throws {
        try probeIfDue()
        var wait = timeout
        while let parts = try router.receive(timeout: wait) {
            handle(parts)
            wait = 0  // drain what is queued, then return
        }
        try probeIfDue()
    }

    private func handle(_ parts: [Data]) {
        // ROUTER prepends the peer's identity: [identity, payload].
        guard parts.count == 2, let message = try? PSCreditMessage(serializedBytes: parts[1]) else {
            ignoredMessages += 1
            logger.warning("ignored a malformed credit message (\(parts.count) parts)")
            return
        }
        let now = WallClock.monotonicSeconds()
        switch message.body {
        case .hello(let hello):
            guard Topic.isValidSegment(hello.consumerID) else {
                ignoredMessages += 1
                logger.warning("ignored hello with invalid consumer id \"\(hello.consumerID)\"")
                return
            }
            let known = ledger.consumers[hello.consumerID] != nil
            departedConsumers[hello.consumerID] = nil
            ledger.hello(id: hello.consumerID, subscriptions: hello.subscriptions, window: Int(hello.window), now: now)
            logger.info("consumer \(hello.consumerID) \(known ? "re-registered" : "registered"), window \(hello.window), subscriptions \(hello.subscriptions)")
            lastProbe = -Double.infinity  // probe it now
        case .credit(let credit):
            let known: Bool
            if credit.streamID.isEmpty {
                let wasSynchronised = ledger.consumers[credit.consumerID]?.isSynchronised ?? false
                known = ledger.synchronise(id: credit.consumerID, now: now)
                if known && !wasSynchronised { logger.info("consumer \(credit.consumerID) confirmed its subscriptions") }
            } else {
                let counts = FrameCounts(received: Int(clamping: credit.received), dropped: Int(clamping: credit.dropped))
                known = ledger.acknowledge(id: credit.consumerID, streamID: credit.streamID, seq: credit.seq,
                                           counts: counts, now: now)
            }
            if !known {
                ignoredMessages += 1
                logger.debug("credit from unknown consumer \(credit.consumerID)")
            }
        case .goodbye(let goodbye):
            if let consumer = ledger.remove(id: goodbye.consumerID) {
                departedConsumers[goodbye.consumerID] = consumer
                logger.info("consumer \(goodbye.consumerID) said goodbye")
            }
        case nil:
            ignoredMessages += 1
        }
    }

    private func probeIfDue() throws {
        let pending = ledger.unsynchronised
        guard !pending.isEmpty else { return }
        let now = WallClock.monotonicSeconds()
        guard now - lastProbe >= configuration.probeInterval else { return }
        lastProbe = now
        for id in pending {
            var probe = PSCreditMessage()
            probe.hello = PSHello.with { $0.consumerID = id }
            try publisher.send(probe, topic: CreditSync.topic(consumerID: id))
        }
    }
}

import Foundation
import PitchsideCore

/// The consumer side of `lockstep` pacing (the ZeroMQ guide's credit-based flow control):
/// a DEALER that registers with the capture node's `CreditGate` and acknowledges frames.
///
/// The client subscribes the consumer's SUB to its frame prefixes and to its sync-probe topic
/// (in that order, see `CreditSync`), then says hello. Give it to the `MessageReceiver` reading
/// that SUB, which answers the probe; acknowledge each frame once it is processed.
///
/// ```swift
/// let sub = try context.socket(.sub)
/// try sub.connect(endpoints.frames)
/// let credits = try CreditClient(context: context, endpoint: endpoints.credits, consumerID: "trajectory-1",
///                                subscriptions: ["frame/cam1/gray"], window: 4, subscriber: sub)
/// let frames = MessageReceiver<PSFrame>(socket: sub, credits: credits)
/// while let frame = try frames.receive(timeout: 1) {
///     ...
///     gaps.record(frame.message.header.seq)
///     try credits.acknowledge(streamID: frame.message.header.streamID, seq: frame.message.header.seq, counts: gaps)
/// }
/// try credits.goodbye()
/// ```
public final class CreditClient {
    /// How often a waiting receiver wakes up to let the client re-send its hello (seconds).
    public static let tickInterval = 0.25

    public let consumerID: String
    public let subscriptions: [String]
    public let window: Int
    /// True once the gate's probe arrived: the gate now waits for this consumer.
    public private(set) var isSynchronised = false
    /// Hello is re-sent this often while unconfirmed, and after this long without any message
    /// on the SUB (a restarted capture node no longer knows this consumer).
    public var helloInterval: Double = 1
    public var idleRehello: Double = 5

    private let dealer: ZMQSocket
    private var lastHello = -Double.infinity
    private var lastActivity = WallClock.monotonicSeconds()
    private var saidGoodbye = false

    /// Connects to the gate at `endpoint`, subscribes `subscriber` (the frame SUB) to
    /// `subscriptions` and to this consumer's probe topic, and says hello.
    public init(context: ZMQContext, endpoint: String, consumerID: String, subscriptions: [String],
                window: Int, subscriber: ZMQSocket) throws {
        guard Topic.isValidSegment(consumerID) else {
            throw TopicError(topic: consumerID, reason: "consumer id must be letters, digits, '.', '_', ':' or '-'")
        }
        self.consumerID = consumerID
        self.subscriptions = subscriptions
        self.window = max(1, window)
        dealer = try context.socket(.dealer)
        try dealer.set(.linger, 200)  // let a goodbye leave on close
        try dealer.setRoutingID(Array(consumerID.utf8))
        try dealer.connect(endpoint)
        for prefix in subscriptions { try subscriber.subscribe(prefix) }
        try subscriber.subscribe(CreditSync.topic(consumerID: consumerID))
        try hello()
    }

    deinit { dealer.close() }

    /// Says hello (again): registers, or re-registers after the gate restarted.
    public func hello() throws {
        var message = PSCreditMessage()
        message.hello = PSHello.with {
            $0.consumerID = consumerID
            $0.subscriptions = subscriptions
            $0.window = UInt32(window)
        }
        try send(message)
        lastHello = WallClock.monotonicSeconds()
    }

    /// Frames of `streamID` up to and including `seq` are done. `counts`, the consumer's
    /// gap counter for the stream, tells the capture node what it received and lost so far.
    public func acknowledge(streamID: String, seq: UInt64, counts: SequenceGapCounter? = nil) throws {
        // Silence is counted while waiting: a frame that took long to process (a model loading
        // on the first one) must not look like a lost gate, or the re-hello takes this consumer
        // out of lockstep and capture runs ahead of it.
        noteActivity()
        var message = PSCreditMessage()
        message.credit = PSCredit.with {
            $0.consumerID = consumerID
            $0.streamID = streamID
            $0.seq = seq
            if let counts {
                $0.received = UInt64(counts.received)
                $0.dropped = UInt64(counts.dropped)
            }
        }
        try send(message)
    }

    /// The end-of-stream marker arrived (`lastSeq`, the last seq published): the stream is done,
    /// and `counts` (finished with `lastSeq`) are final, so the capture node's per-consumer
    /// figures add up to what it published.
    public func acknowledgeEndOfStream(streamID: String, lastSeq: UInt64, counts: SequenceGapCounter) throws {
        try acknowledge(streamID: streamID, seq: lastSeq, counts: counts)
    }

    /// Unregisters at once, so capture stops waiting for this consumer.
    public func goodbye() throws {
        guard !saidGoodbye else { return }
        saidGoodbye = true
        var message = PSCreditMessage()
        message.goodbye = PSGoodbye.with { $0.consumerID = consumerID }
        try send(message)
    }

    /// Says goodbye (if not yet) and closes the DEALER.
    public func close() {
        try? goodbye()
        dealer.close()
    }

    /// Called by the receiver for a sync probe: confirms this consumer's subscriptions.
    func handleProbe(_ payload: Data) throws {
        guard let probe = try? PSCreditMessage(serializedBytes: payload),
              case .hello(let hello) = probe.body, hello.consumerID == consumerID else { return }
        noteActivity()
        var confirm = PSCreditMessage()
        confirm.credit = PSCredit.with { $0.consumerID = consumerID }  // empty stream id: "synchronised"
        try send(confirm)
        isSynchronised = true
    }

    /// Called by the receiver for every frame.
    func noteActivity() {
        lastActivity = WallClock.monotonicSeconds()
    }

    /// Re-sends hello when unconfirmed, or when the SUB has been silent long enough that the gate
    /// may have restarted. Called by the receiver while it waits.
    public func tick() throws {
        guard !saidGoodbye else { return }
        let now = WallClock.monotonicSeconds()
        if !isSynchronised {
            if now - lastHello >= helloInterval { try hello() }
        } else if now - lastActivity >= idleRehello && now - lastHello >= idleRehello {
            isSynchronised = false
            try hello()
        }
    }

    private func send(_ message: PSCreditMessage) throws {
        // A DEALER queues while the gate is away; never block a worker on it.
        _ = try dealer.send([message.serializedData()], dontWait: true)
    }
}

import Foundation
import Logging
import PitchsideCore
import PitchsideTransport

/// A score-stream subscriber that never misses an event: the client side of the ZeroMQ
/// guide's Clone pattern. It subscribes first, then asks the aggregator for a snapshot
/// (where every game stands), and from then on delivers events in `event_seq` order per
/// stream; a jump in `event_seq` (a lossy network, a slow subscriber) is filled with a
/// history query before the event that revealed it. When nothing arrives for
/// `catchUpInterval` seconds it asks for the snapshot again and fills up to it, so events
/// published while it was not connected (an aggregator restarting) and followed by none are
/// not missed either.
///
/// ```swift
/// let subscriber = ScoreSubscriber(endpoints: endpoints, stream: nil, logger: logger)
/// try subscriber.run(isCancelled: { stop.isRaised }, onSnapshot: { print($0) }) { event in print(event) }
/// ```
public final class ScoreSubscriber {
    /// What the subscriber did, for status lines and tests.
    public struct Counters: Sendable, Equatable {
        public var delivered = 0
        public var duplicates = 0
        public var gapsFilled = 0
        public var eventsRecovered = 0
        public var malformed = 0
    }

    private let endpoints: Endpoints
    private let stream: String?
    private let logger: Logger
    /// Replay every event from the start of the log before going live (not just the snapshot).
    public var replayHistory = false
    public var queryTimeout: Double = 2
    /// Quiet seconds after which the subscriber checks the snapshot for events it missed.
    public var catchUpInterval: Double = 2
    public private(set) var counters = Counters()
    private var lastSeq: [String: UInt64] = [:]
    /// A snapshot was had: a stream not in it is new, and its events count from 1.
    private var haveSnapshot = false

    public init(endpoints: Endpoints, stream: String?, logger: Logger) {
        self.endpoints = endpoints
        self.stream = stream
        self.logger = logger
    }

    public func run(isCancelled: () -> Bool, onSnapshot: (PSGameSnapshot) -> Void = { _ in },
                    onEvent: (PSGameEvent) -> Void) throws {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let sub = try context.socket(.sub)
        defer { sub.close() }
        try sub.set(.linger, 0)
        try sub.connect(endpoints.events)
        try sub.subscribe(Topic.prefix(.game, stream: stream))
        let query = try context.socket(.dealer)
        defer { query.close() }
        try query.set(.linger, 0)
        // No queue for an aggregator that is down: its answer would come late, to another question.
        try query.set(.immediate, 1)
        try query.connect(endpoints.queries)
        // Give the connection a moment, so the first question is not refused for want of it.
        let connectDeadline = WallClock.monotonicSeconds() + queryTimeout
        let writable = ZMQPoller()
        writable.add(query, events: .writable)
        while WallClock.monotonicSeconds() < connectDeadline, try writable.poll(timeout: 0.05) == 0 {}

        // Subscribed before the snapshot, so nothing falls between the two.
        if let reply = try ask(query, PSQueryRequest.with { $0.snapshot = PSSnapshotRequest.with { $0.streamID = stream ?? "" } }),
           case .snapshot(let snapshot)? = reply.reply {
            haveSnapshot = true
            for game in snapshot.games {
                onSnapshot(game)
                if replayHistory {
                    lastSeq[game.streamID] = 0
                    try fill(query, stream: game.streamID, through: game.lastEventSeq, onEvent: onEvent)
                } else {
                    lastSeq[game.streamID] = game.lastEventSeq
                }
            }
        } else {
            logger.notice("no snapshot from \(endpoints.queries) (is the aggregator running?); following live events only")
        }

        let receiver = MessageReceiver<PSGameEvent>(socket: sub)
        var lastHeard = WallClock.monotonicSeconds()
        while !isCancelled() {
            guard let received = try receiver.receive(timeout: 0.25) else {
                if WallClock.monotonicSeconds() - lastHeard >= catchUpInterval {
                    try catchUp(query, onEvent: onEvent)
                    lastHeard = WallClock.monotonicSeconds()
                }
                continue
            }
            lastHeard = WallClock.monotonicSeconds()
            let event = received.message
            let known = lastSeq[event.streamID] ?? (haveSnapshot ? 0 : nil)
            if let known, event.eventSeq <= known {
                counters.duplicates += 1
                continue
            }
            if let known, event.eventSeq > known + 1 {
                counters.gapsFilled += 1
                try fill(query, stream: event.streamID, through: event.eventSeq - 1, onEvent: onEvent)
            }
            lastSeq[event.streamID] = event.eventSeq
            counters.delivered += 1
            onEvent(event)
        }
        counters.malformed = receiver.stats.rejected
    }

    /// Asks where every game stands and delivers the events not seen yet.
    private func catchUp(_ query: ZMQSocket, onEvent: (PSGameEvent) -> Void) throws {
        let request = PSQueryRequest.with { $0.snapshot = PSSnapshotRequest.with { $0.streamID = stream ?? "" } }
        guard let reply = try ask(query, request), case .snapshot(let snapshot)? = reply.reply else { return }
        for game in snapshot.games where game.lastEventSeq > (lastSeq[game.streamID] ?? 0) {
            if lastSeq[game.streamID] == nil && !haveSnapshot { continue }  // joined without a snapshot: live only
            counters.gapsFilled += 1
            try fill(query, stream: game.streamID, through: game.lastEventSeq, onEvent: onEvent)
        }
    }

    /// Delivers the logged events after the last one seen, through `through`.
    private func fill(_ query: ZMQSocket, stream: String, through: UInt64, onEvent: (PSGameEvent) -> Void) throws {
        let from = (lastSeq[stream] ?? 0) + 1
        guard from <= through else { return }
        let request = PSQueryRequest.with {
            $0.history = PSHistoryRequest.with { $0.streamID = stream; $0.fromEventSeq = from; $0.toEventSeq = through }
        }
        guard let reply = try ask(query, request, historyFrom: from), case .history(let history)? = reply.reply else {
            logger.warning("could not fetch events \(from)…\(through) of \(stream); continuing without them")
            return
        }
        for event in history.events where event.eventSeq > (lastSeq[stream] ?? 0) {
            lastSeq[stream] = event.eventSeq
            counters.eventsRecovered += 1
            counters.delivered += 1
            onEvent(event)
        }
    }

    /// Sends a query and waits for its answer. Replies carry no request id, so one that
    /// cannot be this question's answer (another kind, or history from another seq: the
    /// late answer to a question that timed out) is skipped.
    private func ask(_ socket: ZMQSocket, _ request: PSQueryRequest, historyFrom: UInt64? = nil) throws -> PSQueryReply? {
        guard try socket.send([try request.serializedData()], dontWait: true) else { return nil }  // not connected
        let deadline = WallClock.monotonicSeconds() + queryTimeout
        while WallClock.monotonicSeconds() < deadline {
            guard let parts = try socket.receive(timeout: 0.1) else { continue }
            guard let payload = parts.last, let reply = try? PSQueryReply(serializedBytes: payload) else {
                counters.malformed += 1
                continue
            }
            switch reply.reply {
            case .error(let message)?:
                logger.warning("query refused: \(message)")
                return nil
            case .snapshot? where historyFrom == nil:
                return reply
            case .history(let h)? where historyFrom != nil && (h.events.first.map { $0.eventSeq == historyFrom } ?? true):
                return reply
            default:
                continue
            }
        }
        return nil
    }
}

import Foundation
import Logging
import PitchsideCore
import PitchsideTransport

/// A score-stream subscriber that never misses an event: the client side of the ZeroMQ
/// guide's Clone pattern. It subscribes first, then asks the aggregator for a snapshot
/// (where every game stands), and from then on delivers events in `event_seq` order per
/// stream; a jump in `event_seq` (a lossy network, a slow subscriber) is filled with a
/// history query before the event that revealed it.
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
    public private(set) var counters = Counters()
    private var lastSeq: [String: UInt64] = [:]

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
        try query.connect(endpoints.queries)

        // Subscribed before the snapshot, so nothing falls between the two.
        if let reply = try ask(query, PSQueryRequest.with { $0.snapshot = PSSnapshotRequest.with { $0.streamID = stream ?? "" } }),
           case .snapshot(let snapshot)? = reply.reply {
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
        while !isCancelled() {
            guard let received = try receiver.receive(timeout: 0.25) else { continue }
            let event = received.message
            let known = lastSeq[event.streamID]
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

    /// Delivers the logged events after the last one seen, through `through`.
    private func fill(_ query: ZMQSocket, stream: String, through: UInt64, onEvent: (PSGameEvent) -> Void) throws {
        let from = (lastSeq[stream] ?? 0) + 1
        guard from <= through else { return }
        let request = PSQueryRequest.with {
            $0.history = PSHistoryRequest.with { $0.streamID = stream; $0.fromEventSeq = from; $0.toEventSeq = through }
        }
        guard let reply = try ask(query, request), case .history(let history)? = reply.reply else {
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

    private func ask(_ socket: ZMQSocket, _ request: PSQueryRequest) throws -> PSQueryReply? {
        _ = try socket.send([try request.serializedData()])
        let deadline = WallClock.monotonicSeconds() + queryTimeout
        while WallClock.monotonicSeconds() < deadline {
            guard let parts = try socket.receive(timeout: 0.1) else { continue }
            guard let payload = parts.last, let reply = try? PSQueryReply(serializedBytes: payload) else {
                counters.malformed += 1
                continue
            }
            if case .error(let message)? = reply.reply {
                logger.warning("query refused: \(message)")
                return nil
            }
            return reply
        }
        return nil
    }
}

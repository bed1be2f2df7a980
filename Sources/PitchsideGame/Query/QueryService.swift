import PitchsideCore

/// Where history comes from (the durable log, or anything that keeps events).
public protocol EventHistory {
    func events(stream: String, from: UInt64, to: UInt64) throws -> [PSGameEvent]
}

extension EventLog: EventHistory {}

/// Answers snapshot and history queries: the ZeroMQ guide's Clone pattern. A
/// subscriber that joins late, or sees a gap in `event_seq`, asks for a
/// snapshot (state, score and throws of every game, with the last event_seq it
/// reflects) and for the history it missed, then follows the live stream.
///
/// ```swift
/// let reply = QueryService.answer(request, games: games, history: log)
/// ```
public enum QueryService {
    /// Longest history one reply carries; ask again from the last seq for more.
    public static let maxHistoryEvents = 10_000

    public static func answer(_ request: PSQueryRequest, games: [String: Game], history: EventHistory) -> PSQueryReply {
        var reply = PSQueryReply()
        switch request.query {
        case .snapshot(let q):
            var s = PSSnapshotReply()
            if q.streamID.isEmpty {
                s.games = games.keys.sorted().compactMap { games[$0]?.snapshot() }
            } else if let g = games[q.streamID] {
                s.games = [g.snapshot()]
            } else {
                reply.error = "unknown stream \"\(q.streamID)\""
                return reply
            }
            reply.snapshot = s
        case .history(let q):
            guard !q.streamID.isEmpty else {
                reply.error = "history needs a stream_id"
                return reply
            }
            guard q.toEventSeq == 0 || q.toEventSeq >= q.fromEventSeq else {
                reply.error = "empty range: from \(q.fromEventSeq) > to \(q.toEventSeq)"
                return reply
            }
            do {
                var events = try history.events(stream: q.streamID, from: max(1, q.fromEventSeq), to: q.toEventSeq)
                if events.count > maxHistoryEvents { events = Array(events.prefix(maxHistoryEvents)) }
                var h = PSHistoryReply()
                h.events = events
                reply.history = h
            } catch {
                reply.error = "history failed: \(error)"
            }
        case .none:
            reply.error = "empty query"
        }
        return reply
    }
}

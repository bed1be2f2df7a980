import Foundation
import PitchsideCore

/// The aggregator's durable core: one `Game` per stream, every handled worker
/// result journaled with the events it caused in one SQLite transaction
/// before the events are returned for publishing.
///
/// Restore (in `init`): for each stream, the game is rebuilt from its events up
/// to its checkpoint, then the journaled results after the checkpoint are
/// handled again. `Game` is deterministic, so the replay reproduces the logged
/// events (they are not published again) and the state they leave behind,
/// including a throw that was in flight or the poses of the throw-type window.
/// A checkpoint is a moment when the game was tracking throws with none in
/// flight. Results up to `warmUpUs` of media time before it stay in the
/// journal and warm the restored game up (board, player, the poses of the
/// throw-type window) without producing events; older ones are deleted. Results a worker re-sends after a restart
/// (media time at or before the last journaled one) are dropped as replays.
///
/// ```swift
/// let recorder = try GameRecorder(log: EventLog(path: "games.sqlite"))
/// for result in merged { for e in try recorder.handle([result]) { publish(e) } }
/// ```
public final class GameRecorder {
    public let log: EventLog
    public private(set) var games: [String: Game] = [:]
    /// Journaled results handled again while restoring.
    public private(set) var replayedInputs = 0
    /// Events the replay produced beyond the log (none expected: inputs and
    /// events commit together); they are logged on restore, publish them.
    public private(set) var recoveredEvents: [PSGameEvent] = []
    private let configuration: (String) -> GameConfiguration
    private let classifier: any ThrowTypeClassifier
    private let checkpointEveryUs: Int64
    private let warmUpUs: Int64
    private var nextOrd: [String: UInt64] = [:]
    private var current: [String: EventLog.Checkpoint] = [:]

    public init(log: EventLog, configuration: @escaping (String) -> GameConfiguration = { _ in GameConfiguration() },
                classifier: any ThrowTypeClassifier = LearnedThrowTypeClassifier(),
                checkpointEveryUs: Int64 = 1_000_000, warmUpUs: Int64 = 3_000_000) throws {
        self.log = log
        self.configuration = configuration
        self.classifier = classifier
        self.checkpointEveryUs = checkpointEveryUs
        self.warmUpUs = warmUpUs
        try restore()
    }

    private func restore() throws {
        for stream in try log.streams() {
            let events = try log.events(stream: stream)
            let cp = try log.checkpoint(stream: stream)
            var game = Game(streamID: stream, configuration: configuration(stream), classifier: classifier)
            for e in events where e.eventSeq <= (cp?.eventSeq ?? 0) { game.apply(e) }
            if let data = cp?.learned, !data.isEmpty {
                do {
                    game.restore(learned: try JSONDecoder().decode(BoardSlide.self, from: data))
                } catch {
                    throw RecorderError.unreadableCheckpoint(stream: stream, reason: "\(error)")
                }
            }
            let journal = try log.inputs(stream: stream)
            let inputs = journal.filter { $0.ord > (cp?.inputOrd ?? 0) }
            for i in journal where i.ord <= (cp?.inputOrd ?? 0) { game.warm(i.result) }
            var lastPts = cp?.ptsUs ?? Int64.min
            var recovered: [PSGameEvent] = []
            for i in inputs {
                let replayed = game.handle(i.result)
                replayedInputs += 1
                recovered += replayed.filter { $0.eventSeq > (events.last?.eventSeq ?? 0) }
                lastPts = max(lastPts, i.result.resultHeader?.ptsUs ?? lastPts)
            }
            // The log is the truth for anything the replay did not reproduce.
            for e in events { game.apply(e) }
            if !recovered.isEmpty {
                try log.record(events: recovered, inputs: [], checkpoints: [])
                recoveredEvents += recovered
            }
            if let progress = try log.progress(stream: stream) { lastPts = max(lastPts, progress) }
            if lastPts > .min { game.resumeAfterPtsUs = lastPts }
            games[stream] = game
            nextOrd[stream] = (journal.last?.ord ?? cp?.inputOrd ?? 0) + 1
            if let cp { current[stream] = cp }
        }
    }

    /// Handles results (any streams, in merged order) and commits them with
    /// their events and the workers' delivery marks in one transaction;
    /// returns the events to publish.
    public func handle(_ results: [PSWorkerResult], nowUnixUs: Int64 = 0,
                       deliveries: [DeliveryMark] = []) throws -> [PSGameEvent] {
        var events: [PSGameEvent] = []
        var inputs: [EventLog.JournaledInput] = []
        var checkpoints: [EventLog.Checkpoint] = []
        for r in results {
            guard let h = r.resultHeader, !h.streamID.isEmpty else { continue }
            let stream = h.streamID
            var game = games[stream] ?? Game(streamID: stream, configuration: configuration(stream), classifier: classifier)
            if let mark = game.resumeAfterPtsUs, h.ptsUs <= mark {
                _ = game.handle(r)  // counted as a replay by the game
                games[stream] = game
                continue
            }
            let produced = game.handle(r, nowUnixUs: nowUnixUs)
            let ord = nextOrd[stream, default: 1]
            nextOrd[stream] = ord + 1
            inputs.append(EventLog.JournaledInput(streamID: stream, ord: ord, result: r))
            events += produced
            if let cp = nextCheckpoint(game, stream: stream, ord: ord, pts: h.ptsUs) {
                checkpoints.append(cp)
            }
            games[stream] = game
        }
        try log.record(events: events, inputs: inputs, checkpoints: checkpoints, deliveries: deliveries, keepUs: warmUpUs)
        return events
    }

    /// The stream ended: completes what is in flight, durably.
    public func endOfStream(_ stream: String, ptsUs: Int64, nowUnixUs: Int64 = 0,
                            deliveries: [DeliveryMark] = []) throws -> [PSGameEvent] {
        var events: [PSGameEvent] = []
        if var game = games[stream] {
            events = game.endOfStream(ptsUs: ptsUs, nowUnixUs: nowUnixUs)
            games[stream] = game
        }
        try log.record(events: events, inputs: [], checkpoints: [], deliveries: deliveries)
        return events
    }

    /// The latest quiet moment becomes the checkpoint, written once per
    /// `checkpointEveryUs` of media time (each write also prunes the journal).
    private func nextCheckpoint(_ game: Game, stream: String, ord: UInt64, pts: Int64) -> EventLog.Checkpoint? {
        guard game.isQuiescent else { return nil }
        if let cur = current[stream], pts - cur.ptsUs < checkpointEveryUs { return nil }
        // Plain numbers: encoding cannot fail.
        let learned = (try? JSONEncoder().encode(game.learned)) ?? Data()
        let c = EventLog.Checkpoint(streamID: stream, eventSeq: game.lastEventSeq, inputOrd: ord, ptsUs: pts, learned: learned)
        current[stream] = c
        return c
    }
}

public enum RecorderError: Error, CustomStringConvertible {
    case unreadableCheckpoint(stream: String, reason: String)

    public var description: String {
        switch self {
        case .unreadableCheckpoint(let stream, let reason):
            return "the event log's checkpoint of stream \(stream) holds what its game learned in a form this build cannot read (\(reason))"
        }
    }
}

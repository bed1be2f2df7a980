import Foundation
import GRDB
import PitchsideCore
import SwiftProtobuf

/// The durable game log: every event is appended (in a transaction, SQLite in
/// WAL mode) before it is published, with each stream's progress (the last
/// media time handled), so that after a crash the games are rebuilt from their
/// own events and results re-sent by workers are recognised as already handled.
///
/// ```swift
/// let log = try EventLog(path: "games.sqlite")
/// let events = game.handle(result)
/// try log.append(events, progress: StreamProgress(streamID: "cam1", lastPtsUs: pts))
/// // after a restart:
/// var games = try log.restoreGames { stream in GameConfiguration() }
/// ```
public final class EventLog: @unchecked Sendable {
    let db: DatabaseWriter

    /// Opens (or creates) the log at `path`; `nil` keeps it in memory (tests).
    public init(path: String?) throws {
        if let path {
            var config = Configuration()
            config.busyMode = .timeout(5)
            // WAL + NORMAL: a commit survives the process being killed (not a power cut) without an fsync each.
            config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
            let pool = try DatabasePool(path: path, configuration: config)  // WAL mode
            db = pool
        } else {
            db = try DatabaseQueue()
        }
        try migrate()
    }

    private func migrate() throws {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.create(table: "event") { t in
                t.column("stream_id", .text).notNull()
                t.column("event_seq", .integer).notNull()
                t.column("game_index", .integer).notNull()
                t.column("pts_us", .integer).notNull()
                t.column("kind", .text).notNull()
                t.column("payload", .blob).notNull()
                t.primaryKey(["stream_id", "event_seq"])
            }
            try db.create(table: "progress") { t in
                t.column("stream_id", .text).primaryKey()
                t.column("last_pts_us", .integer).notNull()
            }
        }
        migrator.registerMigration("v2-journal") { db in
            // Worker results handled since the stream's checkpoint, replayed on restore.
            try db.create(table: "input") { t in
                t.column("stream_id", .text).notNull()
                t.column("ord", .integer).notNull()
                t.column("pts_us", .integer).notNull()
                t.column("payload", .blob).notNull()
                t.primaryKey(["stream_id", "ord"])
            }
            try db.create(table: "checkpoint") { t in
                t.column("stream_id", .text).primaryKey()
                t.column("event_seq", .integer).notNull()
                t.column("input_ord", .integer).notNull()
                t.column("pts_us", .integer).notNull()
            }
        }
        migrator.registerMigration("v3-delivery") { db in
            // Per worker, how far its numbered results are handled and logged (see DeliveryTracker).
            try db.create(table: "delivery") { t in
                t.column("producer_id", .text).primaryKey()
                t.column("epoch", .integer).notNull()
                t.column("committed", .integer).notNull()
            }
        }
        migrator.registerMigration("v4-checkpoint-learned") { db in
            // What a game learned that its events do not hold (`Game.learned`), as JSON.
            try db.alter(table: "checkpoint") { t in t.add(column: "learned", .blob) }
        }
        try migrator.migrate(db)
    }

    /// One journaled worker result.
    public struct JournaledInput: Sendable {
        public var streamID: String
        public var ord: UInt64
        public var result: PSWorkerResult

        public init(streamID: String, ord: UInt64, result: PSWorkerResult) {
            self.streamID = streamID
            self.ord = ord
            self.result = result
        }
    }

    /// A point from which a stream's game can be rebuilt: its events up to
    /// `eventSeq`, then its journaled inputs after `inputOrd`.
    public struct Checkpoint: Sendable, Equatable {
        public var streamID: String
        public var eventSeq: UInt64
        public var inputOrd: UInt64
        public var ptsUs: Int64
        /// What the game had learned by then that its events do not hold (`Game.learned`, JSON);
        /// empty for none.
        public var learned: Data

        public init(streamID: String, eventSeq: UInt64, inputOrd: UInt64, ptsUs: Int64, learned: Data = Data()) {
            self.streamID = streamID
            self.eventSeq = eventSeq
            self.inputOrd = inputOrd
            self.ptsUs = ptsUs
            self.learned = learned
        }
    }

    /// Appends events, the inputs that caused them, new checkpoints and the
    /// workers' delivery marks in one transaction; inputs before a new
    /// checkpoint, older than `keepUs` of media time before it, are deleted
    /// (those kept warm a restored game up).
    public func record(events: [PSGameEvent], inputs: [JournaledInput], checkpoints: [Checkpoint],
                       deliveries: [DeliveryMark] = [], keepUs: Int64 = 0) throws {
        guard !events.isEmpty || !inputs.isEmpty || !checkpoints.isEmpty || !deliveries.isEmpty else { return }
        try db.write { db in
            try Self.insert(events, db)
            for d in deliveries {
                // Bit patterns: epochs are random 64-bit numbers, SQLite integers are signed.
                try db.execute(
                    sql: """
                        INSERT INTO delivery (producer_id, epoch, committed) VALUES (?, ?, ?)
                        ON CONFLICT(producer_id) DO UPDATE SET epoch = excluded.epoch, committed = excluded.committed
                        """,
                    arguments: [d.producerID, Int64(bitPattern: d.epoch), Int64(bitPattern: d.committed)])
            }
            for i in inputs {
                try db.execute(sql: "INSERT INTO input (stream_id, ord, pts_us, payload) VALUES (?, ?, ?, ?)",
                               arguments: [i.streamID, Int64(i.ord), i.result.resultHeader?.ptsUs ?? 0, try i.result.serializedData()])
                try Self.store(StreamProgress(streamID: i.streamID, lastPtsUs: i.result.resultHeader?.ptsUs ?? 0), db)
            }
            for c in checkpoints {
                try db.execute(
                    sql: """
                        INSERT INTO checkpoint (stream_id, event_seq, input_ord, pts_us, learned) VALUES (?, ?, ?, ?, ?)
                        ON CONFLICT(stream_id) DO UPDATE SET event_seq = excluded.event_seq,
                            input_ord = excluded.input_ord, pts_us = excluded.pts_us, learned = excluded.learned
                        """,
                    arguments: [c.streamID, Int64(c.eventSeq), Int64(c.inputOrd), c.ptsUs, c.learned])
                try db.execute(sql: "DELETE FROM input WHERE stream_id = ? AND ord <= ? AND pts_us < ?",
                               arguments: [c.streamID, Int64(c.inputOrd), c.ptsUs - keepUs])
            }
        }
    }

    public func checkpoint(stream: String) throws -> Checkpoint? {
        try db.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM checkpoint WHERE stream_id = ?", arguments: [stream]) else {
                return nil
            }
            return Checkpoint(streamID: stream, eventSeq: UInt64(row["event_seq"] as Int64),
                              inputOrd: UInt64(row["input_ord"] as Int64), ptsUs: row["pts_us"],
                              learned: (row["learned"] as Data?) ?? Data())
        }
    }

    /// A stream's journaled inputs after `ord`, in order.
    public func inputs(stream: String, after ord: UInt64 = 0) throws -> [JournaledInput] {
        try db.read { db in
            try Row.fetchAll(db, sql: "SELECT ord, payload FROM input WHERE stream_id = ? AND ord > ? ORDER BY ord",
                             arguments: [stream, Int64(ord)]).map { row in
                JournaledInput(streamID: stream, ord: UInt64(row["ord"] as Int64),
                               result: try PSWorkerResult(serializedBytes: row["payload"] as Data))
            }
        }
    }

    /// The workers' delivery marks as last committed.
    public func deliveryMarks() throws -> [DeliveryMark] {
        try db.read { db in
            try Row.fetchAll(db, sql: "SELECT producer_id, epoch, committed FROM delivery ORDER BY producer_id").map { row in
                DeliveryMark(producerID: row["producer_id"], epoch: UInt64(bitPattern: row["epoch"] as Int64),
                             committed: UInt64(bitPattern: row["committed"] as Int64))
            }
        }
    }

    /// Journaled inputs still kept (all streams).
    public func inputCount() throws -> Int {
        try db.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM input") ?? 0 }
    }

    /// The log was asked to append an event that does not follow the stream's last one.
    public struct SequenceError: Error, Equatable, CustomStringConvertible {
        public let streamID: String
        public let expected: UInt64
        public let got: UInt64
        public var description: String { "event log: stream \(streamID) expected event_seq \(expected), got \(got)" }
    }

    /// Appends events (and optionally progress) atomically. Every stream's
    /// event_seq must continue its last one without a gap or a repeat.
    public func append(_ events: [PSGameEvent], progress: [StreamProgress] = []) throws {
        guard !events.isEmpty || !progress.isEmpty else { return }
        try db.write { db in
            try Self.insert(events, db)
            for p in progress { try Self.store(p, db) }
        }
    }

    private static func insert(_ events: [PSGameEvent], _ db: Database) throws {
        var next: [String: UInt64] = [:]
        for e in events {
            let expected: UInt64
            if let n = next[e.streamID] { expected = n } else {
                let last = try UInt64.fetchOne(db, sql: "SELECT MAX(event_seq) FROM event WHERE stream_id = ?",
                                               arguments: [e.streamID]) ?? 0
                expected = last + 1
            }
            guard e.eventSeq == expected else { throw SequenceError(streamID: e.streamID, expected: expected, got: e.eventSeq) }
            next[e.streamID] = expected + 1
            try db.execute(
                sql: "INSERT INTO event (stream_id, event_seq, game_index, pts_us, kind, payload) VALUES (?, ?, ?, ?, ?, ?)",
                arguments: [e.streamID, Int64(e.eventSeq), Int64(e.gameIndex), e.ptsUs, Self.kind(e), try e.serializedData()])
        }
    }

    /// Convenience for one stream: events and its progress mark in one transaction.
    public func append(_ events: [PSGameEvent], progress: StreamProgress) throws {
        try append(events, progress: [progress])
    }

    /// Records how far a stream's results were handled (call periodically,
    /// e.g. once per released frame batch, even when no event was produced).
    public func recordProgress(_ p: StreamProgress) throws {
        try db.write { db in try Self.store(p, db) }
    }

    private static func store(_ p: StreamProgress, _ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO progress (stream_id, last_pts_us) VALUES (?, ?)
                ON CONFLICT(stream_id) DO UPDATE SET last_pts_us = MAX(last_pts_us, excluded.last_pts_us)
                """,
            arguments: [p.streamID, p.lastPtsUs])
    }

    /// A stream's events with `from ≤ event_seq ≤ to` (`to == 0`: to the latest).
    public func events(stream: String, from: UInt64 = 1, to: UInt64 = 0) throws -> [PSGameEvent] {
        try db.read { db in
            let rows = try Row.fetchAll(
                db, sql: "SELECT payload FROM event WHERE stream_id = ? AND event_seq >= ? AND event_seq <= ? ORDER BY event_seq",
                arguments: [stream, Int64(from), to == 0 ? Int64.max : Int64(to)])
            return try rows.map { row in try PSGameEvent(serializedBytes: row["payload"] as Data) }
        }
    }

    /// Streams that have events or progress.
    public func streams() throws -> [String] {
        try db.read { db in
            try String.fetchAll(db, sql: """
                SELECT stream_id FROM event UNION SELECT stream_id FROM progress UNION SELECT stream_id FROM input ORDER BY 1
                """)
        }
    }

    public func lastEventSeq(stream: String) throws -> UInt64 {
        try db.read { db in
            UInt64(try Int64.fetchOne(db, sql: "SELECT MAX(event_seq) FROM event WHERE stream_id = ?", arguments: [stream]) ?? 0)
        }
    }

    public func progress(stream: String) throws -> Int64? {
        try db.read { db in
            try Int64.fetchOne(db, sql: "SELECT last_pts_us FROM progress WHERE stream_id = ?", arguments: [stream])
        }
    }

    /// Rebuilds every stream's game from its events; results at or before the
    /// stream's progress mark (or its last event) will be dropped as replays.
    public func restoreGames(classifier: any ThrowTypeClassifier = LearnedThrowTypeClassifier(),
                             configuration: (String) -> GameConfiguration = { _ in GameConfiguration() }) throws -> [String: Game] {
        var games: [String: Game] = [:]
        for stream in try streams() {
            let events = try self.events(stream: stream)
            var mark = try progress(stream: stream)
            if let last = events.last?.ptsUs { mark = max(mark ?? last, last) }
            games[stream] = Game.restored(streamID: stream, configuration: configuration(stream), classifier: classifier,
                                          events: events, resumeAfterPtsUs: mark)
        }
        return games
    }

    static func kind(_ e: PSGameEvent) -> String {
        switch e.event {
        case .stateChanged: return "state_changed"
        case .throwCompleted: return "throw_completed"
        case .scoreUpdate: return "score_update"
        case .summary: return "summary"
        case .none: return "empty"
        }
    }
}

/// How far a stream's worker results have been handled, in media time.
public struct StreamProgress: Sendable, Equatable {
    public var streamID: String
    public var lastPtsUs: Int64

    public init(streamID: String, lastPtsUs: Int64) {
        self.streamID = streamID
        self.lastPtsUs = lastPtsUs
    }
}

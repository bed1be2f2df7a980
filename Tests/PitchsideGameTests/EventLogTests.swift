import Foundation
import PitchsideCore
import XCTest
@testable import PitchsideGame

final class EventLogTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("pitchside-log-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private var path: String { dir.appendingPathComponent("games.sqlite").path }

    /// Feeds results like the aggregator does: events and progress in one
    /// transaction before publishing, progress alone every 30 results.
    private func run(_ game: inout Game, _ results: ArraySlice<PSWorkerResult>, log: EventLog) throws -> [PSGameEvent] {
        var published: [PSGameEvent] = []
        for (i, r) in results.enumerated() {
            let events = game.handle(r)
            let pts = r.resultHeader?.ptsUs ?? 0
            if !events.isEmpty {
                try log.append(events, progress: StreamProgress(streamID: game.streamID, lastPtsUs: pts))
                published += events
            } else if i % 30 == 0 {
                try log.recordProgress(StreamProgress(streamID: game.streamID, lastPtsUs: game.lastPtsUs))
            }
        }
        return published
    }

    func testRoundTripAndHistory() throws {
        let log = try EventLog(path: path)
        var game = Game(streamID: "cam1", classifier: GameScript.classifier)
        let events = try run(&game, GameScript().results(throws: Array(GameScript.appleGame().prefix(2)), frames: 280)[...], log: log)
        XCTAssertEqual(try log.events(stream: "cam1"), events)
        XCTAssertEqual(try log.events(stream: "cam1", from: 3, to: 5).map(\.eventSeq), [3, 4, 5])
        XCTAssertEqual(try log.events(stream: "cam1", from: UInt64(events.count)).count, 1)
        XCTAssertEqual(try log.lastEventSeq(stream: "cam1"), UInt64(events.count))
        XCTAssertEqual(try log.streams(), ["cam1"])
        XCTAssertTrue(try log.events(stream: "nope").isEmpty)
        // The file is in WAL mode.
        XCTAssertTrue(FileManager.default.fileExists(atPath: path + "-wal"))
    }

    func testAppendRefusesGapsAndRepeats() throws {
        let log = try EventLog(path: nil)
        var e = PSGameEvent()
        e.streamID = "cam1"
        e.eventSeq = 1
        try log.append([e])
        XCTAssertThrowsError(try log.append([e]), "a repeat")
        e.eventSeq = 3
        XCTAssertThrowsError(try log.append([e]), "a gap")
        e.eventSeq = 2
        var f = e
        f.eventSeq = 4
        XCTAssertThrowsError(try log.append([e, f]))
        XCTAssertEqual(try log.lastEventSeq(stream: "cam1"), 1, "a failed batch is not half-written")
    }

    /// Results grouped by frame, as the merger releases them.
    private func byFrame(_ results: ArraySlice<PSWorkerResult>) -> [[PSWorkerResult]] {
        var out: [[PSWorkerResult]] = []
        var seq: UInt64?
        for r in results {
            let s = r.resultHeader?.seq
            if s != seq || out.isEmpty { out.append([]); seq = s }
            out[out.count - 1].append(r)
        }
        return out
    }

    /// Crash (drop the recorder and the log without closing), reopen, restore,
    /// let the workers re-send the last 90 frames, and finish the game.
    private func crashAndRestore(at cut: Int) throws {
        let script = GameScript()
        let results = script.results(throws: GameScript.appleGame(), frames: 830)
        var reference = Game(streamID: "cam1", classifier: GameScript.classifier)
        let expected = play(&reference, results)

        var published: [PSGameEvent] = []
        do {
            let recorder = try GameRecorder(log: EventLog(path: path), classifier: GameScript.classifier)
            for batch in byFrame(results[..<cut]) { published += try recorder.handle(batch) }
        }
        let log = try EventLog(path: path)
        let cutSeq = results[cut].resultHeader!.seq
        if cutSeq > 200 {
            let recent = results[..<cut].filter { $0.resultHeader!.seq + 200 >= cutSeq }.count
            XCTAssertLessThanOrEqual(try log.inputCount(), recent, "the journal keeps only the last few seconds")
        }
        let recorder = try GameRecorder(log: log, classifier: GameScript.classifier)
        XCTAssertTrue(recorder.recoveredEvents.isEmpty)
        XCTAssertEqual(recorder.games["cam1"]?.lastEventSeq, published.last?.eventSeq)
        let resend = results.firstIndex { ($0.resultHeader?.seq ?? 0) + 90 >= results[cut].resultHeader!.seq }!
        for batch in byFrame(results[resend...]) { published += try recorder.handle(batch) }
        XCTAssertGreaterThan(recorder.games["cam1"]?.counters.replayed ?? 0, 0, "re-sent results dropped")

        XCTAssertEqual(published.map(\.eventSeq), Array(1...UInt64(published.count)), "no event missing or repeated")
        XCTAssertEqual(try log.events(stream: "cam1"), published)
        XCTAssertEqual(published.throwEvents.count, 8)
        XCTAssertEqual(published.summaries.first?.scores.first?.score, expected.summaries.first?.scores.first?.score)
        XCTAssertEqual(published.throwEvents.map(\.points), expected.throwEvents.map(\.points))
        XCTAssertEqual(published.throwEvents.map(\.type), expected.throwEvents.map(\.type))
        XCTAssertEqual(published.map(\.ptsUs), expected.map(\.ptsUs))
    }

    func testRestoreWhileABagRestsMatchesAnUninterruptedRun() throws {
        // Frame 300: throw 3 (underleg, 15) has landed and is completing.
        let cut = GameScript().results(throws: GameScript.appleGame(), frames: 830).firstIndex { $0.resultHeader?.seq == 300 }!
        try crashAndRestore(at: cut)
    }

    func testRestoreDuringSetupMatchesAnUninterruptedRun() throws {
        let cut = GameScript().results(throws: GameScript.appleGame(), frames: 830).firstIndex { $0.resultHeader?.seq == 10 }!
        try crashAndRestore(at: cut)
    }

    func testRestoreBetweenThrowsMatchesAnUninterruptedRun() throws {
        // Frame 340: after throw 3 completed, before throw 4 is released.
        let cut = GameScript().results(throws: GameScript.appleGame(), frames: 830).firstIndex { $0.resultHeader?.seq == 340 }!
        try crashAndRestore(at: cut)
    }

    func testRestoreMidFlightLosesNoThrow() throws {
        // Frame 180: throw 2 (underhand, on the board) is in flight.
        let cut = GameScript().results(throws: GameScript.appleGame(), frames: 830).firstIndex { $0.resultHeader?.seq == 180 }!
        try crashAndRestore(at: cut)
    }

    /// How far bags slide on the board is learned from rest states before the checkpoint, which a
    /// restored game does not handle again: the checkpoint keeps it, and the restored game judges
    /// the next throw as the live one did (a bag sliding past a pile into the hole).
    func testRestoreKeepsWhatTheGameLearned() throws {
        let results = GameScript().slideGame(pile: true, slidBags: 1.0)
        var reference = Game(streamID: "cam1", classifier: GameScript.classifier)
        let expected = play(&reference, results)
        XCTAssertEqual(expected.throwEvents.map(\.outcome), [.board, .board, .hole])
        // Frame 250: both bags seen at rest (frames 95 and 195), the third throw not yet released.
        let cut = results.firstIndex { $0.resultHeader?.seq == 250 }!
        var published: [PSGameEvent] = []
        do {
            let recorder = try GameRecorder(log: EventLog(path: path), classifier: GameScript.classifier)
            for batch in byFrame(results[..<cut]) { published += try recorder.handle(batch) }
        }
        let log = try EventLog(path: path)
        // Results before the checkpoint only warm a restored game up (board, poses, last census).
        let checkpoint = try XCTUnwrap(try log.checkpoint(stream: "cam1"))
        XCTAssertGreaterThan(checkpoint.ptsUs, 195 * GameScript.frameUs, "both rest states lie before the checkpoint")
        let recorder = try GameRecorder(log: log, classifier: GameScript.classifier)
        XCTAssertEqual(recorder.games["cam1"]?.learned.samples.count, 2)
        for batch in byFrame(results[cut...]) { published += try recorder.handle(batch) }
        XCTAssertEqual(published.throwEvents.map(\.outcome), expected.throwEvents.map(\.outcome))
        XCTAssertEqual(published.map(\.eventSeq), Array(1...UInt64(published.count)))

        // A checkpoint whose learned part this build cannot read is a clear error, not a guess.
        try log.record(events: [], inputs: [], checkpoints: [EventLog.Checkpoint(
            streamID: "cam1", eventSeq: checkpoint.eventSeq, inputOrd: checkpoint.inputOrd, ptsUs: checkpoint.ptsUs,
            learned: Data("not json".utf8))])
        XCTAssertThrowsError(try GameRecorder(log: try EventLog(path: path), classifier: GameScript.classifier)) { error in
            XCTAssertTrue("\(error)".contains("checkpoint of stream cam1"), "\(error)")
        }
    }

    func testRestoredGameMatchesTheLiveOne() throws {
        let log = try EventLog(path: path)
        var game = Game(streamID: "cam1", classifier: GameScript.classifier)
        _ = try run(&game, GameScript().results(throws: GameScript.appleGame(), frames: 830)[...], log: log)
        let restored = try XCTUnwrap(try EventLog(path: path).restoreGames(classifier: GameScript.classifier)["cam1"])
        XCTAssertEqual(restored.snapshot(), game.snapshot())
        XCTAssertEqual(restored.gameIndex, 2)
        XCTAssertEqual(restored.state, .trackThrows)
    }
}

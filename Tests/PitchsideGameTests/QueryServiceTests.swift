import PitchsideCore
import XCTest
@testable import PitchsideGame

final class QueryServiceTests: XCTestCase {
    func testSnapshotAndHistory() throws {
        let log = try EventLog(path: nil)
        var game = Game(streamID: "cam1", classifier: GameScript.classifier)
        let events = play(&game, GameScript().results(throws: Array(GameScript.appleGame().prefix(3)), frames: 380))
        try log.append(events)
        let games = ["cam1": game, "cam2": Game(streamID: "cam2", classifier: GameScript.classifier)]

        var q = PSQueryRequest()
        q.snapshot = PSSnapshotRequest()
        let all = QueryService.answer(q, games: games, history: log)
        XCTAssertEqual(all.snapshot.games.map(\.streamID), ["cam1", "cam2"])

        var one = PSSnapshotRequest()
        one.streamID = "cam1"
        q.snapshot = one
        let snap = try XCTUnwrap(QueryService.answer(q, games: games, history: log).snapshot.games.first)
        XCTAssertEqual(snap.lastEventSeq, UInt64(events.count))
        XCTAssertEqual(snap.throws.count, 3)
        XCTAssertEqual(snap.score.scores.first?.score, 3 + 1 + 15)
        XCTAssertEqual(snap.state, .trackThrows)

        // A subscriber that saw events up to 10 catches up from 11.
        var h = PSHistoryRequest()
        h.streamID = "cam1"
        h.fromEventSeq = 11
        q.history = h
        let history = QueryService.answer(q, games: games, history: log).history.events
        XCTAssertEqual(history.first?.eventSeq, 11)
        XCTAssertEqual(history.last?.eventSeq, snap.lastEventSeq)
        h.toEventSeq = 12
        q.history = h
        XCTAssertEqual(QueryService.answer(q, games: games, history: log).history.events.map(\.eventSeq), [11, 12])
    }

    func testBadQueriesGetErrors() throws {
        let log = try EventLog(path: nil)
        var q = PSQueryRequest()
        XCTAssertFalse(QueryService.answer(q, games: [:], history: log).error.isEmpty)
        var s = PSSnapshotRequest()
        s.streamID = "nope"
        q.snapshot = s
        XCTAssertTrue(QueryService.answer(q, games: [:], history: log).error.contains("unknown stream"))
        var h = PSHistoryRequest()
        q.history = h
        XCTAssertFalse(QueryService.answer(q, games: [:], history: log).error.isEmpty)
        h.streamID = "cam1"
        h.fromEventSeq = 5
        h.toEventSeq = 2
        q.history = h
        XCTAssertTrue(QueryService.answer(q, games: [:], history: log).error.contains("empty range"))
    }
}

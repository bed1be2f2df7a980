import PitchsideCore
import XCTest
@testable import PitchsideGame

final class StateMachineTests: XCTestCase {
    func testAppleTransitionsAreAllowed() throws {
        var sm = GameStateMachine()
        let path: [PSGameState] = [.setupCamera, .detectingBoard, .detectingBoard, .detectedBoard, .detectingPlayer,
                                   .detectedPlayer, .trackThrows, .throwCompleted, .trackThrows, .throwCompleted,
                                   .showSummary, .detectingPlayer]
        for s in path { try sm.transition(to: s, reason: "test") }
        XCTAssertEqual(sm.state, .detectingPlayer)
        try sm.transition(to: .inactive, reason: "stop")
        XCTAssertEqual(sm.state, .inactive)
    }

    func testForbiddenTransitionsThrowAndKeepState() throws {
        var sm = GameStateMachine()
        XCTAssertThrowsError(try sm.transition(to: .trackThrows, reason: "skip setup"))
        XCTAssertEqual(sm.state, .inactive)
        XCTAssertThrowsError(try sm.transition(to: .inactive, reason: "already inactive"))
        try sm.transition(to: .setupCamera, reason: "")
        XCTAssertThrowsError(try sm.transition(to: .showSummary, reason: ""))
        XCTAssertFalse(GameStateMachine.isAllowed(from: .showSummary, to: .trackThrows))
        XCTAssertFalse(GameStateMachine.isAllowed(from: .detectingPlayer, to: .trackThrows))
        XCTAssertFalse(GameStateMachine.isAllowed(from: .throwCompleted, to: .detectingPlayer))
        XCTAssertTrue(GameStateMachine.isAllowed(from: .trackThrows, to: .showSummary))
        // Every state may return to Inactive.
        for s in PSGameState.allCases where s != .inactive && s != .unspecified {
            XCTAssertTrue(GameStateMachine.isAllowed(from: s, to: .inactive), "\(s)")
        }
    }

    func testSetupStagesFollowBoardAndStability() {
        let script = GameScript()
        var setup = SetupProgress()
        XCTAssertEqual(setup.observe(board: script.board(0).board), .boardPlacement)
        XCTAssertNil(setup.observe(board: script.board(1).board))
        XCTAssertEqual(setup.observe(board: script.board(2).board), .sceneStability)
        XCTAssertNil(setup.observe(stability: script.stability(5).stability), "not stable yet")
        XCTAssertEqual(setup.observe(stability: script.stability(16).stability), .setupComplete)

        // A board without a measured hole waits in boardContours; an unstable scene goes back to placement.
        var s2 = SetupProgress()
        var unmeasured = script.board(0).board
        unmeasured.hole = PSEllipse()
        for _ in 0..<3 { _ = s2.observe(board: unmeasured) }
        XCTAssertEqual(s2.stage, .sceneStability)
        XCTAssertEqual(s2.observe(stability: script.stability(20).stability), .boardContours)
        XCTAssertEqual(s2.observe(stability: script.stability(3).stability), .boardPlacement)
        // Losing the board during placement starts over.
        XCTAssertEqual(s2.observe(board: script.board(0, found: false).board), .detectingBoard)
    }

    func testGameWalksThroughSetupToTracking() {
        let script = GameScript()
        var game = Game(streamID: "cam1", classifier: GameScript.classifier)
        let events = play(&game, script.results(throws: [], frames: 25))
        let states = events.stateChanges.map(\.to)
        XCTAssertEqual(states.first, .setupCamera)
        XCTAssertEqual(Array(states.suffix(5)), [.detectingBoard, .detectedBoard, .detectingPlayer, .detectedPlayer, .trackThrows])
        let stages = events.stateChanges.filter { $0.to == .detectingBoard }.map(\.setupStage)
        XCTAssertEqual(stages, [.detectingBoard, .boardPlacement, .sceneStability])
        XCTAssertEqual(game.state, .trackThrows)
        XCTAssertEqual(events.map(\.eventSeq), Array(1...UInt64(events.count)))
        XCTAssertEqual(game.counters.forbiddenTransitions, 0)
    }

    func testStopReturnsToInactive() {
        var game = Game(streamID: "cam1", classifier: GameScript.classifier)
        _ = play(&game, GameScript().results(throws: [], frames: 25))
        let events = game.stop(reason: "camera closed", ptsUs: 1_000_000)
        XCTAssertEqual(events.stateChanges.map(\.to), [.inactive])
        XCTAssertEqual(game.state, .inactive)
    }
}

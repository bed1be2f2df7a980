import PitchsideCore
import XCTest
@testable import PitchsideGame

/// A throw made before the game began tracking (the board not yet found) is played again once
/// it has (`PreTrackingBuffer`, `Game.catchUp`).
final class PreTrackingTests: XCTestCase {
    /// The board first found at frame 120; one underhand throw released at frame 40, landing on
    /// the board at frame 70; the census, running once the board is found, sees its bag at 130.
    private func gameWithALateBoard(cameraMovesAt moveFrame: Int? = nil) -> [PSWorkerResult] {
        let script = GameScript()
        let t = GameScript.Throw(type: .underhand, landing: GameScript.boardSpot, censusPlace: nil, releaseFrame: 40)
        var out: [PSWorkerResult] = []
        for r in script.results(throws: [t], frames: 260) {
            guard let seq = r.resultHeader?.seq else { out.append(r); continue }
            let frame = Int(seq)
            switch r.result {
            case .board where frame < 120:
                out.append(script.board(frame, found: false))
            case .stability where frame == moveFrame:
                var moved = r
                moved.stability.stable = false
                moved.stability.sampleCount = 0
                out.append(moved)
            case .frameDone where frame == 130 && r.frameDone.role == "detection":
                out.append(script.census(frame, place: .onBoard, bagID: 1))
                out.append(r)
            default:
                out.append(r)
            }
        }
        return out
    }

    func testAThrowMadeBeforeTheBoardWasFoundIsScoredOnceItIs() throws {
        var game = Game(streamID: "cam1", classifier: GameScript.classifier)
        let events = play(&game, gameWithALateBoard())
        let tracking = try XCTUnwrap(events.first { if case .stateChanged(let c) = $0.event { c.to == .trackThrows } else { false } })
        XCTAssertGreaterThan(tracking.ptsUs, 100 * GameScript.frameUs, "tracking began long after the throw landed")

        let done = events.throwEvents
        XCTAssertEqual(done.count, 1)
        XCTAssertEqual(done.first?.outcome, .board)
        XCTAssertEqual(done.first?.confirmedByCensus, true)
        XCTAssertEqual(done.first?.type, .underhand, "typed from the poses kept around its release")
        XCTAssertEqual(done.first?.releasePtsUs, 40 * GameScript.frameUs)
        XCTAssertEqual(game.counters.throwsCaughtUp, 1)
        XCTAssertEqual(events.map(\.eventSeq), Array(1...UInt64(events.count)), "gap-free from 1")
    }

    func testACameraMoveBeforeTrackingBeganDropsThePathsSeenBeforeIt() {
        var game = Game(streamID: "cam1", classifier: GameScript.classifier)
        let events = play(&game, gameWithALateBoard(cameraMovesAt: 100))
        XCTAssertTrue(events.throwEvents.isEmpty, "the board found after the move says nothing of earlier paths")
        XCTAssertEqual(game.counters.throwsCaughtUp, 0)
    }

    func testTheBufferKeepsItsSpanAndTheSceneBeforeIt() {
        let script = GameScript()
        var buffer = PreTrackingBuffer(spanUs: 2_000_000)
        func census(_ frame: Int) -> PSBoardCensus { script.census(frame, place: .onBoard, bagID: UInt32(frame)).census }
        func trajectory(_ frame: Int) -> PSTrajectoryObservation {
            let points = script.flight(from: GameScript.release, to: GameScript.boardSpot, startFrame: frame - 20, frames: 20)
            return script.trajectory(uuid: "t\(frame)", points: points, upTo: 20).trajectory
        }
        buffer.keep(census: census(10))
        buffer.keep(census: census(20))
        buffer.keep(trajectory: trajectory(30), seq: 30, playerBox: nil)
        buffer.keep(pose: script.pose(40, type: nil, k: 0).pose)
        buffer.keep(trajectory: trajectory(90), seq: 90, playerBox: nil)  // 2 s on: frames before 30 fall out

        var kept = buffer.take()
        XCTAssertEqual(kept.entries.map(\.ptsUs), [30, 90].map { Int64($0) * GameScript.frameUs })
        XCTAssertEqual(kept.censusBefore?.header.seq, 20, "the latest census that fell out")
        XCTAssertEqual(kept.poses.count, 1)
        XCTAssertTrue(kept.hasTrajectories)

        buffer.keep(census: census(95))
        buffer.keep(trajectory: trajectory(96), seq: 96, playerBox: nil)
        buffer.cameraMoved()
        kept = buffer.take()
        XCTAssertTrue(kept.entries.isEmpty)
        XCTAssertFalse(kept.hasTrajectories)
        XCTAssertEqual(kept.censusBefore?.header.seq, 95, "what the scene held stays")

        // While the game tracks throws nothing is kept, but the scene moves on: what is kept
        // after tracking ends follows the last census seen meanwhile, not the one before it.
        buffer.follow(census: census(400))
        buffer.keep(trajectory: trajectory(420), seq: 420, playerBox: nil)
        XCTAssertEqual(buffer.take().censusBefore?.header.seq, 400)
    }
}

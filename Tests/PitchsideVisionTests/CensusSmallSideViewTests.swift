import Foundation
import PitchsideCore
import PitchsideSynth
import XCTest
@testable import PitchsideVision

/// The census on a rendered 640×360 side view (synthetic game seed 1000: the board about 56
/// pixels long, a bag about 7), against the game's truth. Frames are rendered straight from the
/// scene, a few of them only.
final class CensusSmallSideViewTests: XCTestCase {
    /// Throw 1 goes straight into the hole (never seen at rest); throws 2 and 3 come to rest on
    /// the board a few pixels apart, so that they make one blob. Once counted 0 in the hole and 1
    /// on the board.
    func testBagThroughTheHoleAndTouchingBagsOnTheBoard() throws {
        let (game, truth) = DetectionTestSupport.syntheticGame(seed: 1000, width: 640, height: 360, players: 1)
        let board = try XCTUnwrap(BoardDetector().detect(in: game.render(frame: truth.camera.firstSettledFrame + 5)))
        let intoHole = try XCTUnwrap(truth.throwsTruth.first)
        XCTAssertEqual(intoHole.outcome, .hole)
        let twoOnBoard = try XCTUnwrap(truth.censuses.first { $0.afterThrow == 3 })
        XCTAssertEqual(twoOnBoard.onBoard, 2)

        var census = BagCensus()
        var results: [CensusResult] = []
        var seq: UInt64 = 0
        func feed(_ image: ImageBuffer, times: Int) {
            for _ in 0..<times {
                if let r = census.process(frame: VideoFrame(seq: seq, ptsUs: Int64(seq) * 33_333, image: image), board: board, stable: true) {
                    results.append(r)
                }
                seq += 1
            }
        }
        // The empty board at rest, then the last frames of the flight into the hole, then rest.
        feed(game.render(frame: intoHole.releaseFrame), times: census.settleFrames + 2)
        for i in (intoHole.landingFrame - 8)...intoHole.restFrame { feed(game.render(frame: i), times: 1) }
        feed(game.render(frame: intoHole.restFrame + 10), times: census.settleFrames + 2)
        let afterHole = try XCTUnwrap(results.last)
        XCTAssertEqual(afterHole.inHole, 1, "a bag straight through the hole")
        XCTAssertEqual(afterHole.onBoard, 0)
        XCTAssertTrue(afterHole.changes.contains { $0.kind == .newBag && $0.place == .inHole })
        // Never seen at rest: said to be inferred, so the flight can overrule it (a pile).
        XCTAssertTrue(afterHole.changes.allSatisfy(\.inferred))

        // One bag on the board, then a second one touching it.
        let oneOnBoard = try XCTUnwrap(truth.censuses.first { $0.afterThrow == 2 })
        XCTAssertEqual(oneOnBoard.onBoard, 1)
        feed(game.render(frame: oneOnBoard.frame + 20), times: census.settleFrames + 2)
        XCTAssertEqual(results.last?.onBoard, 1)
        feed(game.render(frame: twoOnBoard.frame + 20), times: census.settleFrames + 2)
        let last = try XCTUnwrap(results.last)
        print("seed 1000 at 640×360: census after throw 3: on board \(last.onBoard), in hole \(last.inHole), on ground \(last.onGround)")
        XCTAssertEqual(last.onBoard, 2, "two bags touching on the board")
        XCTAssertEqual(last.inHole, 1)
        XCTAssertEqual(last.onGround, 0)
    }
}

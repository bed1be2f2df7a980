import XCTest
@testable import PitchsideSynth

/// The census' word on one throw, as `pitchside eval detection` judges it.
final class CensusVerdictTests: XCTestCase {
    private func check(truth: BagPlace, run: String?) -> CensusCheck {
        CensusCheck(afterThrow: 1, frame: 100, deadlineFrame: 145, truthOnBoard: 0, truthInHole: 0, truthOnGround: 0,
                    truthOnGroundFar: 0, runFrame: 110, runOnBoard: 0, runInHole: 0, runOnGround: 0,
                    truthPlace: truth.rawValue, runVerdict: run)
    }

    func testVerdicts() {
        XCTAssertTrue(check(truth: .onBoard, run: "on_board").verdictRight)
        XCTAssertFalse(check(truth: .onBoard, run: "on_ground").verdictRight)
        // No new bag in view: right for a bag out of sight, wrong for one on the board.
        XCTAssertFalse(check(truth: .onBoard, run: "none").verdictRight)
        XCTAssertTrue(check(truth: .inHole, run: "none").verdictRight)
        XCTAssertTrue(check(truth: .onGround, run: "none").verdictRight)
        XCTAssertFalse(check(truth: .inHole, run: "on_board").verdictRight)
        // No census after the landing at all.
        XCTAssertFalse(check(truth: .inHole, run: nil).verdictRight)
    }
}

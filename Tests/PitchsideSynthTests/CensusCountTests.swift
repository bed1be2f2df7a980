import PitchsideCore
import XCTest
@testable import PitchsideSynth

/// The census counts `pitchside eval detection` compares: ground bags the board hides are left out.
final class CensusCountTests: XCTestCase {
    static let truth = SynthGame(settings: SynthFixtures.small(seed: 81)).truth()

    /// A ground bag in the middle of the board in the picture (well within the census' reach).
    func groundBag(id: Int, hidden: Bool?) -> BagTruth {
        let corners = Self.truth.frames[Self.truth.censuses[0].frame].boardCorners
        let centre = [corners.map { $0[0] }.reduce(0, +) / 4, corners.map { $0[1] }.reduce(0, +) / 4]
        return BagTruth(id: id, playerIndex: 0, throwIndex: nil, color: RGB(200, 30, 30), place: .onGround,
                        world: [9, 0.02, -0.5], position: centre, hidden: hidden)
    }

    /// The truth with its first rest state holding just these bags, and a run whose census saw
    /// `onGround` bags on the ground a few frames later.
    func check(bags: [BagTruth], runOnGround: Int) -> CensusCheck {
        var truth = Self.truth
        let first = truth.censuses[0]
        truth.censuses = [CensusTruth(afterThrow: first.afterThrow, frame: first.frame, time: first.time, bags: bags,
                                      onBoard: 0, inHole: 0, onGround: bags.count)]
        var census = PSBoardCensus()
        census.header.seq = UInt64(first.frame + 5)
        census.onGround = UInt32(runOnGround)
        var run = RunLog()
        run.censuses = [census]
        return DetectionEvaluator().evaluate(run: run, truth: truth, name: "t").restStates[0]
    }

    func testHiddenGroundBagsAreLeftOutOfTheCounts() {
        let bags = [groundBag(id: 1, hidden: false), groundBag(id: 2, hidden: true)]
        let seen = check(bags: bags, runOnGround: 1)
        XCTAssertEqual(seen.truthOnGround, 1)
        XCTAssertEqual(seen.truthOnGroundHidden, 1)
        XCTAssertTrue(seen.visibleExact)
        // Counting the hidden bag too is wrong: no camera sees it.
        XCTAssertFalse(check(bags: bags, runOnGround: 2).visibleExact)
    }

    func testTruthWithoutTheFlagCountsEveryGroundBag() {
        let bags = [groundBag(id: 1, hidden: nil), groundBag(id: 2, hidden: nil)]
        let old = check(bags: bags, runOnGround: 2)
        XCTAssertEqual(old.truthOnGround, 2)
        XCTAssertEqual(old.truthOnGroundHidden, 0)
        XCTAssertTrue(old.visibleExact)
    }
}

import PitchsideCore
import XCTest
@testable import PitchsideGame

final class ScoringTests: XCTestCase {
    private func bag(_ player: String, _ points: Int32) -> PSThrowCompleted {
        var t = PSThrowCompleted()
        t.player = player
        t.points = points
        return t
    }

    func testApplePointsAndUnderlegMultiplier() {
        let s = Scoring(configuration: GameConfiguration(mode: .apple))
        XCTAssertEqual(s.points(outcome: .hole, type: .overhand), 3)
        XCTAssertEqual(s.points(outcome: .board, type: .underhand), 1)
        XCTAssertEqual(s.points(outcome: .miss, type: .overhand), 0)
        XCTAssertEqual(s.points(outcome: .hole, type: .underleg), 15)
        XCTAssertEqual(s.points(outcome: .board, type: .underleg), 5)
        XCTAssertEqual(s.points(outcome: .miss, type: .underleg), 0)
        let official = Scoring(configuration: GameConfiguration(mode: .official))
        XCTAssertEqual(official.points(outcome: .hole, type: .underleg), 3, "no multiplier in official mode")
    }

    func testAppleGameEndsAfterEightThrows() {
        var s = Scoring(configuration: GameConfiguration(mode: .apple, players: ["ann"]))
        for p in GameScript.applePoints.dropLast() {
            s.record(bag("ann", p))
            XCTAssertFalse(s.isOver)
        }
        s.record(bag("ann", GameScript.applePoints.last!))
        XCTAssertTrue(s.isOver)
        XCTAssertEqual(s.totals["ann"], GameScript.appleTotal)
        XCTAssertEqual(s.summary(of: []).maxScore, 40)
    }

    func testOfficialCancellationAndAlternation() {
        var s = Scoring(configuration: GameConfiguration(mode: .official, players: ["red", "blue"]))
        // Inning 1: red 3+1+0+1 = 5, blue 1+1+0+0 = 2 → red scores 3.
        let inning1: [Int32] = [3, 1, 1, 1, 0, 0, 1, 0]  // alternating red, blue, red, blue...
        for p in inning1 {
            XCTAssertEqual(s.inning, 1)
            s.record(bag(s.nextPlayer, p))
        }
        XCTAssertEqual(s.totals["red"], 3)
        XCTAssertEqual(s.totals["blue"], 0)
        XCTAssertEqual(s.inning, 2)
        XCTAssertEqual(s.nextPlayer, "red", "the side that scored throws first")
        // Inning 2: equal points cancel out completely.
        for p: Int32 in [3, 3, 1, 1, 0, 0, 0, 0] { s.record(bag(s.nextPlayer, p)) }
        XCTAssertEqual(s.totals["red"], 3)
        XCTAssertEqual(s.totals["blue"], 0)
        // Inning 3: blue 12 vs red 0 → blue 12, and throws first next.
        for p: Int32 in [0, 3, 0, 3, 0, 3, 0, 3] { s.record(bag(s.nextPlayer, p)) }
        XCTAssertEqual(s.totals["blue"], 12)
        XCTAssertEqual(s.nextPlayer, "blue")
        XCTAssertFalse(s.isOver)
    }

    func testOfficialFirstToTwentyOneAtEndOfInning() {
        var s = Scoring(configuration: GameConfiguration(mode: .official, players: ["red", "blue"]))
        // red 12 per inning (4 holes), blue 0.
        for _ in 0..<2 { for i in 0..<8 { s.record(bag(s.nextPlayer, i % 2 == 0 ? 3 : 0)) } }
        XCTAssertEqual(s.totals["red"], 24)
        XCTAssertTrue(s.isOver)
        XCTAssertEqual(s.winner, "red")
        // Nothing counts after the end.
        s.record(bag("blue", 3))
        XCTAssertEqual(s.throwCount, 16)
    }

    func testOfficialBustVariant() {
        var config = GameConfiguration(mode: .official, players: ["red", "blue"])
        config.bust = true
        var s = Scoring(configuration: config)
        for _ in 0..<2 { for i in 0..<8 { s.record(bag(s.nextPlayer, i % 2 == 0 ? 3 : 0)) } }
        XCTAssertEqual(s.totals["red"], 15, "24 busts back to 15")
        XCTAssertFalse(s.isOver)
        // red +6 exactly: 3+3 vs 0 → 21 wins.
        for p: Int32 in [3, 0, 3, 0, 0, 0, 0, 0] { s.record(bag(s.nextPlayer, p)) }
        XCTAssertEqual(s.totals["red"], 21)
        XCTAssertTrue(s.isOver)
        XCTAssertEqual(s.winner, "red")
    }
}

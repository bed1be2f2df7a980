import PitchsideCore
import XCTest
@testable import PitchsideGame

/// How far bags slide on the board, learned from the bags the census saw at rest, follows a bag
/// that came down short of the hole and went from view.
final class BoardSlideTests: XCTestCase {
    private static let bagSide = GameScript.board.bagSideX

    func testTheCoefficientIsLearnedFromBagsSeenAtRest() {
        var slide = BoardSlide()
        slide.record(speed: 4, slide: 0.16)
        XCTAssertNil(slide.coefficient, "one bag is not enough")
        XCTAssertNil(slide.slide(speed: 3))
        slide.record(speed: 5, slide: 0.25)
        XCTAssertEqual(slide.coefficient!, 0.01, accuracy: 1e-12)
        XCTAssertEqual(slide.slide(speed: 3)!, 0.09, accuracy: 1e-12)
        // A bag seen behind its landing was knocked back or mis-read: not a measure of the board.
        slide.record(speed: 4, slide: -0.3)
        slide.record(speed: 0, slide: 0.1)
        XCTAssertEqual(slide.samples.count, 2)
        // However little behind: the census placed it at a pile's centre, not a bag stopped dead.
        slide.record(speed: 5, slide: -0.01)
        XCTAssertEqual(slide.samples.count, 2)
        XCTAssertEqual(slide.coefficient!, 0.01, accuracy: 1e-12)
        // Seen where it came down: it stopped dead, a slide of 0.
        slide.record(speed: 5, slide: 0)
        XCTAssertEqual(slide.samples.last!.slide, 0)
    }

    func testTheLandingSpeedIsTheFlightsSpeedAlongX() {
        let points = (0..<10).map { i in
            let t = Double(i) / 30
            return TimedPoint(x: 0.2 + 0.5 * t, y: 0.4 - 0.3 * t + 0.6 * t * t, ptsUs: Int64(i) * 33_333)
        }
        XCTAssertEqual(BoardSlide.landingSpeed(points, direction: 1)!, 0.5, accuracy: 1e-3)
        XCTAssertNil(BoardSlide.landingSpeed(points, direction: -1), "moving the other way")
        let leftward = points.map { TimedPoint(x: 1 - $0.x, y: $0.y, ptsUs: $0.ptsUs) }
        XCTAssertEqual(BoardSlide.landingSpeed(leftward, direction: -1)!, 0.5, accuracy: 1e-3)
        XCTAssertNil(BoardSlide.landingSpeed(Array(points.prefix(3)), direction: 1))
    }

    /// A bag that came down short of the hole beside a pile and went from view: its slide decides.
    func testTheSlideDecidesBetweenThePileAndTheHole() {
        let board = GameScript.board
        let bagSide = Self.bagSide
        let landing = GameScript.hole - Vec2(board.holeRadiusX + 0.8 * bagSide, 0)
        var pile = PSBoardCensus()
        pile.bags = [landing - Vec2(0.3 * bagSide, 0), landing + Vec2(0.3 * bagSide, 0)].enumerated().map { i, p in
            var b = PSBagAtRest()
            b.id = UInt32(i + 1)
            b.position = p.wire
            b.place = .onBoard
            return b
        }
        func judge(_ census: PSBoardCensus?, slide: Double?, passedOverHole: Bool = false) -> PSThrowOutcome {
            OutcomeJudge.unseenAtRest(flightOutcome: .board, landing: landing, lastCensus: census,
                                      passedOverHole: passedOverHole, slide: slide, board: board)
        }
        XCTAssertEqual(judge(pile, slide: nil), .board, "unknown slide: in the pile")
        XCTAssertEqual(judge(pile, slide: 1.0 * bagSide), .hole, "slides past the rim")
        XCTAssertEqual(judge(pile, slide: 0.7 * bagSide), .hole, "within the margin of the rim")
        XCTAssertEqual(judge(pile, slide: 0.2 * bagSide), .board)
        XCTAssertEqual(judge(nil, slide: nil), .hole, "unknown slide, no pile: slid in")
        XCTAssertEqual(judge(nil, slide: 0.2 * bagSide), .board, "stops short of the rim")
        XCTAssertEqual(judge(nil, slide: 0.2 * bagSide, passedOverHole: true), .hole, "seen crossing the hole")
        // Past the hole a slide takes it away from the hole: the rules without it hold.
        let past = GameScript.hole + Vec2(board.holeRadiusX + 1.5 * bagSide, 0)
        XCTAssertEqual(OutcomeJudge.unseenAtRest(flightOutcome: .board, landing: past, lastCensus: nil,
                                                 slide: 3 * bagSide, board: board), .miss)
    }

    /// The game learns the slide from the bags it saw at rest and applies it to a later bag that
    /// went from view beside a pile short of the hole.
    func testTheGameLearnsHowFarBagsSlide() {
        func third(pile: Bool, slidBags: Double?) -> PSThrowOutcome? {
            var game = Game(streamID: "cam1", classifier: GameScript.classifier)
            return play(&game, GameScript().slideGame(pile: pile, slidBags: slidBags)).throwEvents.last?.outcome
        }
        XCTAssertEqual(third(pile: true, slidBags: nil), .board, "nothing learned: in the pile")
        XCTAssertEqual(third(pile: true, slidBags: 1.0), .hole, "bags slide a bag here: past the pile into the hole")
        XCTAssertEqual(third(pile: false, slidBags: nil), .hole, "nothing learned: slid in")
        XCTAssertEqual(third(pile: false, slidBags: 0.0), .board, "bags stop where they land here: short of the hole")
    }
}

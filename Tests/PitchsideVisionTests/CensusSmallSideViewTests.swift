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
        // Throw 3's last frames of flight, then rest.
        let third = try XCTUnwrap(truth.throwsTruth.first { $0.index == 3 })
        for i in (third.landingFrame - 8)...third.restFrame { feed(game.render(frame: i), times: 1) }
        feed(game.render(frame: twoOnBoard.frame + 20), times: census.settleFrames + 2)
        let last = try XCTUnwrap(results.last)
        print("seed 1000 at 640×360: census after throw 3: on board \(last.onBoard), in hole \(last.inHole), on ground \(last.onGround)")
        XCTAssertEqual(last.onBoard, 2, "two bags touching on the board")
        XCTAssertEqual(last.inHole, 1)
        XCTAssertEqual(last.onGround, 0)
    }

    /// A bag sinking into the hole still shows by it as a piece of a bag, and a slow sink can
    /// look still long enough for a rest state: held5-0016 (yellow bags on a white top at
    /// 640×360, a bag 7.1 pixels across and 26 pixels² at rest, the hole at (530.5, 237.0))
    /// scored throws 3 and 5 on the board from pieces of 0.30 and 0.45 of a bag 1.3 and 0.7 bags
    /// from the hole. A bag at rest by the hole showed 0.55 of a bag and more (held4-0016 throw 8,
    /// held5-0017 throw 8), and a small piece away from the hole, or past it, is no sinking bag.
    func testAPieceOfABagByTheHoleAfterACrossingIsTheBagSinkingIntoIt() {
        let census = BagCensus()
        // The board the detection worker found in held5-0016 (the back end, with the hole, on the right).
        let board = BoardDetection(imageWidth: 640, imageHeight: 360,
                                   corners: [PlanePoint(479.92, 240.70), PlanePoint(534.44, 231.96), PlanePoint(548.01, 238.76), PlanePoint(487.96, 248.12)],
                                   hole: PixelEllipse(center: PlanePoint(530.46, 237.0), semiMajor: 3.97, semiMinor: 1.02, angleDegrees: -2.93),
                                   metresPerPixel: 0.021084, confidence: 1, backEdgeStart: 1, lengthAlongFirstEdge: true,
                                   surfaceColour: RGBColour(r: 232, g: 230, b: 222), holeContrast: 1)
        let bagSide = 7.11, single = 26.0
        func sinking(_ x: Double, _ y: Double, bags: Double) -> Bool {
            let patch = ChangedPatch(center: PlanePoint(x, y), area: bags * single,
                                     extentMin: PlanePoint(x - 2, y - 1), extentMax: PlanePoint(x + 2, y + 1))
            return census.isSinkingBag(patch, board: board, bagSide: bagSide, singleBagArea: single)
        }
        XCTAssertTrue(sinking(522.0, 233.0, bags: 0.30), "throw 3")
        XCTAssertTrue(sinking(526.0, 236.0, bags: 0.45), "throw 5")
        XCTAssertFalse(sinking(522.5, 235.0, bags: 0.56), "a bag at rest by the hole")
        XCTAssertFalse(sinking(505.0, 240.0, bags: 0.30), "away from the hole")
        // A bag at rest past the hole, partly hidden behind it (held3-0010 throw 4: 0.39 of a bag,
        // 0.9 bags past its centre).
        XCTAssertFalse(sinking(537.0, 236.0, bags: 0.39), "past the hole")
        // Along the board toward its back end (right here): the hole's centre is 0, a bag behind
        // it positive, one short of it negative.
        XCTAssertEqual(census.pastHole(PlanePoint(530.46, 237.0), board: board), 0, accuracy: 1e-9)
        XCTAssertGreaterThan(census.pastHole(PlanePoint(537.0, 236.0), board: board), 0.5 * bagSide)
        XCTAssertLessThan(census.pastHole(PlanePoint(522.0, 233.0), board: board), -0.5 * bagSide)
    }

    /// Bags standing on the top near its far edge rise above the top's outline in a side view,
    /// where only the lit paint (the outline a pixel low) may pass for the board.
    /// held4-0013 at frame 300 (1280×720, looked at as 640×360): a navy and three olive bags on a
    /// wooden top; the two olive ones at the far end lie near the paint's yellowish hue at 0.6 of
    /// its brightness and were taken for paint all game. held5-0000 at frame 240 (640×360): an
    /// olive bag on a wooden top, blurred into the grey ground behind, within a shade of the
    /// paint, never counted all game.
    func testBagsStandingOnTheTopAtItsFarEdgeAreNotItsPaint() throws {
        for (fixture, bags) in [("side-view-1280-top-cut-by-bags.png", 4), ("side-view-640-olive-bag-at-far-edge.png", 2)] {
            let picture = try DetectionTestSupport.fixture(fixture)
            let board = try XCTUnwrap(BoardDetector().detect(in: picture), fixture)
            let onTop = BagFinder().find(in: picture, board: board).filter { $0.place == .onBoard }
            print("\(fixture): blobs on the top \(onTop.map(\.count)), colours \(onTop.map(\.colour))")
            // One blob per bag (how many bags a blob holds by its area is another question).
            XCTAssertEqual(onTop.count, bags, fixture)
        }
    }

    /// A game (1280×720, looked at as 640×360) where three olive bags lie on the top before the
    /// first throw, two of them side by side (0.17 m between centres) in one blob of less than two
    /// bags' area. No bag alone is as wide: the blob holds two, and the first rest state counts all
    /// three. (Development game dev4-0004 showed it first: it counted two, and every rest state of
    /// the game was one short. Its two bags lay closer than a bag's side, one partly inside the
    /// other, which the games no longer draw; this game's lie farther apart.)
    func testTwoBagsSideBySideInLessThanTwoBagsAreaAreTwo() throws {
        let item = CorpusPlan(name: "dev4", count: 165, baseSeed: 7100).items[164]
        XCTAssertEqual(item.settings.seed, 7264)
        let game = SynthGame(settings: item.settings)
        let truth = game.truth()
        XCTAssertEqual(truth.initialBags.filter { $0.place == .onBoard }.count, 3)
        // The board where the truth has it: this game's board is found in some frames only.
        let frame = truth.camera.firstSettledFrame + 30
        let board = Self.board(truth.frames[frame], colour: truth.board.color,
                               width: item.settings.width, height: item.settings.height)
        let picture = try DetectionTestSupport.throughVideoCodec(game.render(frame: frame), crf: item.settings.nuisances.crf)
        let onBoard = BagFinder().find(in: picture, board: board).filter { $0.place == .onBoard }
        print("seed 7264 before the first throw: \(onBoard.map { ($0.area / $0.singleBagArea, $0.count) })")
        XCTAssertEqual(onBoard.map(\.count).reduce(0, +), 3)
        // The pair's area is near the split (2.06 bag areas here): with a wider margin, its area
        // alone says one bag, its width still two.
        var byWidth = BagFinder()
        byWidth.splitMargin = 0.6
        let pair = try XCTUnwrap(byWidth.find(in: picture, board: board).filter { $0.place == .onBoard }.max { $0.area < $1.area })
        XCTAssertLessThan(pair.area / pair.singleBagArea, 1.5 + byWidth.splitMargin, "by area alone, one bag")
        XCTAssertEqual(pair.count, 2)
        var byArea = byWidth
        byArea.widestBag = .infinity
        XCTAssertEqual(byArea.find(in: picture, board: board).filter { $0.place == .onBoard }.max { $0.area < $1.area }?.count, 1)
    }

    /// Held-out game held20-0019 at 2 s (640×360, cropped to 200 × 100 from (40, 190)): one
    /// olive bag on a yellow top at its front corner before the first throw. The front edge's
    /// shade joins its blob, as wide as two bags side by side (1.97 sides) but of little more
    /// than one bag's area: one bag, not two (counted two, every rest state of the game was one
    /// over).
    func testOneBagWidenedByTheTopsEdgeIsOneBag() throws {
        let picture = try DetectionTestSupport.fixture("side-view-640-olive-bag-at-front-corner.png")
        let board = try XCTUnwrap(BoardDetector().detect(in: picture))
        let onBoard = BagFinder().find(in: picture, board: board).filter { $0.place == .onBoard }
        print("held20-0019 before the first throw: \(onBoard.map { ($0.area / $0.singleBagArea, $0.count) })")
        XCTAssertEqual(onBoard.map(\.count), [1])
        // Its width alone says two.
        var byWidthAlone = BagFinder()
        byWidthAlone.pairAreaShare = 0
        XCTAssertEqual(byWidthAlone.find(in: picture, board: board).filter { $0.place == .onBoard }.map(\.count), [2])
    }

    /// Development game dev3-0003 at 0.42 s (640×360, cropped to 200 × 100 from (40, 190)): one
    /// olive bag on a blue top before the first throw, blurred into a blob that fills its 10 × 4
    /// box, 1.9 bags' area. By its area two; the box has no room for a second bag: one (counted
    /// two, every rest state of the game was one over).
    func testOneBagFillingItsBoxIsOneBag() throws {
        let picture = try DetectionTestSupport.fixture("side-view-640-olive-bag-filling-its-box.png")
        let board = try XCTUnwrap(BoardDetector().detect(in: picture))
        let onBoard = BagFinder().find(in: picture, board: board).filter { $0.place == .onBoard }
        print("dev3-0003 before the first throw: \(onBoard.map { ($0.area / $0.singleBagArea, $0.count) })")
        XCTAssertEqual(onBoard.map(\.count), [1])
        // Its area alone says two.
        var byAreaAlone = BagFinder()
        byAreaAlone.oneBagRoomAcross = 0
        let alone = byAreaAlone.find(in: picture, board: board).filter { $0.place == .onBoard }
        XCTAssertGreaterThanOrEqual(alone.first.map { $0.area / $0.singleBagArea } ?? 0, 1.5 + byAreaAlone.splitMargin)
        XCTAssertEqual(alone.map(\.count), [2])
    }

    /// Development games dev8-0000, -0002 and -0018 (640×360): olive bags lie on the ground
    /// before the first throw, blurred into it. On grey ground they lay 17–34 from it (under its
    /// threshold, but darker than it and of their own hue); on grass one showed only a thin strip
    /// past the threshold (too thin for a bag), the rest of it faintly off. Each game's census
    /// missed them in every rest state.
    func testSmallBagsBlurredIntoTheGroundAreFound() throws {
        let plan = CorpusPlan(name: "dev8", count: 20, baseSeed: 7700)
        for index in [0, 2, 18] {
            let item = plan.items[index]
            let game = SynthGame(settings: item.settings)
            let truth = game.truth()
            let onGround = truth.initialBags.filter { $0.place == .onGround }.count
            XCTAssertGreaterThan(onGround, 0)
            let frame = truth.camera.firstSettledFrame + 30
            let board = Self.board(truth.frames[frame], colour: truth.board.color,
                                   width: item.settings.width, height: item.settings.height)
            let picture = try DetectionTestSupport.throughVideoCodec((0...frame).map { game.render(frame: $0) },
                                                                     crf: item.settings.nuisances.crf, preset: "veryfast")
            func counts(_ finder: BagFinder) -> (board: Int, ground: Int) {
                let found = finder.find(in: picture, board: board)
                return (found.filter { $0.place == .onBoard }.map(\.count).reduce(0, +),
                        found.filter { $0.place == .onGround }.map(\.count).reduce(0, +))
            }
            let found = counts(BagFinder())
            XCTAssertEqual(found.ground, onGround, item.name)
            XCTAssertEqual(found.board, truth.initialBags.filter { $0.place == .onBoard }.count, item.name)
            var thresholdOnly = BagFinder()
            thresholdOnly.faintShare = 1
            thresholdOnly.dipShare = 0
            XCTAssertLessThan(counts(thresholdOnly).ground, onGround, "\(item.name): the case")
        }
    }

    /// held17-0001 (640×360): an olive bag lies on grass before the first throw, two or three
    /// pixels tall. The codec keeps colour at half the resolution, so it took the grass's chroma
    /// and showed only as a dip in brightness ((46, 76, 16) on (76, 106, 46)): no pixel of it
    /// lay even faintly off the grass, and the census missed it in all eight rest states.
    func testABagShowingOnlyAsADipInTheGroundsBrightnessIsFound() throws {
        let item = CorpusPlan(name: "held17", count: 20, baseSeed: 9840).items[1]
        let game = SynthGame(settings: item.settings)
        let truth = game.truth()
        let onGround = truth.initialBags.filter { $0.place == .onGround }
        XCTAssertEqual(onGround.count, 1)
        let frame = truth.camera.firstSettledFrame + 30
        let board = Self.board(truth.frames[frame], colour: truth.board.color,
                               width: item.settings.width, height: item.settings.height)
        let picture = try DetectionTestSupport.throughVideoCodec((0...frame).map { game.render(frame: $0) },
                                                                 crf: item.settings.nuisances.crf, preset: "veryfast")
        func groundBags(_ finder: BagFinder) -> [BagSighting] { finder.find(in: picture, board: board).filter { $0.place == .onGround } }
        let found = groundBags(BagFinder())
        XCTAssertEqual(found.map(\.count).reduce(0, +), 1)
        let truthAt = PlanePoint(onGround[0].position[0] * Double(item.settings.width), onGround[0].position[1] * Double(item.settings.height))
        XCTAssertLessThan(try XCTUnwrap(found.first).center.distance(to: truthAt), 3, "where the truth has it")
        var noDips = BagFinder()
        noDips.dipShare = 0
        XCTAssertTrue(groundBags(noDips).isEmpty, "the case: without dips it is not seen")
    }

    /// The board of a frame's truth, as the detector would report it.
    private static func board(_ f: FrameTruth, colour: RGB, width: Int, height: Int) -> BoardDetection {
        let w = Double(width), h = Double(height)
        let corners = f.boardCorners.map { PlanePoint($0[0] * w, $0[1] * h) }
        let hole = PixelEllipse(center: PlanePoint(f.hole.cx * w, f.hole.cy * h), semiMajor: f.hole.rxPixels,
                                semiMinor: f.hole.ryPixels, angleDegrees: f.hole.angleDeg)
        func middle(_ a: Int, _ b: Int) -> PlanePoint { PlanePoint((corners[a].x + corners[b].x) / 2, (corners[a].y + corners[b].y) / 2) }
        let backEdgeStart = middle(1, 2).distance(to: hole.center) < middle(3, 0).distance(to: hole.center) ? 1 : 3
        return BoardDetection(imageWidth: width, imageHeight: height, corners: corners, hole: hole,
                              metresPerPixel: f.metresPerPixel, confidence: 1, backEdgeStart: backEdgeStart,
                              lengthAlongFirstEdge: true,
                              surfaceColour: RGBColour(r: UInt8(colour.r), g: UInt8(colour.g), b: UInt8(colour.b)), holeContrast: 1)
    }
}

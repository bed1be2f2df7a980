import Foundation
import PitchsideCore
import XCTest
@testable import PitchsideVision

/// Bag census on a drawn side view: a bag comes to rest on the board, then one on the ground.
final class CensusTests: XCTestCase {
    /// The drawn side view with one blue bag on the board, and its board.
    private func sceneWithOneBag() throws -> (BoardScene, BoardDetection) {
        var scene = BoardScene.sideView(seed: 2)
        let board = try XCTUnwrap(BoardDetector().detect(in: scene.render(seed: 2)))
        scene.boardBags = [(0.8, 0.0, (30, 40, 200))]
        return (scene, board)
    }

    func testRestStatesAndChanges() throws {
        var (scene, board) = try sceneWithOneBag()
        let first = scene.render(seed: 3)
        let bagSide = scene.bagSidePixels
        let groundPoint = PlanePoint(scene.corners[3].x - 1.2 * bagSide, scene.corners[3].y + 0.8 * bagSide)
        scene.groundBags = [(groundPoint, bagSide, (240, 220, 20))]
        let second = scene.render(seed: 4)
        var census = BagCensus()
        var seq: UInt64 = 0
        let results = rest(&census, [first, second], board: board, seq: &seq, frames: census.settleFrames + 2)
        XCTAssertEqual(results.count, 2)
        XCTAssertEqual(results.first?.onBoard, 1)
        XCTAssertEqual(results.first?.changes.map(\.kind), [.newBag])
        XCTAssertEqual(results.last?.onBoard, 1)
        XCTAssertEqual(results.last?.onGround, 1)
        XCTAssertEqual(results.last?.changes.map(\.kind), [.newBag])
        let message = PSBoardCensus(try XCTUnwrap(results.last), header: PSHeader())
        XCTAssertEqual(message.bags.count, 2)
        XCTAssertEqual(message.onGround, 1)
        // Not stable: no census.
        XCTAssertNil(census.process(frame: VideoFrame(seq: seq, ptsUs: 0, image: second), board: board, stable: false))
    }

    /// On the board's top only its paint and bags show: a bag of the ground's colour there, and
    /// one of the board's hue far darker than it (navy on light blue), are bags, not ground and
    /// not paint in shade.
    func testBagsOfTheGroundsColourOrTheBoardsHueOnTheTopAreFound() throws {
        var scene = BoardScene.sideView(seed: 2)
        scene.boardColour = (120, 138, 170)
        scene.groundColour = (80, 120, 60)
        let board = try XCTUnwrap(BoardDetector().detect(in: scene.render(seed: 2)))
        scene.boardBags = [(0.45, 0.1, (17, 29, 82)), (0.95, -0.05, (84, 122, 62))]
        let sightings = BagFinder().find(in: scene.render(seed: 3), board: board)
        XCTAssertEqual(sightings.filter { $0.place == .onBoard }.count, 2, "\(sightings)")
        XCTAssertEqual(sightings.count, 2)
    }

    /// The drawn side view of seed 2 in these colours, its board as found, and a bag's side in pixels.
    private func sideView(board: (Double, Double, Double), ground: (Double, Double, Double), noise: Double? = nil) throws
        -> (scene: BoardScene, board: BoardDetection, bagSide: Double) {
        var scene = BoardScene.sideView(seed: 2)
        scene.boardColour = board
        scene.groundColour = ground
        if let noise { scene.noise = noise }
        let found = try XCTUnwrap(BoardDetector().detect(in: scene.render(seed: 2)))
        return (scene, found, scene.bagSidePixels)
    }

    /// Off the top, a bag of the board's hue far darker than any face of the board in shade
    /// (navy beside a light blue board) is a bag too: its chroma is near the paint's, which
    /// alone made it paint (dev-stack-0002: such a bag slid off the back end to the ground, went
    /// unseen, and the throw was scored in the hole).
    func testABagOfTheBoardsHueFarDarkerOnTheGroundIsFound() throws {
        var (scene, board, bagSide) = try sideView(board: (120, 138, 170), ground: (80, 120, 60))
        let end = scene.corners[2]
        scene.groundBags = [(PlanePoint(end.x + 0.8 * bagSide, end.y), bagSide, (6, 24, 55))]
        let sightings = BagFinder().find(in: scene.render(seed: 3), board: board)
        XCTAssertEqual(sightings.filter { $0.place == .onGround }.count, 1, "\(sightings)")
        XCTAssertEqual(sightings.count, 1)
    }

    /// An olive bag on grey ground beside a yellow board is that board's paint in shade by its
    /// colour. The board's faces show only by it (past its ends a little, below its top down to
    /// its legs' feet), so farther off it is a bag: dev6-0004, -0005 and -0015 never counted the
    /// bags resting on the ground half a board's length past the front end.
    func testABagOfTheBoardsPaintInShadeAwayFromTheBoardIsFound() throws {
        var (scene, board, bagSide) = try sideView(board: (236, 200, 70), ground: (120, 112, 100))
        let olive: (Double, Double, Double) = (120, 120, 40)
        // Past the left end (the drawn side views lie right of the middle).
        let end = scene.corners[3]
        scene.groundBags = [(PlanePoint(end.x - 0.45 * scene.lengthPixels, end.y + 0.5 * bagSide), bagSide, olive)]
        let picture = scene.render(seed: 3)
        let sightings = BagFinder().find(in: picture, board: board)
        XCTAssertEqual(sightings.filter { $0.place == .onGround }.count, 1, "\(sightings)")
        XCTAssertEqual(sightings.count, 1)
        // The case: where the board's faces could show, the bag passes for its paint in shade.
        var facesEverywhere = BagFinder()
        facesEverywhere.faceReachPastEnds = 1
        XCTAssertEqual(facesEverywhere.find(in: picture, board: board).count, 0)
    }

    /// A side view's near rail is the top's paint in shade; where the lit top is clipped at the
    /// picture's white its hue reads off the paint's, and the rail lay too far from it for a
    /// shade (held14-0014, this frame at the worker's 1280×720: a yellow top at gain 1.13 reads
    /// (255, 246, 85), its rail (221, 186, 63), 30 off in chroma; stretches of it were counted
    /// as bags on the ground all game). Below the near side, the rail's paint is taken wider.
    /// The two olive bags lying on the ground in front of the board are still found.
    func testTheRailBelowAClippedTopIsNoBag() throws {
        let picture = try DetectionTestSupport.fixture("side-view-1280-yellow-top-clipped-rail.png")
        let board = try XCTUnwrap(BoardDetector().detect(in: picture))
        let sightings = BagFinder().find(in: picture, board: board)
        XCTAssertEqual(sightings.count, 2, "\(sightings)")
        for s in sightings {
            XCTAssertEqual(s.place, .onGround)
            XCTAssertLessThan(s.center.x, board.corners.map(\.x).min() ?? 0, "in front of the board: \(s)")
        }
        // The case: with the rail taken as narrowly as any face, a stretch of it is a bag.
        var narrowRail = BagFinder()
        narrowRail.railChromaTolerance = 0.6 * narrowRail.colourThreshold
        XCTAssertGreaterThan(narrowRail.find(in: picture, board: board).count, 2)
    }

    /// held18-0008 (960×540, this crop of a frame after throw 8): five yellow bags lie touching
    /// on the ground behind the board's back end, one blob of about seven bag areas, more than
    /// any ground blob was allowed (`maxBagsPerGroundBlob`); it was dropped, and throw 8's bag,
    /// slid off the back end to join it, was taken to have gone into the hole. A blob that low
    /// lying wholly inside the region looked at is bags; one bag more lies in front of the board.
    func testBagsLyingFlatTogetherOnTheGroundAreBags() throws {
        let picture = try DetectionTestSupport.fixture("side-view-960-bags-flat-on-ground-behind-back-end.png")
        let board = try XCTUnwrap(BoardDetector().detect(in: picture))
        func onGround(_ finder: BagFinder) -> [BagSighting] { finder.find(in: picture, board: board).filter { $0.place == .onGround } }
        let found = onGround(BagFinder())
        print("ground blobs: \(found.map(\.count)) at \(found.map(\.center))")
        let backEnd = board.corners.map(\.x).max() ?? 0
        let behind = found.filter { $0.center.x > backEnd }
        XCTAssertEqual(behind.count, 1, "one blob behind the back end: \(found)")
        XCTAssertGreaterThanOrEqual(behind.first?.count ?? 0, 5)
        XCTAssertEqual(found.count, 2, "and the bag in front")
        var noPiles = BagFinder()
        noPiles.flatGroundPileRows = 0
        XCTAssertTrue(onGround(noPiles).allSatisfy { $0.center.x < backEnd }, "the case: the pile dropped")
    }

    /// On a plain ground a bag need not lie as far from the ground's colour as on a textured one:
    /// the synthetic games' grounds come through the codec with nine in ten pixels within 1–5 of
    /// their colour, and a small bag blurs towards it (at 640×360 an olive bag on grass lay 20–31
    /// from the grass). On a ground as noisy as a photograph's the full threshold stands.
    func testABagNearTheGroundsColourIsFoundOnAPlainGroundOnly() throws {
        var (scene, board, bagSide) = try sideView(board: (120, 138, 170), ground: (80, 120, 60), noise: 1)
        let end = scene.corners[2]
        // 41 `ColourFeature` units from the grass: under `colourThreshold`, over a plain ground's.
        scene.groundBags = [(PlanePoint(end.x + 1.5 * bagSide, end.y + 0.5 * bagSide), bagSide, (108, 116, 48))]
        let plain = BagFinder().find(in: scene.render(seed: 3), board: board)
        XCTAssertEqual(plain.filter { $0.place == .onGround }.count, 1, "\(plain)")
        XCTAssertEqual(plain.count, 1)
        scene.noise = 6
        let textured = BagFinder().find(in: scene.render(seed: 3), board: board)
        XCTAssertEqual(textured.count, 0, "\(textured)")
    }

    /// A bag darker than a plain ground, of a hue of its own, is a bag even under the ground
    /// threshold (a small olive bag blurs into grey ground at 640×360); the ground in shade (a
    /// person's shadow), as far from the ground's colour, keeps its hue and is none.
    func testADarkBagOfItsOwnHueIsFoundAndTheGroundsShadeIsNot() throws {
        var (scene, board, bagSide) = try sideView(board: (236, 200, 70), ground: (139, 128, 109), noise: 1)
        let end = scene.corners[3]
        let spot = PlanePoint(end.x - 0.45 * scene.lengthPixels, end.y + 0.5 * bagSide)
        // 27 `ColourFeature` units from the ground, under its threshold of 30; 0.8 of its brightness.
        scene.groundBags = [(spot, bagSide, (118, 112, 70))]
        let bag = scene.render(seed: 3)
        XCTAssertEqual(BagFinder().find(in: bag, board: board).filter { $0.place == .onGround }.count, 1)
        var thresholdOnly = BagFinder()
        thresholdOnly.faintShare = 1
        XCTAssertEqual(thresholdOnly.find(in: bag, board: board).count, 0, "the case: under the threshold")
        // The ground at 0.65 of its brightness: 21 units off, more than the bag's faint share.
        scene.groundBags = [(spot, 1.5 * bagSide, (90, 83, 71))]
        XCTAssertEqual(BagFinder().find(in: scene.render(seed: 3), board: board).count, 0)
    }

    /// A bag resting at an end of the top stands up from it, so its centre shows just past the
    /// end's slanting edge, and half a bag lower it would be past the front edge: still on the
    /// board (dev3-0005's first bag was counted on the ground, and so was every rest state after).
    func testABagAtTheSlantedEndOfTheTopIsOnTheBoard() throws {
        var scene = BoardScene.sideView(seed: 2)
        // A steep end: the left end's edge runs a bag's length to the left from back to front.
        let depth = scene.corners[3].y - scene.corners[0].y
        scene.corners[0].x = scene.corners[3].x + depth
        let board = try XCTUnwrap(BoardDetector().detect(in: scene.render(seed: 2)))
        let bag = BoardGeometry.bagSide / board.metresPerPixel
        // The detected top's left end (back T, front B) and front edge (B to F).
        let byX = board.corners.sorted { $0.x < $1.x }
        let (t, b) = byX[0].y < byX[1].y ? (byX[0], byX[1]) : (byX[1], byX[0])
        let f = byX[2].y > byX[3].y ? byX[2] : byX[3]
        // Where the bag touches the top: 2 px above the front edge, 1.5 px in from the end.
        let k = 2.0 / (b.y - t.y)
        let onEdge = PlanePoint(b.x + (t.x - b.x) * k, b.y + (t.y - b.y) * k)
        let touch = PlanePoint(onEdge.x + 1.5, onEdge.y + (f.y - b.y) / (f.x - b.x) * 1.5)
        // Its centre, drawn a little above.
        let centre = PlanePoint(touch.x, touch.y - 0.15 * bag)
        XCTAssertFalse(polygonContains(board.corners, centre))
        XCTAssertFalse(polygonContains(board.corners, PlanePoint(centre.x, centre.y + 0.4 * bag)))
        XCTAssertTrue(polygonContains(board.corners, touch))
        scene.groundBags = [(centre, bag, (240, 220, 20))]
        let sightings = BagFinder().find(in: scene.render(seed: 3), board: board)
        XCTAssertEqual(sightings.map(\.place), [.onBoard], "\(sightings)")
    }

    /// A navy bag lying across the hole's mouth in a side view is seen whole: the hole's pixels
    /// are left out of the mask (the dark hole and its rim are no bag), but where a colour that is
    /// no blend of the paint and black lies over them, they belong to the bag around them
    /// (dev-stack-0013: cut by the hole, such a bag was too small to count). The bare hole is
    /// still no bag.
    func testABagAcrossTheHoleIsSeenWhole() throws {
        var scene = BoardScene.sideView(seed: 2)
        let board = try XCTUnwrap(BoardDetector().detect(in: scene.render(seed: 2)))
        XCTAssertEqual(BagFinder().find(in: scene.render(seed: 3), board: board).count, 0)
        let navy = (20.0, 30.0, 110.0)
        scene.boardBags = [(0.8, 0.0, navy)]
        let away = try XCTUnwrap(BagFinder().find(in: scene.render(seed: 3), board: board).first)
        scene.boardBags = [(BoardGeometry.holeFromBack, 0.0, navy)]
        let sightings = BagFinder().find(in: scene.render(seed: 3), board: board)
        XCTAssertEqual(sightings.map(\.place), [.onBoard], "\(sightings)")
        let across = try XCTUnwrap(sightings.first)
        XCTAssertEqual(across.area, away.area, accuracy: 0.1 * away.area)
        XCTAssertEqual(across.count, 1)
    }

    /// The board of a side view, found on the picture without bags, and the bags `BagFinder`
    /// sees when blue bags lie along the middle of its top at the given positions.
    private func blueBagsAlongTheTop(from start: Double, through end: Double, by step: Double) throws
        -> (board: BoardDetection, sightings: [BagSighting]) {
        var scene = BoardScene.sideView(seed: 2)
        let board = try XCTUnwrap(BoardDetector().detect(in: scene.render(seed: 2)))
        scene.boardBags = stride(from: start, through: end, by: step).map { ($0, 0.0, (30, 40, 200)) }
        return (board, BagFinder().find(in: scene.render(seed: 3), board: board))
    }

    /// Seven bags touching along the top make one blob of several bags' area: still bags (dev
    /// 3001: such a blob was taken for something else, and the census said every bag had gone).
    /// So do seven lying flat in a row on the ground (held18-0008); a blob that large standing
    /// taller than two bag sides there (a person's legs) is not taken for bags.
    func testALongPileOnTheTopIsBags() throws {
        let (board, sightings) = try blueBagsAlongTheTop(from: 0.40, through: 1.13, by: 0.12)
        let onBoard = sightings.filter { $0.place == .onBoard }
        XCTAssertEqual(onBoard.count, 1, "one blob: \(sightings)")
        XCTAssertGreaterThanOrEqual(onBoard.map(\.count).reduce(0, +), 5, "\(sightings)")

        var ground = BoardScene.sideView(seed: 2)
        let bagSide = ground.bagSidePixels
        let below = ground.corners[3].y + 2.5 * bagSide
        ground.groundBags = (0..<7).map { i in (PlanePoint(ground.corners[3].x + Double(i) * 0.8 * bagSide, below), bagSide, (30, 40, 200)) }
        let flat = BagFinder().find(in: ground.render(seed: 3), board: board)
        XCTAssertEqual(flat.count, 1, "a row of bags flat on the ground: \(flat)")
        XCTAssertGreaterThanOrEqual(flat.first?.count ?? 0, 5, "\(flat)")

        let left = ground.corners[3].x - 2 * bagSide
        ground.groundBags = (0..<7).map { i in (PlanePoint(left, ground.corners[3].y + (1 + Double(i) * 0.55) * bagSide), bagSide, (30, 40, 200)) }
        let standing = ground.render(seed: 3)
        let tall = BagFinder().find(in: standing, board: board)
        XCTAssertTrue(tall.isEmpty, "a blob of seven bags' size standing off the top is something else: \(tall)")
        var anyHeight = BagFinder()
        anyHeight.flatGroundPileRows = 100
        XCTAssertEqual(anyHeight.find(in: standing, board: board).count, 1, "the case: dropped for its height alone")
    }

    /// A game's bags in one pile along the top, blurred larger than they are: still one blob of
    /// bags (dev3-0005: eight bags in a 1280×720 pile made a blob of more than 8.5 bags' area,
    /// which was dropped, and the census moved every bag of the pile into the hole at once).
    func testAPileOfMoreThanEightBagsAreasOnTheTopIsBags() throws {
        let (_, sightings) = try blueBagsAlongTheTop(from: 0.06, through: 1.17, by: 0.11)
        let onBoard = sightings.filter { $0.place == .onBoard }
        XCTAssertEqual(onBoard.count, 1, "one blob: \(sightings)")
        XCTAssertEqual(onBoard.first?.count, BagFinder().maxBagsPerBlob, "\(sightings)")
    }

    /// A pile along the top larger than `maxBagsPerBlob` blurred bags is still bags on the board,
    /// as many as a blob may hold (dev4-0016: six yellow bags and two olive ones along a 640×360
    /// top, through the codec, made one blob of 19 bag areas; it was dropped, and the census said
    /// every bag had gone into the hole or been picked up). Drawn here without blur, so the blur
    /// allowance is taken away to make the same pile too large. Something as large that reaches
    /// well above and below the top (a person in front of the board) is not bags.
    func testAPileLargerThanAnyBlobOfBagsIsBagsWhileItLiesOnTheTop() throws {
        var finder = BagFinder()
        finder.blurGrowth = 1
        var scene = BoardScene.sideView(seed: 2)
        let board = try XCTUnwrap(BoardDetector().detect(in: scene.render(seed: 2)))
        scene.boardBags = stride(from: 0.06, through: 1.17, by: 0.11).map { ($0, 0.0, (30, 40, 200)) }
        let onBoard = finder.find(in: scene.render(seed: 3), board: board).filter { $0.place == .onBoard }
        XCTAssertEqual(onBoard.count, 1, "one blob: \(onBoard)")
        let pile = try XCTUnwrap(onBoard.first)
        XCTAssertGreaterThan(pile.area, (Double(finder.maxBagsPerBlob) * finder.blurGrowth + 0.5) * pile.singleBagArea,
                             "larger than the largest blob of bags")
        XCTAssertEqual(pile.count, finder.maxBagsPerBlob)

        var front = BoardScene.sideView(seed: 2)
        let bagSide = front.bagSidePixels
        let middle = front.plane.point(along: BoardGeometry.length / 2, across: 0)
        front.groundBags = (-3...3).map { k in (PlanePoint(middle.x, middle.y + Double(k) * bagSide), 1.5 * bagSide, (30, 40, 200)) }
        let inFront = finder.find(in: front.render(seed: 3), board: board)
        XCTAssertTrue(inFront.filter { $0.place == .onBoard }.isEmpty, "no bags: \(inFront)")
    }

    /// Bags covering most of the top: its paint is still the colour the board was found with.
    func testATopMostlyCoveredByBagsKeepsItsPaintColour() {
        let yellow = RGBColour(r: 200, g: 170, b: 60)
        let paint = ColourFeature(200, 170, 60), navy = ColourFeature(30, 40, 120)
        let finder = BagFinder()
        let covered = Array(repeating: navy, count: 60) + Array(repeating: paint, count: 40)
        let top = finder.topPaint(covered, found: yellow)
        XCTAssertLessThan(top.distance(to: paint), 1, "the paint, not the bags: \(top)")
        // A board found in another light (its colour far from every sample) falls back on them all.
        let relit = finder.topPaint(Array(repeating: paint, count: 40) + Array(repeating: navy, count: 60),
                                    found: RGBColour(r: 0, g: 200, b: 0))
        XCTAssertLessThan(relit.distance(to: navy), 1)
    }

    /// A resting bag whose pixels change shade in place, with nothing new in view, is reported as
    /// re-shaded (a same-coloured bag on it, or one into the hole beside it), not as a new bag.
    /// After a bag crossed the hole's mouth it may be the one that went in: no bag is counted.
    func testBagReshadedInPlaceIsReportedAsSuch() throws {
        let (scene, board) = try sceneWithOneBag()
        let (_, bagSide) = try boardAndBagSide(of: scene)
        var passing = scene
        passing.groundBags = [(PlanePoint(board.hole.center.x - 1.0 * bagSide, board.hole.center.y - 1.5 * bagSide), bagSide,
                               (240, 220, 20))]
        let results = restsAroundAReshade(scene, passing: passing, board: board)
        XCTAssertEqual(results.map(\.onBoard), [1, 1])
        let last = try XCTUnwrap(results.last)
        XCTAssertEqual(last.changes.map(\.kind), [.reshaded])
        XCTAssertEqual(last.changes.first?.bagID, results.first?.bags.first?.id)
        XCTAssertEqual(PSBoardCensus(last, header: PSHeader()).changes.first?.kind, .censusChangeReshaded)
    }

    /// The same re-shade after a bag came through the air, none crossing the hole: a bag come
    /// down on the resting one, counted there (held13-0010 at 960×540: a navy bag on a pile of two
    /// olive ones, read as a re-shade, and the census a bag short all game). The change is still
    /// a re-shade of the resting bag: the flight says whether the thrown bag lies there.
    func testBagReshadedAfterABagCameThroughTheAirCountsItThere() throws {
        let (scene, board) = try sceneWithOneBag()
        let results = restsAroundAReshade(scene, passing: Self.withBagPassingOverTheFrontEnd(scene), board: board)
        XCTAssertEqual(results.map(\.onBoard), [1, 2])
        let first = try XCTUnwrap(results.first?.bags.first), last = try XCTUnwrap(results.last)
        XCTAssertEqual(last.changes.map(\.kind), [.reshaded])
        XCTAssertEqual(last.changes.first?.bagID, first.id, "the resting bag re-shaded")
        let come = try XCTUnwrap(last.bags.first { $0.id != first.id })
        XCTAssertEqual(come.place, .onBoard)
        XCTAssertEqual(come.sincePtsUs, last.ptsUs)
        XCTAssertLessThan(come.center.distance(to: first.center), 0.5 * scene.bagSidePixels, "lying on the resting bag")
    }

    /// ... but not within a bag and a half of the hole: there a re-shade after a bag came through
    /// the air is as often that bag gone in beside the resting one, its crossing unseen
    /// (held10-0018 and held13-0018 at 640×360: counted, a bag too many all game).
    func testBagReshadedBesideTheHoleCountsNoBagOnIt() throws {
        var scene = BoardScene.sideView(seed: 2)
        let board = try XCTUnwrap(BoardDetector().detect(in: scene.render(seed: 2)))
        scene.boardBags = [(BoardGeometry.holeFromBack + 0.16, 0.0, (30, 40, 200))]
        let results = restsAroundAReshade(scene, passing: Self.withBagPassingOverTheFrontEnd(scene), board: board)
        let resting = try XCTUnwrap(results.first?.bags.first)
        let bagSide = BoardGeometry.bagSide / board.metresPerPixel
        XCTAssertLessThan(resting.center.distance(to: board.hole.center), BagCensus().besideHole * bagSide, "the case: beside the hole")
        XCTAssertEqual(results.map(\.onBoard), [1, 1])
        XCTAssertEqual(results.last?.changes.map(\.kind), [.reshaded])
    }

    /// A fresh census's rest states through `scene` (its one board bag at rest), `passing` for
    /// two frames, and `scene` with that bag's shade changed in place.
    private func restsAroundAReshade(_ scene: BoardScene, passing: BoardScene, board: BoardDetection) -> [CensusResult] {
        var relit = scene
        relit.boardBags[0].2 = (60, 75, 255)
        var census = BagCensus()
        var seq: UInt64 = 0
        var results = rest(&census, [scene.render(seed: 3)], board: board, seq: &seq)
        XCTAssertTrue(rest(&census, [passing.render(seed: 6)], board: board, seq: &seq, frames: 2).isEmpty, "no rest while it passes")
        results += rest(&census, [relit.render(seed: 4)], board: board, seq: &seq)
        return results
    }

    /// `scene` with a yellow bag in the air over the board's front end, far from the hole:
    /// something passing through the view between two rest states.
    private static func withBagPassingOverTheFrontEnd(_ scene: BoardScene) -> BoardScene {
        let bagSide = scene.bagSidePixels
        let front = scene.plane.point(along: BoardGeometry.length - 0.1, across: 0)
        var passing = scene
        passing.groundBags = [(PlanePoint(front.x, front.y - 2 * bagSide), bagSide, (240, 220, 20))]
        return passing
    }

    /// A fresh census through an empty scene, a bag passing, the scene with the bag `seen` at
    /// rest, a bag passing again, and `after`: the rest states of the empty scene, of the bag's
    /// arrival and of `after`.
    private func arriveThenRest(empty: ImageBuffer, passing: ImageBuffer, seen: ImageBuffer, after: ImageBuffer,
                                board: BoardDetection) throws -> (first: CensusResult, arrived: CensusResult, next: CensusResult) {
        var census = BagCensus()
        var seq: UInt64 = 0
        let results = rest(&census, [empty], board: board, seq: &seq)
        XCTAssertEqual(results.count, 1, "one rest state for the empty scene")
        let first = try XCTUnwrap(results.first)
        _ = rest(&census, [passing], board: board, seq: &seq, frames: 2)
        let arrived = try XCTUnwrap(rest(&census, [seen], board: board, seq: &seq).last)
        _ = rest(&census, [passing], board: board, seq: &seq, frames: 2)
        let next = try XCTUnwrap(rest(&census, [after], board: board, seq: &seq).last)
        return (first, arrived, next)
    }

    /// The rest state after a bag went into the hole unseen: one more there, inferred.
    private func assertWentIn(_ after: CensusResult, from first: CensusResult, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(after.inHole, first.inHole + 1, "\(after)", file: file, line: line)
        XCTAssertTrue(after.changes.contains { $0.kind == .newBag && $0.place == .inHole && $0.inferred }, file: file, line: line)
    }

    /// The frames of one fixture series, `NAME-STEP.png` for each step, in order.
    private func fixtureSeries(_ name: String, _ steps: [String]) throws -> [ImageBuffer] {
        try steps.map { try DetectionTestSupport.fixture("\(name)-\($0).png") }
    }

    /// Feeds each picture for long enough to be a rest state; the results.
    private func rest(_ census: inout BagCensus, _ images: [ImageBuffer], board: BoardDetection, seq: inout UInt64,
                      frames: Int? = nil) -> [CensusResult] {
        var out: [CensusResult] = []
        for image in images {
            for _ in 0..<(frames ?? census.settleFrames + 4) {
                if let r = census.process(frame: VideoFrame(seq: seq, ptsUs: Int64(seq) * 33_333, image: image), board: board, stable: true) {
                    out.append(r)
                }
                seq += 1
            }
        }
        return out
    }

    /// The camera moved and the picture around the board was matched again (or it crept): the
    /// board and the bags at rest moved in the picture. Followed, the census keeps
    /// its bags and their identities, and the scene stays at rest; started again, it reported
    /// every one as new.
    func testBagsAtRestFollowThePictureWhenItMoves() throws {
        var (scene, board) = try sceneWithOneBag()
        let bagSide = scene.bagSidePixels
        scene.groundBags = [(PlanePoint(scene.corners[3].x - 1.2 * bagSide, scene.corners[3].y + 0.8 * bagSide), bagSide, (240, 220, 20))]
        let before = scene.render(seed: 3)
        var census = BagCensus()
        var seq: UInt64 = 0
        let first = try XCTUnwrap(rest(&census, [before], board: board, seq: &seq).last)
        XCTAssertEqual(first.changes.map(\.kind), [.newBag, .newBag])
        // After a real move the picture is matched farther away than a creep's pixel or two.
        let (dx, dy) = (Int((1.5 * bagSide).rounded()), -2)
        let moved = BoardRelocatorTests.shifted(before, dx: dx, dy: dy, seed: 9)
        let movedBoard = board.translated(dx: Double(dx), dy: Double(dy))

        var followed = census
        followed.follow(dx: Double(dx), dy: Double(dy))
        let after = rest(&followed, [moved], board: movedBoard, seq: &seq)
        XCTAssertTrue(after.isEmpty, "still at rest, nothing to report: \(after.map(\.changes))")
        XCTAssertEqual(followed.bags.map(\.id), first.bags.map(\.id), "the same bags")
        for (a, b) in zip(followed.bags, first.bags) {
            XCTAssertEqual(a.center.x, b.center.x + Double(dx), accuracy: 0.25 * bagSide)
            XCTAssertEqual(a.center.y, b.center.y + Double(dy), accuracy: 0.25 * bagSide)
        }

        // The next bag to come to rest is the one new bag.
        var withAnother = scene
        withAnother.boardBags.append((0.35, 0.0, (200, 40, 40)))
        let next = rest(&followed, [BoardRelocatorTests.shifted(withAnother.render(seed: 4), dx: dx, dy: dy, seed: 10)], board: movedBoard, seq: &seq)
        XCTAssertEqual(next.last?.changes.map(\.kind), [.newBag])
        XCTAssertEqual(next.last?.onBoard, 2)
        XCTAssertEqual(next.last?.onGround, 1)

        var restarted = census
        restarted.reset()
        let again = rest(&restarted, [moved], board: movedBoard, seq: &seq)
        XCTAssertEqual(again.last?.changes.map(\.kind), [.newBag, .newBag], "started again, every bag reads as new")
    }

    /// A bag of the same colour that comes to rest against one already on the board makes one
    /// blob with it: the pixels that changed between the two rest states count it, whatever
    /// the blob's area says.
    func testSameColourBagAgainstAnotherIsCountedByWhatChanged() throws {
        var (scene, board) = try sceneWithOneBag()
        let blue = scene.boardBags[0].2
        let one = scene.render(seed: 3)
        // The second bag overlaps the first by a third of its side.
        scene.boardBags.append((0.8 - 0.66 * BoardGeometry.bagSide, 0.0, blue))
        let two = scene.render(seed: 4)
        var census = BagCensus()
        var seq: UInt64 = 0
        var results = rest(&census, [one], board: board, seq: &seq)
        // Thrown: seen in flight on its way.
        _ = rest(&census, [Self.withBagPassingOverTheFrontEnd(scene).render(seed: 8)], board: board, seq: &seq, frames: 2)
        results += rest(&census, [two], board: board, seq: &seq)
        XCTAssertEqual(results.map(\.onBoard), [1, 2])
        XCTAssertEqual(results.last?.changes.map(\.kind), [.newBag])
        XCTAssertEqual(results.last?.changes.map(\.place), [.onBoard])
        // The same scene again, with fresh noise: no change.
        XCTAssertTrue(rest(&census, [scene.render(seed: 5)], board: board, seq: &seq).isEmpty)
    }

    /// A bag of a resting bag's colour shows on it beside the hole for a rest state, a little
    /// only (it paused on the hole's lip, sinking in), then is gone with nothing else seen
    /// arriving: its pixels are back as they were before it came. What it leaves going, a sliver
    /// of new pixels and some re-shading, is too small for a patch of either kind, so the blob
    /// did not shrink; it went in all the same (dev-stack-0016 throw 8, dev5-0016 throw 3: each
    /// counted on the board).
    func testABagThatShowedBesideTheHoleAndIsGoneAgainWentIn() throws {
        var scene = BoardScene.sideView(seed: 2)
        let (board, bagSide) = try boardAndBagSide(of: scene)
        let navy = (20.0, 30.0, 110.0), navyReshaded = (60.0, 70.0, 170.0)
        let along = BoardGeometry.holeFromBack + 0.2
        scene.boardBags = [(along, 0.0, navy)]
        let resting = scene.plane.point(along: along, across: 0)
        XCTAssertLessThan(resting.distance(to: board.hole.center), 1.5 * bagSide, "beside the hole")
        // On top of the resting bag: a sliver of new pixels above it and a re-shaded piece of it
        // below the sliver, each short of a patch (`RestStateDifference.minimumShare`).
        var paused = scene
        let top = resting.y - 0.45 * bagSide
        paused.groundBags = [(PlanePoint(resting.x, top - 0.1 * bagSide), 0.45 * bagSide, navy),
                             (PlanePoint(resting.x, top + 0.1 * bagSide), 0.45 * bagSide, navyReshaded)]
        // The same blob stirring (the bag sinking in), and a bag in the air far from it (a throw).
        var sinking = scene
        sinking.groundBags = [(PlanePoint(resting.x, top), bagSide, navy)]
        let passing = Self.withBagPassingOverTheFrontEnd(scene)
        func showThenGo(_ census: inout BagCensus, between stir: BoardScene) throws -> (shown: CensusResult, gone: CensusResult?) {
            var seq: UInt64 = 0
            _ = rest(&census, [scene.render(seed: 3)], board: board, seq: &seq)
            _ = rest(&census, [passing.render(seed: 4)], board: board, seq: &seq, frames: 2)
            let shown = try XCTUnwrap(rest(&census, [paused.render(seed: 5)], board: board, seq: &seq).last)
            _ = rest(&census, [stir.render(seed: 6)], board: board, seq: &seq, frames: 2)
            return (shown, rest(&census, [scene.render(seed: 7)], board: board, seq: &seq).last)
        }
        var census = BagCensus()
        let (shown, gone) = try showThenGo(&census, between: sinking)
        XCTAssertEqual(shown.onBoard, 2, "the bag on the resting one is seen: \(shown.changes)")
        let newBag = try XCTUnwrap(shown.changes.first { $0.kind == .newBag }).bagID
        let after = try XCTUnwrap(gone)
        XCTAssertEqual(after.changes.map(\.kind), [.knockedIn])
        XCTAssertEqual(after.changes.first?.bagID, newBag)
        XCTAssertEqual(after.onBoard, 1)
        XCTAssertEqual(after.inHole, shown.inHole + 1)

        // With a bag seen arriving in between (another throw, which stirs the blobs it comes
        // down by), the pixels alone do not say it left: it stays (held-0003 throw 5).
        var withThrow = BagCensus()
        let (_, afterThrow) = try showThenGo(&withThrow, between: passing)
        XCTAssertFalse(afterThrow?.changes.contains { $0.kind == .knockedIn } ?? false)
        XCTAssertEqual(withThrow.bags.filter { $0.place == .onBoard }.count, 2)
    }

    /// The one-bag side view on a blue-grey top over grass with little noise, its board, a bag's
    /// side in pixels, and a spot on the ground a bag and a half past the front end.
    private func grassSceneWithOneBagAndAGroundSpot() throws
        -> (scene: BoardScene, board: BoardDetection, bagSide: Double, place: PlanePoint) {
        var (scene, _) = try sceneWithOneBag()
        scene.boardColour = (120, 138, 170)
        scene.groundColour = (80, 120, 60)
        scene.noise = 1
        let board = try XCTUnwrap(BoardDetector().detect(in: scene.render(seed: 2)))
        let bagSide = scene.bagSidePixels
        let end = scene.corners[2]
        return (scene, board, bagSide, PlanePoint(end.x + 1.5 * bagSide, end.y + 0.5 * bagSide))
    }

    /// A bag can come to rest unseen at first: at 640×360, half hidden behind the board's end or
    /// smeared by the codec, it falls just short of a bag's colour, and once seen at a later rest
    /// state none of its pixels changed since: it was read as no bag at all (dev3-0002 throw 6,
    /// dev3-0003 throw 2: navy bags behind the back end, scored in the hole). Its pixels changed
    /// since the rest state before: a new bag. One that lay there unseen for longer is none.
    func testABagFirstSeenAtTheRestStateAfterItCameToRestIsNew() throws {
        let (scene, board, bagSide, place) = try grassSceneWithOneBagAndAGroundSpot()
        // Olive: 22 and 38 `ColourFeature` units from the grass (a plain ground's threshold is 30),
        // 16 from each other (a change is 24).
        var faint = scene, seen = scene
        faint.groundBags = [(place, bagSide, (95, 118, 53))]
        seen.groundBags = [(place, bagSide, (107, 116, 49))]
        XCTAssertEqual(BagFinder().find(in: faint.render(seed: 3), board: board).filter { $0.place == .onGround }.count, 0)
        XCTAssertEqual(BagFinder().find(in: seen.render(seed: 3), board: board).filter { $0.place == .onGround }.count, 1)
        let passing = Self.withBagPassingOverTheFrontEnd(scene)

        var census = BagCensus()
        var seq: UInt64 = 0
        XCTAssertEqual(rest(&census, [scene.render(seed: 3)], board: board, seq: &seq).map(\.onBoard), [1])
        XCTAssertTrue(rest(&census, [passing.render(seed: 4)], board: board, seq: &seq, frames: 2).isEmpty)
        let unseen = rest(&census, [faint.render(seed: 5)], board: board, seq: &seq)
        XCTAssertEqual(unseen.map(\.changes), [[]])
        let late = try XCTUnwrap(rest(&census, [seen.render(seed: 6)], board: board, seq: &seq).last)
        XCTAssertEqual(late.changes.map(\.kind), [.newBag])
        XCTAssertEqual(late.changes.map(\.place), [.onGround])
        XCTAssertEqual(late.onGround, 1)

        // The same bag unseen since two rest states back, after a bag came (one on the top,
        // seen arriving): no new bag when it shows.
        var arrivedOnTop = faint
        arrivedOnTop.boardBags.append((0.5, 0.0, (200, 40, 30)))
        var old = BagCensus()
        seq = 0
        XCTAssertEqual(rest(&old, [faint.render(seed: 3)], board: board, seq: &seq).map(\.onBoard), [1])
        _ = rest(&old, [passing.render(seed: 4)], board: board, seq: &seq, frames: 2)
        XCTAssertEqual(rest(&old, [arrivedOnTop.render(seed: 5)], board: board, seq: &seq).map { $0.changes.map(\.kind) }, [[.newBag]])
        var seenWithIt = seen
        seenWithIt.boardBags = arrivedOnTop.boardBags
        let shown = try XCTUnwrap(rest(&old, [seenWithIt.render(seed: 6)], board: board, seq: &seq).last)
        XCTAssertEqual(shown.changes, [])
        XCTAssertEqual(shown.onGround, 0)

        // Before any bag has come, it lay there from the start: counted once seen (held3-0010:
        // an olive bag on a tan top made no blob at the first two rest states).
        var start = BagCensus()
        seq = 0
        XCTAssertEqual(rest(&start, [faint.render(seed: 3)], board: board, seq: &seq).map(\.onGround), [0])
        _ = rest(&start, [passing.render(seed: 4)], board: board, seq: &seq, frames: 2)
        XCTAssertEqual(rest(&start, [faint.render(seed: 5)], board: board, seq: &seq).map(\.changes), [[]])
        let fromTheStart = try XCTUnwrap(rest(&start, [seen.render(seed: 6)], board: board, seq: &seq).last)
        XCTAssertEqual(fromTheStart.changes.map(\.kind), [.newBag])
        XCTAssertEqual(fromTheStart.onGround, 1)
    }

    /// A bag that comes to rest against one of its own colour can sharpen with the codec over
    /// half a second, a few pixels at a time: no two rest states differ by a patch, and the blob
    /// it joined only grows (held18-0011 throw 6 at 960×540 and 60 fps: never counted). After an
    /// arrival whose rest state found nothing, the next rest states within
    /// `catchUpMicroseconds`, nothing come since, look for the bag against the pixels from before
    /// it came. Without the arrival the same slow change is no bag.
    func testABagSharpeningBesideOneOfItsColourAfterItsRestStateIsCounted() throws {
        var scene = BoardScene.sideView(seed: 2)
        scene.boardColour = (205, 165, 112)
        scene.noise = 1
        let board = try XCTUnwrap(BoardDetector().detect(in: scene.render(seed: 2)))
        let yellow = (240.0, 200.0, 30.0)
        scene.boardBags = [(0.8, 0.0, yellow)]
        /// The new bag against the resting one, `share` of the way from the top's paint to yellow.
        func sharpening(_ share: Double) -> ImageBuffer {
            var s = scene
            let c = s.boardColour
            s.boardBags.append((0.8 + 0.8 * BoardGeometry.bagSide, 0.0, (c.0 + share * (yellow.0 - c.0), c.1 + share * (yellow.1 - c.1),
                                                                   c.2 + share * (yellow.2 - c.2))))
            return s.render(seed: 10 + UInt64(share * 100))
        }
        let shares = [1.0 / 6, 2.0 / 6, 3.0 / 6, 4.0 / 6, 5.0 / 6, 1.0]
        // The case: one step apart the pictures differ by no patch; at the end the two bags
        // make one blob.
        let pictures = shares.map(sharpening)
        let scans = try pictures.map { try XCTUnwrap(BagFinder().scan(in: $0, board: board)) }
        for (a, b) in zip(scans, scans.dropFirst()) { XCTAssertFalse(RestStateDifference.anyChange(from: a, to: b)) }
        XCTAssertEqual(scans.last?.sightings.filter { $0.place == .onBoard }.count, 1, "one blob of the two")
        let passing = Self.withBagPassingOverTheFrontEnd(scene).render(seed: 4)
        var waver = scene
        waver.groundBags = [(scene.plane.point(along: 0.8, across: 0), 1.6 * scene.bagSidePixels, yellow)]
        let wavering = waver.render(seed: 5)
        let resting = scene.render(seed: 3)
        for arrival in [true, false] {
            var census = BagCensus()
            var seq: UInt64 = 0
            var results: [CensusResult] = []
            // At 60 fps: a rest state every ten frames, the steps within the catch-up's second.
            func feed(_ image: ImageBuffer, frames: Int) {
                for _ in 0..<frames {
                    if let r = census.process(frame: VideoFrame(seq: seq, ptsUs: Int64(seq) * 16_667, image: image), board: board,
                                              stable: true) { results.append(r) }
                    seq += 1
                }
            }
            feed(resting, frames: 12)
            XCTAssertEqual(results.last?.onBoard, 1)
            if arrival { feed(passing, frames: 2) }
            // Between the steps the resting blob wavers for a frame (with the codec), so each step
            // is a rest state of its own, compared with the one before.
            for picture in pictures {
                feed(wavering, frames: 1)
                feed(picture, frames: 11)
            }
            XCTAssertEqual(results.count, 1 + shares.count, "a rest state for each step (the first the arrival's)")
            let newBags = results.dropFirst().filter { $0.changes.contains { $0.kind == .newBag } }
            XCTAssertEqual(newBags.count, arrival ? 1 : 0, arrival ? "the bag that came" : "nothing came")
            if arrival, let counted = newBags.first {
                XCTAssertLessThanOrEqual(counted.ptsUs - results[1].ptsUs, census.catchUpMicroseconds)
            }
            XCTAssertEqual(results.last?.onBoard, arrival ? 2 : 1)
        }
    }

    /// A resting board bag that fades from view (another bag slid over it and the codec smeared
    /// it: its colour nears the top's paint) and sharpens again where it lay is that bag seen
    /// again, under its old identity, not a bag come to rest: whenever it sharpens, if none of its
    /// pixels changed much; soon after, if only a ring of them came back (its core had faded). A
    /// whole bag turning up at once where a removed one lay, or the ring long after, is a new bag.
    func testABagThatFadedAndSharpenedAgainWhereItLayIsSeenAgain() throws {
        var scene = BoardScene.sideView(seed: 2)
        scene.boardColour = (205, 165, 112)
        scene.noise = 1
        let board = try XCTUnwrap(BoardDetector().detect(in: scene.render(seed: 2)))
        let paint = scene.boardColour, yellow = (240.0, 200.0, 30.0), side = scene.bagSidePixels
        /// `share` of the way from the top's paint to yellow.
        func toward(_ share: Double) -> (Double, Double, Double) {
            (paint.0 + share * (yellow.0 - paint.0), paint.1 + share * (yellow.1 - paint.1), paint.2 + share * (yellow.2 - paint.2))
        }
        let empty = scene
        scene.boardBags = [(0.8, 0.0, toward(0.5))]
        var faded = empty
        faded.boardBags = [(0.8, 0.0, toward(0.3))]
        // Its core faded, its rim gone: the rim comes back as one piece about the bag's centre.
        var core = empty
        let spot = scene.plane.point(along: 0.8, across: 0)
        core.groundBags = [(PlanePoint(spot.x, spot.y - 0.15 * side), 0.9 * side, toward(0.3))]
        let pictures = (bag: scene.render(seed: 5), faded: faded.render(seed: 4), core: core.render(seed: 4), empty: empty.render(seed: 4))
        // The case: a faded bag is no blob, and sharpening again changes none of its pixels or a
        // piece smaller than a bag; a bag turning up changes a whole bag's.
        let bagScan = try XCTUnwrap(BagFinder().scan(in: pictures.bag, board: board))
        for picture in [pictures.faded, pictures.core, pictures.empty] {
            let scan = try XCTUnwrap(BagFinder().scan(in: picture, board: board))
            XCTAssertEqual(scan.sightings.count, 0)
            let appeared = try XCTUnwrap(RestStateDifference(from: scan, to: bagScan, arriving: true)).appeared.map(\.area)
            switch picture {
            case pictures.faded: XCTAssertEqual(appeared, [])
            case pictures.core: XCTAssertEqual(appeared.count, 1); XCTAssertLessThan(appeared[0], BagCensus().reseenShare * bagScan.singleBagArea)
            default: XCTAssertEqual(appeared.count, 1); XCTAssertGreaterThan(appeared[0], bagScan.singleBagArea)
            }
        }
        let soon = BagCensus().settleFrames + 4, late = Int(BagCensus().reseenMicroseconds / 33_333) + 1
        for (gone, frames, seenAgain) in [(pictures.faded, soon, true), (pictures.faded, late, true), (pictures.core, soon, true),
                                          (pictures.core, late, false), (pictures.empty, soon, false)] {
            var census = BagCensus()
            var seq: UInt64 = 0
            var results = rest(&census, [scene.render(seed: 3)], board: board, seq: &seq)
            results += rest(&census, [gone], board: board, seq: &seq, frames: frames)
            results += rest(&census, [pictures.bag], board: board, seq: &seq)
            XCTAssertEqual(results.map(\.onBoard), [1, 0, 1])
            XCTAssertEqual(results[1].changes.map(\.kind), [.removed])
            XCTAssertEqual(results[2].changes.map(\.kind), seenAgain ? [.seenAgain] : [.newBag])
            XCTAssertEqual(results[2].bags.first?.id == results[0].bags.first?.id, seenAgain)
        }
    }

    /// A bag lying on the ground from the start that the first rest states could not see (the
    /// codec keeps a small olive bag on grass too faint for a blob until its next key frame),
    /// first seen at the rest state where a throw's bag came to rest well away from it, lay there
    /// all along: counted, after the throw's own new bag (held18-0002 at 640×360: two such bags
    /// never counted). Within a few bags of where the bag came it is as often a piece of that
    /// bag (held2-0018 throw 1): not counted. Some of its pixels were faintly a bag's before; a
    /// blob from nothing (held16-0004: the codec's trace of a bag in flight) is no such bag.
    func testAGroundBagFirstSeenFarFromTheBagThatCameLayThereFromTheStart() throws {
        let (scene, board, bagSide, place) = try grassSceneWithOneBagAndAGroundSpot()
        // An olive bag: faintly a bag's colour (29 from the grass, under the plain ground's
        // threshold of 30, as bright), too faint for a blob; then seen.
        var faint = scene, seen = scene
        faint.groundBags = [(place, bagSide, (100, 118, 50))]
        seen.groundBags = [(place, bagSide, (107, 116, 49))]
        let passing = Self.withBagPassingOverTheFrontEnd(scene).render(seed: 4)
        let faintPicture = faint.render(seed: 3)
        // Its pixels were faintly a bag's before; a blob from nothing holds none of them.
        let seenScan = try XCTUnwrap(BagFinder().scan(in: seen.render(seed: 5), board: board))
        let blob = try XCTUnwrap(seenScan.sightings.first { $0.place == .onGround })
        let before = try XCTUnwrap(BagFinder().scan(in: faintPicture, board: board))
        let empty = try XCTUnwrap(BagFinder().scan(in: scene.render(seed: 3), board: board))
        XCTAssertEqual(before.sightings.filter { $0.place == .onGround }.count, 0, "the case: too faint for a blob")
        XCTAssertGreaterThanOrEqual(try XCTUnwrap(RestStateDifference.heldShare(of: blob, from: before, to: seenScan)),
                                    BagCensus().lyingHeldShare)
        XCTAssertEqual(RestStateDifference.heldShare(of: blob, from: empty, to: seenScan), 0)
        // Far from the bag that came, and near it.
        for (along, counted) in [(0.2, true), (BoardGeometry.length - 0.1, false)] {
            let arrival = (along, 0.0, (200.0, 40.0, 30.0))
            var came = seen
            came.boardBags.append(arrival)
            let distance = scene.plane.point(along: along, across: 0).distance(to: place) / bagSide
            XCTAssertEqual(distance > BagCensus().lyingApartReach, counted, "the case: \(distance) bag sides apart")
            var census = BagCensus()
            var seq: UInt64 = 0
            let first = try XCTUnwrap(rest(&census, [faintPicture], board: board, seq: &seq).last)
            XCTAssertEqual(first.onGround, 0)
            XCTAssertEqual(first.onBoard, 1)
            _ = rest(&census, [passing], board: board, seq: &seq, frames: 2)
            let next = try XCTUnwrap(rest(&census, [came.render(seed: 5)], board: board, seq: &seq).last)
            XCTAssertEqual(next.onBoard, 2, "the throw's bag, at \(along) m")
            XCTAssertEqual(next.onGround, counted ? 1 : 0, "at \(along) m")
            XCTAssertEqual(next.changes.map(\.kind), counted ? [.newBag, .newBag] : [.newBag])
            XCTAssertEqual(next.changes.map(\.place), counted ? [.onBoard, .onGround] : [.onBoard])
        }
    }

    /// held20-0017 (640×360, cropped to 240 × 120 from (40, 160)): a bag flew over the grass
    /// behind the board into the hole, and the codec left a faint trace of its flight there, just
    /// past the plain grass's threshold: counted a bag on the ground at the rest state after the
    /// throw, and kept all game (every rest state one over). Where it lay, the picture hardly
    /// changed when it came nor after: at the next rest state, no longer seen, it is dropped. (A
    /// bag that came changes its box, and is kept while it fades:
    /// `testABagSeenArrivingThatFadesBelowTheThresholdStaysCounted`.)
    func testAFlightsTraceCountedOnTheGroundIsDroppedWhenItFades() throws {
        let pictures = try fixtureSeries("side-view-640-flight-trace", ["1-before", "2-passing", "3-left", "4-gone"])
        let board = try XCTUnwrap(BoardDetector().detect(in: pictures[0]))
        var census = BagCensus()
        var seq: UInt64 = 0
        XCTAssertEqual(rest(&census, [pictures[0]], board: board, seq: &seq).map(\.onGround), [0])
        _ = rest(&census, [pictures[1]], board: board, seq: &seq, frames: 2)
        let left = try XCTUnwrap(rest(&census, [pictures[2]], board: board, seq: &seq).last)
        XCTAssertEqual(left.onGround, 1, "the case: the trace counted")
        let gone = try XCTUnwrap(rest(&census, [pictures[3]], board: board, seq: &seq).last)
        XCTAssertEqual(gone.onGround, 0)
        XCTAssertEqual(gone.changes.map(\.kind), [.removed])
        // Without the rule it stays.
        var keeping = BagCensus()
        keeping.flickerShare = 0
        seq = 0
        _ = rest(&keeping, [pictures[0]], board: board, seq: &seq)
        _ = rest(&keeping, [pictures[1]], board: board, seq: &seq, frames: 2)
        _ = rest(&keeping, [pictures[2]], board: board, seq: &seq)
        XCTAssertEqual(rest(&keeping, [pictures[3]], board: board, seq: &seq).last?.onGround, 1)
    }

    /// A bag that came to rest unseen, first seen at the next rest state (`restedUnseen`), and
    /// unseen again at the one after: from one rest state to the next its box hardly changed, as a
    /// trace's does (`testAFlightsTraceCountedOnTheGroundIsDroppedWhenItFades`), but a few of its
    /// pixels still show a bag's colour, too few for a blob: kept (held20-0008: a pink bag on grey
    /// ground mostly hidden behind the back end, an eighth of its box, was dropped without that
    /// condition).
    func testABagFirstSeenAfterItCameToRestIsKeptWhileItShowsFaintly() throws {
        let (scene, board, bagSide, place) = try grassSceneWithOneBagAndAGroundSpot()
        // Olive, from the grass: 22 (no bag's colour), 38 (a bag's), 16 apart (a change is 24);
        // then 22 but for a corner of a bag's colour, too small for a blob.
        var unseen = scene, seen = scene, faint = scene
        unseen.groundBags = [(place, bagSide, (95, 118, 53))]
        seen.groundBags = [(place, bagSide, (107, 116, 49))]
        faint.groundBags = unseen.groundBags + [(place - PlanePoint(0.25 * bagSide, 0), 0.5 * bagSide, (107, 116, 49))]
        let faintScan = try XCTUnwrap(BagFinder().scan(in: faint.render(seed: 7), board: board))
        XCTAssertEqual(faintScan.sightings.filter { $0.place == .onGround }.count, 0, "the case: no blob")
        let box = PlanePoint(0.5 * bagSide, 0.25 * bagSide)
        XCTAssertGreaterThan(try XCTUnwrap(RestStateDifference.bagColouredShare(from: place - box, to: place + box, in: faintScan)), 0,
                             "the case: some of a bag's colour")
        var census = BagCensus()
        var seq: UInt64 = 0
        _ = rest(&census, [scene.render(seed: 3)], board: board, seq: &seq)
        _ = rest(&census, [Self.withBagPassingOverTheFrontEnd(scene).render(seed: 4)], board: board, seq: &seq, frames: 2)
        let results = rest(&census, [unseen.render(seed: 5), seen.render(seed: 6), faint.render(seed: 7)], board: board, seq: &seq)
        XCTAssertEqual(results.map(\.onGround), [0, 1, 1])
        XCTAssertEqual(results.map { $0.changes.map(\.kind) }, [[], [.newBag], []])
    }

    /// A bag whose colour lies near the threshold against the ground makes a blob that comes and
    /// goes with the codec from one rest state to the next. Seen arriving, then not seen at a
    /// rest state while its pixels hardly changed, it is still there (dev9-0003: a yellow bag on
    /// a tan top at 640×360; dropped, it was never counted again). A bag that leaves changes its
    /// pixels, and is gone. On the ground the same holds for a bag counted at the first rest state
    /// (held15-0010: an olive bag on grass lying there from the start, dropped at 8.5 s while it
    /// lay still). On the top a blob only counted by its area at the first rest state, never seen
    /// arriving, is not kept so: at a corner of the top it can be the paint in shade (dev9-0018).
    func testABagSeenArrivingThatFadesBelowTheThresholdStaysCounted() throws {
        var (scene, board, bagSide) = try sideView(board: (120, 138, 170), ground: (80, 120, 60), noise: 1)
        let end = scene.corners[2]
        let place = PlanePoint(end.x + 1.5 * bagSide, end.y + 0.5 * bagSide)
        let empty = scene.render(seed: 2)
        let passing = Self.withBagPassingOverTheFrontEnd(scene).render(seed: 4)
        // 41 from the grass (`testABagNearTheGroundsColourIsFoundOnAPlainGroundOnly`), then half as far.
        scene.groundBags = [(place, bagSide, (108, 116, 48))]
        let seen = scene.render(seed: 3)
        scene.groundBags = [(place, bagSide, (94, 118, 54))]
        let faded = scene.render(seed: 5)
        scene.groundBags = []
        let gone = scene.render(seed: 5)
        // The case: the faded bag is not found.
        XCTAssertEqual(BagFinder().find(in: seen, board: board).filter { $0.place == .onGround }.count, 1)
        XCTAssertEqual(BagFinder().find(in: faded, board: board).count, 0)
        for (after, expected) in [(faded, 1), (gone, 0)] {
            let (first, arrived, next) = try arriveThenRest(empty: empty, passing: passing, seen: seen, after: after, board: board)
            XCTAssertEqual(first.onGround, 0)
            XCTAssertEqual(arrived.onGround, 1)
            XCTAssertEqual(arrived.changes.map(\.kind), [.newBag])
            XCTAssertEqual(next.onGround, expected, expected == 1 ? "faded: still there" : "gone")
            XCTAssertEqual(next.changes.map(\.kind), expected == 1 ? [] : [.removed])
        }
        // On the ground from the start, counted at the first rest state: kept while it fades,
        // dropped when its pixels go.
        for (after, expected) in [(faded, 1), (gone, 0)] {
            var census = BagCensus()
            var seq: UInt64 = 0
            XCTAssertEqual(rest(&census, [seen], board: board, seq: &seq).map(\.onGround), [1])
            _ = rest(&census, [passing], board: board, seq: &seq, frames: 2)
            let next = try XCTUnwrap(rest(&census, [after], board: board, seq: &seq).last)
            XCTAssertEqual(next.onGround, expected, expected == 1 ? "faded: still there" : "gone")
            XCTAssertEqual(next.changes.map(\.kind), expected == 1 ? [] : [.removed])
        }
        // On the top, away from the hole, a blob counted at the first rest state by its area
        // alone is dropped when no longer seen.
        let onTop = scene.plane.point(along: BoardGeometry.length - 0.25, across: 0)
        scene.groundBags = [(onTop, bagSide, (156, 133, 154))]
        let seenOnTop = scene.render(seed: 3)
        scene.groundBags = [(onTop, bagSide, (145, 134, 159))]
        let fadedOnTop = scene.render(seed: 5)
        XCTAssertEqual(BagFinder().find(in: seenOnTop, board: board).filter { $0.place == .onBoard }.count, 1)
        XCTAssertEqual(BagFinder().find(in: fadedOnTop, board: board).count, 0)
        var census = BagCensus()
        var seq: UInt64 = 0
        XCTAssertEqual(rest(&census, [seenOnTop], board: board, seq: &seq).map(\.onBoard), [1])
        _ = rest(&census, [passing], board: board, seq: &seq, frames: 2)
        let next = try XCTUnwrap(rest(&census, [fadedOnTop], board: board, seq: &seq).last)
        XCTAssertEqual(next.onBoard, 0)
        XCTAssertEqual(next.changes.map(\.kind), [.removed])
    }

    /// An olive bag lying on a yellow top from the start, counted by its area at the first rest
    /// state, then no blob at the next (held18-0001 at 640×360, frames at 2.05 s and 4.65 s): its
    /// box unchanged and a third of it still bag-coloured, it is still there. Removed, it was never
    /// counted again and every rest state of the game was a bag short. Not beside the hole.
    func testABagOnTheTopFromTheStartThatFadesIsKeptWhileItsColourShows() throws {
        let seen = try DetectionTestSupport.fixture("side-view-640-olive-bag-on-top-1-seen.png")
        let faint = try DetectionTestSupport.fixture("side-view-640-olive-bag-on-top-2-faint.png")
        let board = try XCTUnwrap(BoardDetector().detect(in: seen))
        let bag = try XCTUnwrap(BagFinder().find(in: seen, board: board).first { $0.place == .onBoard })
        let faintScan = try XCTUnwrap(BagFinder().scan(in: faint, board: board))
        XCTAssertTrue(faintScan.sightings.filter { $0.place == .onBoard }.isEmpty, "the case: no blob")
        let bagSide = BoardGeometry.bagSide / board.metresPerPixel
        let box = PlanePoint(0.5 * bagSide, 0.25 * bagSide)
        let coloured = try XCTUnwrap(RestStateDifference.bagColouredShare(from: bag.center - box, to: bag.center + box, in: faintScan))
        XCTAssertGreaterThanOrEqual(coloured, BagCensus().faintBoardBagShare, "the case: its colour still shows")
        for (share, expected) in [(BagCensus().faintBoardBagShare, 1), (1.1, 0)] {
            var census = BagCensus()
            census.faintBoardBagShare = share
            var seq: UInt64 = 0
            let results = rest(&census, [seen, faint], board: board, seq: &seq)
            XCTAssertEqual(results.map(\.onBoard), [1, expected], "faintBoardBagShare \(share)")
            XCTAssertEqual(results.last?.changes.map(\.kind), expected == 1 ? [] : [.removed])
        }
        // Beside the hole the rule does not hold: a small top's hole and the paint around it made
        // a blob of 0.44 of a bag at the first rest state (held18-0000 at 640×360, frames at 0.73
        // and 3.47 s), gone at the next with as much of its box still bag-coloured. Kept, it was a
        // bag too many on the board all game; knocked in, one in the hole. Centred on the hole's
        // mouth, it is the hole, and never counted (`BagCensus.isHoleByArea`).
        let hole = try DetectionTestSupport.fixture("side-view-640-hole-seen-as-bag-1-seen.png")
        let holeGone = try DetectionTestSupport.fixture("side-view-640-hole-seen-as-bag-2-gone.png")
        let holeBoard = try XCTUnwrap(BoardDetector().detect(in: hole))
        let blob = try XCTUnwrap(BagFinder().find(in: hole, board: holeBoard).first { $0.place == .onBoard })
        let holeSide = BoardGeometry.bagSide / holeBoard.metresPerPixel
        XCTAssertLessThan(blob.center.distance(to: holeBoard.hole.center), BagCensus().besideHole * holeSide, "the case: at the hole")
        let goneScan = try XCTUnwrap(BagFinder().scan(in: holeGone, board: holeBoard))
        let holeBox = PlanePoint(0.5 * holeSide, 0.25 * holeSide)
        XCTAssertGreaterThanOrEqual(
            try XCTUnwrap(RestStateDifference.bagColouredShare(from: blob.center - holeBox, to: blob.center + holeBox, in: goneScan)),
            BagCensus().faintBoardBagShare, "the case: as much of its box bag-coloured")
        var census = BagCensus()
        var seq: UInt64 = 0
        let results = rest(&census, [hole, holeGone], board: holeBoard, seq: &seq)
        XCTAssertTrue(census.isHoleByArea(blob, board: holeBoard, bagSide: holeSide))
        XCTAssertEqual(results.map(\.onBoard), [0, 0])
        XCTAssertEqual(results.map(\.inHole), [0, 0])
    }

    /// A bag come to rest on a small top sharpens with the codec 0.7 s later, its blob grown in
    /// place (a re-shade), while the top's edge flickers into a blob of a quarter of a bag beside
    /// it (held21-0000 at 640×360, frames at 0.7, 7.9 and 8.33 s). That flicker is no bag come
    /// down on the resting one: one bag on the board, not two.
    func testABagSharpeningWhileTheTopsEdgeFlickersIsOneBag() throws {
        let pictures = try fixtureSeries("side-view-640-bag-sharpening", ["1-empty", "2-landed", "3-sharpened"])
        let board = try XCTUnwrap(BoardDetector().detect(in: pictures[0]))
        let flicker = BagFinder().find(in: pictures[2], board: board).filter { $0.area < 0.5 * $0.singleBagArea }
        XCTAssertEqual(flicker.count, 1, "the case: a blob under half a bag beside the bag")
        for (share, expected) in [(BagCensus().reshadeArrivalShare, 1), (0, 2)] {
            var census = BagCensus()
            census.reshadeArrivalShare = share
            var seq: UInt64 = 0
            let results = rest(&census, pictures, board: board, seq: &seq)
            XCTAssertEqual(results.map(\.onBoard), [0, 1, expected], "reshadeArrivalShare \(share)")
            XCTAssertEqual(results.last?.changes.map(\.kind), [.reshaded])
        }
    }

    /// held33-0016 throw 1 (640×360 at 60 fps, rows 180–279): a yellow bag comes down on a white
    /// top and slides on ever more slowly, too little from frame to frame to stir the census, so
    /// a rest state is taken at frame 438 with the bag's blob a bag's area; 71 frames later, with
    /// nothing come since, the codec has sharpened it by 0.94 of a bag. That is the same bag:
    /// one on the board, not two (every rest state of the game was one over).
    func testABagStillShowingMoreOfItselfSoonAfterItsRestStateIsNoSecondBag() throws {
        let pictures = try fixtureSeries("side-view-640-slow-slide", ["1-empty", "2-passing", "3-still-sliding", "4-sharpened"])
        let board = try XCTUnwrap(BoardDetector().detect(in: pictures[0]))
        for (window, expected) in [(BagCensus().sharpeningMicroseconds, 1), (0, 2)] {
            var census = BagCensus()
            census.sharpeningMicroseconds = window
            var seq: UInt64 = 0
            var results = rest(&census, [pictures[0]], board: board, seq: &seq)
            _ = rest(&census, [pictures[1]], board: board, seq: &seq, frames: 2)
            results += rest(&census, [pictures[2], pictures[3]], board: board, seq: &seq)
            XCTAssertEqual(results.map(\.onBoard), [0, 1, expected], "sharpeningMicroseconds \(window)")
            XCTAssertEqual(results.dropFirst().first?.changes.map(\.kind), [.newBag])
        }
    }

    /// held32-0002 throw 7 (640×360 at 30 fps, rows 180–279): a pink bag comes down on a pile of
    /// pink and navy bags that stretches from the hole along the top. No pixel turns bag-coloured
    /// that was not; the pile re-shades at its end by the hole and again two bag sides from it.
    /// The far re-shade counts the bag there, whichever of the two was found first. (The board
    /// is found at 3.3 s, before any bag came.)
    func testABagOnAPileReachingTheHoleIsCountedByTheReshadeAwayFromTheHole() throws {
        let pictures = try fixtureSeries("side-view-640-pile-to-hole", ["1-resting", "2-in-flight", "3-landing", "4-after"])
        // The board as found before the bags crowded its back end (the camera stands still).
        let board = try XCTUnwrap(BoardDetector().detect(in: DetectionTestSupport.fixture("side-view-640-pile-to-hole-0-empty.png")))
        var census = BagCensus()
        var seq: UInt64 = 0
        let first = try XCTUnwrap(rest(&census, [pictures[0]], board: board, seq: &seq).last)
        _ = rest(&census, [pictures[1], pictures[2]], board: board, seq: &seq, frames: 1)
        let after = try XCTUnwrap(rest(&census, [pictures[3]], board: board, seq: &seq).last)
        XCTAssertEqual(after.changes.map(\.kind), [.reshaded])
        XCTAssertEqual(after.onBoard, first.onBoard + 1, "\(after.bags)")
    }

    /// dev3-0000 throw 8 (640×360 at 30 fps, rows 180–279; frames 1320, 1372, 1374 and 1386): a pink
    /// bag comes down on a pile of pink bags at the top's front end, four bag sides from the
    /// hole. At rest the pile's pixels are as they were: nothing new, nothing re-shaded, nothing
    /// crossed the hole. The pile stirred last as the bag came down, far from the hole: it lies
    /// there, counted on the board and said inferred (it was read as gone into the hole, and the
    /// last rest state was a bag short). The board is found on frame 120, before any bag came
    /// (the camera stands still).
    func testABagHiddenOnAPileOfItsColourIsCountedWhereThePileStirredLast() throws {
        let pictures = try fixtureSeries("side-view-640-stir-on-pile", ["1-resting", "2-in-flight", "3-over-pile", "4-after"])
        let board = try XCTUnwrap(BoardDetector().detect(in: DetectionTestSupport.fixture("side-view-640-stir-on-pile-0-empty.png")))
        for (reach, counted) in [(BagCensus().pileStirReach, true), (.infinity, false)] {
            var census = BagCensus()
            census.pileStirReach = reach
            var seq: UInt64 = 0
            let first = try XCTUnwrap(rest(&census, [pictures[0]], board: board, seq: &seq).last)
            _ = rest(&census, [pictures[1], pictures[2]], board: board, seq: &seq, frames: 1)
            let after = try XCTUnwrap(rest(&census, [pictures[3]], board: board, seq: &seq).last)
            XCTAssertEqual(after.onBoard, first.onBoard + (counted ? 1 : 0), "pileStirReach \(reach): \(after.changes)")
            XCTAssertEqual(after.changes.map { "\($0.kind) \($0.place) \($0.inferred)" }, counted ? ["newBag onBoard true"] : [],
                           "pileStirReach \(reach)")
        }
    }

    /// held33-0019 throw 5 (640×360 at 30 fps, rows 180–279): a navy bag drops into the hole
    /// over a red bag and a navy one resting beside it, which make one blob. At the next rest
    /// state the blob has lost a sliver (a third of a bag) to the codec, and nothing was added
    /// to it: too little for its top bag to have left it. Taken for that, the red bag went
    /// through the hole, and every later rest state was a bag short on the board.
    func testASliverGoneFromAPileIsNoBagLeavingIt() throws {
        let pictures = try fixtureSeries("side-view-640-pile-by-hole", ["1-resting", "2-in-flight", "3-over-pile", "4-after"])
        let board = try XCTUnwrap(BoardDetector().detect(in: pictures[0]))
        for (share, knocked) in [(BagCensus().leftShare, false), (0, true)] {
            var census = BagCensus()
            census.leftShare = share
            var seq: UInt64 = 0
            let first = try XCTUnwrap(rest(&census, [pictures[0]], board: board, seq: &seq).last)
            _ = rest(&census, [pictures[1], pictures[2]], board: board, seq: &seq, frames: 2)
            let after = try XCTUnwrap(rest(&census, [pictures[3]], board: board, seq: &seq).last)
            XCTAssertEqual(after.changes.contains { $0.kind == .knockedIn }, knocked, "leftShare \(share): \(after.changes)")
            // Taking any sliver for a bag leaving also empties a bag off the pair farther along.
            XCTAssertEqual(after.onBoard < first.onBoard, knocked, "leftShare \(share)")
        }
    }

    /// A bag comes to rest on the top, not yet sharp (drawn smaller); a moment later a blob of
    /// 0.6 of a bag flickers on the ground far behind the board, as the codec's key frames throw
    /// up, and the bag shows whole. The flicker is no bag in flight (every landed throw of
    /// held31–33 showed one of 1.3 bags or more): the piece come beside the bag is the bag's,
    /// and one bag rests there (held31-0009 at 41.9 s: a flicker of 0.77, and throw 7's bag, come
    /// to rest 1.3 s before, sharpened by 0.31 of a bag; counted again, every later rest state
    /// one over).
    func testAFlickerFarOffIsNoArrivalForABagSharpening() throws {
        let (scene, board, bagSide) = try sideView(board: (120, 138, 170), ground: (80, 120, 60), noise: 1)
        let place = scene.plane.point(along: 0.75, across: 0)
        func withBag(side: Double, flicker: Bool = false) -> BoardScene {
            var s = scene
            s.groundBags = [(place, side, (240, 220, 20))]
            if flicker {
                // Behind the board, on the ground well clear of it.
                let far = PlanePoint(place.x, board.boundingBox.y - 0.3 * board.lengthPixels)
                s.groundBags.append((far, 0.6.squareRoot() * bagSide, (170, 60, 150)))
            }
            return s
        }
        let empty = scene.render(seed: 2)
        let passing = Self.withBagPassingOverTheFrontEnd(scene).render(seed: 4)
        let unsharp = withBag(side: 0.7 * bagSide).render(seed: 3)
        let flicker = withBag(side: bagSide, flicker: true).render(seed: 5)
        let sharp = withBag(side: bagSide).render(seed: 6)
        // The case: the flicker is a blob on the ground of under a bag, and the unsharp bag's
        // blob grows by a piece when it sharpens.
        let flickers = BagFinder().find(in: flicker, board: board).filter { $0.place == .onGround }
        XCTAssertEqual(flickers.count, 1)
        let flickerBlob = try XCTUnwrap(flickers.first)
        XCTAssertLessThan(flickerBlob.area, BagCensus().wholeArrivalShare * flickerBlob.singleBagArea)
        let grown = try ([unsharp, sharp].map { try XCTUnwrap(BagFinder().find(in: $0, board: board).first { $0.place == .onBoard }).area })
        XCTAssertGreaterThan(grown[1], grown[0])
        for (whole, expected) in [(BagCensus().wholeArrivalShare, 1), (0, 2)] {
            var census = BagCensus()
            census.wholeArrivalShare = whole
            var seq: UInt64 = 0
            var results = rest(&census, [empty], board: board, seq: &seq)
            _ = rest(&census, [passing], board: board, seq: &seq, frames: 2)
            results += rest(&census, [unsharp], board: board, seq: &seq)
            _ = rest(&census, [flicker], board: board, seq: &seq, frames: 2)
            results += rest(&census, [sharp], board: board, seq: &seq)
            XCTAssertEqual(results.map(\.onBoard), [0, 1, expected], "wholeArrivalShare \(whole)")
        }
    }

    /// The same beside the hole: a bag seen arriving there whose blob fades below the threshold
    /// at the next rest state, none of its pixels gone, lies there still; it did not go in
    /// (held3-0010 throw 4: a yellow bag on a tan top at 960×540 behind the hole, seen with 28
    /// pixels, then none, then 48; taken through the hole, it was scored 3 and not 1). One whose
    /// pixels went back to the top's went in.
    func testABagSeenArrivingBesideTheHoleThatFadesStaysOnTheBoard() throws {
        let (scene, board, bagSide) = try sideView(board: (120, 138, 170), ground: (80, 120, 60), noise: 1)
        let hole = board.hole.center
        let empty = scene.render(seed: 2)
        let passing = Self.withBagPassingOverTheFrontEnd(scene).render(seed: 4)
        /// The bag at `place`, seen, and faded below the threshold.
        func pictures(at place: PlanePoint) -> (seen: ImageBuffer, faded: ImageBuffer) {
            var s = scene
            s.groundBags = [(place, bagSide, (156, 133, 154))]
            let seen = s.render(seed: 3)
            s.groundBags = [(place, bagSide, (145, 134, 159))]
            return (seen, s.render(seed: 5))
        }
        // Behind the hole, clear of its mouth (within a bag and a half of its centre), and over
        // the mouth: there a bag sinking in leaves the hole's dark, too like a dark bag for a patch
        // (dev8-0018 throw 2), and a bag no longer seen went in.
        let behind = pictures(at: PlanePoint(hole.x + 1.25 * bagSide, hole.y - 0.4 * bagSide))
        let atMouth = pictures(at: PlanePoint(hole.x + 0.5 * bagSide, hole.y - 0.4 * bagSide))
        // The case: the faded bag is not found.
        for p in [behind, atMouth] {
            XCTAssertEqual(BagFinder().find(in: p.seen, board: board).filter { $0.place == .onBoard }.count, 1)
            XCTAssertEqual(BagFinder().find(in: p.faded, board: board).count, 0)
        }
        for (p, after, stays) in [(behind, behind.faded, true), (behind, empty, false), (atMouth, atMouth.faded, true), (atMouth, empty, false)] {
            let (first, arrived, next) = try arriveThenRest(empty: empty, passing: passing, seen: p.seen, after: after, board: board)
            XCTAssertEqual(first.onBoard, 0)
            XCTAssertEqual(arrived.onBoard, 1)
            XCTAssertEqual(arrived.changes.map(\.kind), [.newBag])
            XCTAssertEqual(next.onBoard, stays ? 1 : 0, stays ? "faded: still there" : "gone")
            XCTAssertEqual(next.inHole, stays ? 0 : 1)
            XCTAssertEqual(next.changes.map(\.kind), stays ? [] : [.knockedIn])
        }
    }

    /// Something passes through the view and leaves nothing behind (a bag through the hole, or
    /// behind the board): the rest state that follows is reported, with no changes.
    func testQuietRestStateAfterSomethingPassedIsReported() throws {
        let (scene, board) = try sceneWithOneBag()
        let resting = scene.render(seed: 3)
        let passing = Self.withBagPassingOverTheFrontEnd(scene)
        var census = BagCensus()
        var seq: UInt64 = 0
        XCTAssertEqual(rest(&census, [resting], board: board, seq: &seq).map(\.onBoard), [1])
        // In view for two frames only: never at rest.
        XCTAssertTrue(rest(&census, [passing.render(seed: 6)], board: board, seq: &seq, frames: 2).isEmpty)
        let after = rest(&census, [scene.render(seed: 7)], board: board, seq: &seq)
        XCTAssertEqual(after.count, 1)
        XCTAssertEqual(after.first?.changes, [])
        XCTAssertEqual(after.first?.onBoard, 1)
    }
}

extension CensusTests {
    /// A pile standing beside the hole reaches above it in a side view. When something else in
    /// view stirs (a speck of compression noise, a bag's outline), the pile was taken for a bag
    /// passing over the hole, and each stir counted one more bag inferred in the hole (dev 3008:
    /// ten in the hole by the end of a game with one). A bag passing over the hole still counts.
    /// The drawn side view of seed 2 with a navy pile standing on the top beside the hole,
    /// reaching a bag and a half above its centre; its board, a bag's side, and the pile's centre.
    /// The board found in `scene`'s own picture (seed 2), and one bag's side on it, pixels.
    private func boardAndBagSide(of scene: BoardScene) throws -> (board: BoardDetection, bagSide: Double) {
        (try XCTUnwrap(BoardDetector().detect(in: scene.render(seed: 2))), scene.bagSidePixels)
    }

    private func sideViewWithAPileBesideTheHole() throws -> (scene: BoardScene, board: BoardDetection, bagSide: Double, pile: PlanePoint) {
        var scene = BoardScene.sideView(seed: 2)
        let (board, bagSide) = try boardAndBagSide(of: scene)
        let pile = PlanePoint(board.hole.center.x + 0.5 * bagSide, board.hole.center.y - 1.2 * bagSide)
        scene.groundBags = [(pile, 1.6 * bagSide, (30, 40, 200))]
        return (scene, board, bagSide, pile)
    }

    func testAPileBesideTheHoleAddsNoBagInTheHoleWhenTheSceneStirs() throws {
        let (scene, board, bagSide, _) = try sideViewWithAPileBesideTheHole()
        let hole = board.hole.center
        let still = scene.render(seed: 3)
        // The same scene with a small blob far from the hole for a frame.
        var wavered = scene
        wavered.groundBags.append((PlanePoint(scene.corners[3].x - 2 * bagSide, scene.corners[3].y + 2 * bagSide), 0.8 * bagSide, (30, 40, 200)))
        var census = BagCensus()
        var seq: UInt64 = 0
        let first = rest(&census, [still], board: board, seq: &seq)
        XCTAssertEqual(first.count, 1)
        let inHoleAtFirst = try XCTUnwrap(first.last).inHole
        for round in 0..<3 {
            _ = rest(&census, [wavered.render(seed: 10 + UInt64(round))], board: board, seq: &seq, frames: 1)
            let after = rest(&census, [scene.render(seed: 20 + UInt64(round))], board: board, seq: &seq)
            XCTAssertEqual(after.last?.inHole ?? inHoleAtFirst, inHoleAtFirst, "round \(round): \(after)")
        }
        // A bag passing over the hole, away from the pile, is seen going in.
        var passing = scene
        passing.groundBags.append((PlanePoint(hole.x - 1.0 * bagSide, hole.y - 1.5 * bagSide), bagSide, (240, 220, 20)))
        _ = rest(&census, [passing.render(seed: 30)], board: board, seq: &seq, frames: 2)
        let after = try XCTUnwrap(rest(&census, [scene.render(seed: 31)], board: board, seq: &seq).last)
        XCTAssertEqual(after.inHole, inHoleAtFirst + 1)
        XCTAssertTrue(after.changes.contains { $0.kind == .newBag && $0.place == .inHole && $0.inferred })
    }

    /// A fast bag seen at 30 fps can go from short of the air above the hole straight to its
    /// mouth between two frames, show there a few frames, and sink in (dev6-0018 throw 1: the
    /// census was one bag short in the hole for the rest of the game). A bag seen at the mouth
    /// that is gone by the rest state went in.
    func testABagSeenOnlyAtTheHolesMouthWentIn() throws {
        let scene = BoardScene.sideView(seed: 2)
        let (board, bagSide) = try boardAndBagSide(of: scene)
        var census = BagCensus()
        var seq: UInt64 = 0
        let first = try XCTUnwrap(rest(&census, [scene.render(seed: 3)], board: board, seq: &seq).last)
        var sinking = scene
        sinking.boardBags = [(BoardGeometry.holeFromBack, 0, (240, 220, 20))]
        let seen = BagFinder().find(in: sinking.render(seed: 4), board: board)
        XCTAssertEqual(seen.count, 1, "\(seen)")
        XCTAssertGreaterThan(try XCTUnwrap(seen.first).extentMin.y, board.hole.center.y - 0.8 * bagSide,
                             "the case: it never shows in the air above the hole")
        XCTAssertTrue(rest(&census, [sinking.render(seed: 4)], board: board, seq: &seq, frames: 3).isEmpty)
        let after = try XCTUnwrap(rest(&census, [scene.render(seed: 5)], board: board, seq: &seq).last)
        assertWentIn(after, from: first)

        // A bag resting at the mouth that stirs (dev3-0015, between throws) is no bag arriving.
        var stirring = BagCensus()
        seq = 0
        let resting = try XCTUnwrap(rest(&stirring, [sinking.render(seed: 6)], board: board, seq: &seq).last)
        var stirred = scene
        stirred.boardBags = [(BoardGeometry.holeFromBack + 0.4 * BoardGeometry.bagSide, 0, (240, 220, 20))]
        let moved = try XCTUnwrap(BagFinder().find(in: stirred.render(seed: 7), board: board).first)
        XCTAssertTrue(BagCensus().liesAtMouth(moved, board: board, bagSide: bagSide), "the case: the stirred bag still lies at the mouth")
        _ = rest(&stirring, [stirred.render(seed: 7)], board: board, seq: &seq, frames: 2)
        let settled = rest(&stirring, [sinking.render(seed: 8)], board: board, seq: &seq)
        XCTAssertFalse(settled.contains { $0.changes.contains { $0.place == .inHole } }, "\(settled)")
        XCTAssertEqual(settled.last?.inHole ?? resting.inHole, resting.inHole)
    }

    /// A bag sliding along the top into the hole from the front is last seen short of the mouth,
    /// its front over the hole, never centred on it nor in the air above it (held29-0007 throw 4
    /// at 1280×720: a navy bag last seen 0.7 of a bag from the hole's centre, then gone; the
    /// census saw no crossing and missed it in the hole).
    func testABagSlidingIntoTheHoleFromTheFrontWentIn() throws {
        let scene = BoardScene.sideView(seed: 2)
        let (board, bagSide) = try boardAndBagSide(of: scene)
        var census = BagCensus()
        var seq: UInt64 = 0
        let first = try XCTUnwrap(rest(&census, [scene.render(seed: 3)], board: board, seq: &seq).last)
        let sliding = [2.5, 1.8, 1.2, 0.75].enumerated().map { i, short in
            var frame = scene
            frame.boardBags = [(BoardGeometry.holeFromBack + short * BoardGeometry.bagSide, 0, (20, 30, 110))]
            return frame.render(seed: 10 + UInt64(i))
        }
        let last = try XCTUnwrap(census.finder.find(in: try XCTUnwrap(sliding.last), board: board).first)
        XCTAssertFalse(census.liesAtMouth(last, board: board, bagSide: bagSide), "the case: never centred on the mouth")
        XCTAssertGreaterThan(last.extentMin.y, board.hole.center.y - 0.8 * bagSide, "the case: never in the air above the hole")
        XCTAssertTrue(census.slidesOntoMouth(last, board: board, bagSide: bagSide))
        XCTAssertTrue(rest(&census, sliding, board: board, seq: &seq, frames: 1).isEmpty)
        let after = try XCTUnwrap(rest(&census, [scene.render(seed: 5)], board: board, seq: &seq).last)
        assertWentIn(after, from: first)
    }

    /// A bag of another colour passing over one resting at the hole's lip, into the hole: their
    /// blob keeps its place and size and takes the passing bag's colour for a frame or two
    /// (held30-0019 throw 2 at 640×360: a navy bag over a yellow one lying across the mouth;
    /// none came to rest and the census missed it in the hole all game).
    func testABagOfAnotherColourPassingOverOneAtTheLipWentIn() throws {
        let scene = BoardScene.sideView(seed: 2)
        let (board, bagSide) = try boardAndBagSide(of: scene)
        let lip = BoardGeometry.holeFromBack + 0.6 * BoardGeometry.bagSide
        let yellow = (240.0, 220.0, 20.0), navy = (20.0, 30.0, 110.0)
        var resting = scene
        resting.boardBags = [(lip, 0, yellow)]
        var census = BagCensus()
        var seq: UInt64 = 0
        let first = try XCTUnwrap(rest(&census, [resting.render(seed: 3)], board: board, seq: &seq).last)
        XCTAssertEqual(first.bags.count, 1, "the bag at the lip is counted: \(first)")
        var approaching = resting
        approaching.boardBags.append((lip + 2.5 * BoardGeometry.bagSide, 0, navy))
        var over = scene
        over.boardBags = [(lip, 0, navy)]
        let before = try XCTUnwrap(census.finder.find(in: resting.render(seed: 3), board: board).first)
        let passing = try XCTUnwrap(census.finder.find(in: over.render(seed: 11), board: board).first)
        XCTAssertTrue(census.recolouredAtMouth(passing, resting: [before], board: board, bagSide: bagSide))
        XCTAssertFalse(census.recolouredAtMouth(before, resting: [before], board: board, bagSide: bagSide), "unchanged: no other hue")
        XCTAssertTrue(rest(&census, [approaching.render(seed: 10), over.render(seed: 11), over.render(seed: 12)], board: board,
                           seq: &seq, frames: 1).isEmpty)
        let rests = rest(&census, [resting.render(seed: 5)], board: board, seq: &seq, frames: 40)
        let after = try XCTUnwrap(rests.last, "\(rests)")
        assertWentIn(after, from: first)
        XCTAssertEqual(after.onBoard, first.onBoard, "the bag at the lip stays")
    }

    /// After a bag crossed the hole's mouth, a piece of bag colour too small for a whole bag by
    /// the hole may be the bag sinking in, or a bag come to rest there partly hidden (on a pile
    /// of its colour, only its new part shows). The census looks again a moment later: gone, it
    /// went in; still there, it lies on the board (held8-0004, -0008, -0016, -0019 and
    /// held2-0017: such pieces were all taken for bags sinking in, and stayed; dev8-0010 throw 5,
    /// held2-0002 throw 7 and held8-0005 throw 2 were gone a moment later).
    func testAPieceByTheHoleAfterACrossingIsLookedAtAgain() throws {
        let scene = BoardScene.sideView(seed: 2)
        let (board, bagSide) = try boardAndBagSide(of: scene)
        let hole = board.hole.center
        let yellow = (240.0, 220.0, 20.0)
        // A piece a little short of the hole, toward the front end.
        let probe = BagCensus()
        let short = [PlanePoint(hole.x - 0.7 * bagSide, hole.y - 0.2 * bagSide), PlanePoint(hole.x + 0.7 * bagSide, hole.y - 0.2 * bagSide)]
            .min { probe.pastHole($0, board: board) < probe.pastHole($1, board: board) }!
        var piece = scene
        piece.groundBags = [(short, 0.55 * bagSide, yellow)]
        let seen = try XCTUnwrap(BagFinder().scan(in: piece.render(seed: 4), board: board))
        let sighting = try XCTUnwrap(seen.sightings.first)
        XCTAssertEqual(seen.sightings.count, 1)
        let patch = ChangedPatch(center: sighting.center, area: sighting.area, extentMin: sighting.extentMin, extentMax: sighting.extentMax)
        XCTAssertTrue(probe.isSinkingBag(patch, board: board, bagSide: bagSide, singleBagArea: seen.singleBagArea),
                      "the case: a piece the size of a bag sinking in (\(sighting.area / seen.singleBagArea) of a bag)")
        var passing = scene
        passing.groundBags = [(PlanePoint(hole.x - 1.0 * bagSide, hole.y - 1.5 * bagSide), bagSide, yellow)]
        func cross(_ census: inout BagCensus, seq: inout UInt64) throws -> CensusResult {
            let first = try XCTUnwrap(rest(&census, [scene.render(seed: 3)], board: board, seq: &seq).last)
            _ = rest(&census, [passing.render(seed: 5)], board: board, seq: &seq, frames: 2)
            return first
        }
        // Gone a moment later: it went in.
        var census = BagCensus()
        var seq: UInt64 = 0
        let before = try cross(&census, seq: &seq)
        XCTAssertTrue(rest(&census, [piece.render(seed: 4)], board: board, seq: &seq, frames: census.settleFrames + 2).isEmpty,
                      "no rest state while it may be sinking")
        let went = try XCTUnwrap(rest(&census, [scene.render(seed: 6)], board: board, seq: &seq, frames: 16).last)
        XCTAssertEqual(went.inHole, before.inHole + 1, "\(went)")
        XCTAssertEqual(went.onBoard, before.onBoard)
        // Still there: it lies on the board.
        census = BagCensus()
        seq = 0
        _ = try cross(&census, seq: &seq)
        let stayed = try XCTUnwrap(rest(&census, [piece.render(seed: 4)], board: board, seq: &seq, frames: 24).last)
        XCTAssertEqual(stayed.inHole, before.inHole, "\(stayed)")
        XCTAssertTrue(stayed.changes.contains { $0.kind == .newBag && $0.place == .onBoard }, "\(stayed)")
    }

    /// A bag passing over a pile that reaches the hole's mouth, on its way in, joins the pile's
    /// blob and hardly moves its centre: it was taken for the pile itself, and the bag that went
    /// in was never counted (dev3-0008). The blob's area tells them apart.
    func testABagPassingOverAPileAtTheHoleIsSeenGoingIn() throws {
        var scene = BoardScene.sideView(seed: 2)
        let (board, bagSide) = try boardAndBagSide(of: scene)
        let navy = (20.0, 30.0, 110.0)
        scene.boardBags = (0..<4).map { (BoardGeometry.holeFromBack + 0.14 * Double($0), 0.0, navy) }
        let piles = BagFinder().find(in: scene.render(seed: 3), board: board)
        XCTAssertEqual(piles.count, 1, "\(piles)")
        let pile = try XCTUnwrap(piles.first)
        var census = BagCensus()
        var seq: UInt64 = 0
        let first = try XCTUnwrap(rest(&census, [scene.render(seed: 3)], board: board, seq: &seq).last)
        // Over the middle of the pile, touching its top, for two frames.
        var passing = scene
        passing.groundBags = [(PlanePoint(pile.center.x, pile.extentMin.y - 0.3 * bagSide), bagSide, (240, 220, 20))]
        let seen = BagFinder().find(in: passing.render(seed: 4), board: board)
        XCTAssertEqual(seen.count, 1, "the passing bag joins the pile's blob: \(seen)")
        XCTAssertLessThan(try XCTUnwrap(seen.first).center.distance(to: pile.center), 0.25 * bagSide, "and hardly moves its centre")
        _ = rest(&census, [passing.render(seed: 4)], board: board, seq: &seq, frames: 2)
        let after = try XCTUnwrap(rest(&census, [scene.render(seed: 5)], board: board, seq: &seq).last)
        assertWentIn(after, from: first)
    }

    /// A bag that slides along the top into the hole past one resting at its mouth joins that
    /// bag's blob and is never seen on its own, nor in the air above the hole (dev7-0004 throw 5).
    /// The blob over the mouth that grew by a bag and came back as it was says a bag went in; a
    /// bag that stays there is a new bag on the board.
    func testABagSlidingInPastOneRestingAtTheMouthWentIn() throws {
        let scene = BoardScene.sideView(seed: 2)
        let (board, bagSide) = try boardAndBagSide(of: scene)
        let navy = (20.0, 30.0, 110.0)
        var restingScene = scene
        restingScene.boardBags = [(BoardGeometry.holeFromBack - 0.09, 0, navy)]
        var slidingScene = restingScene
        slidingScene.boardBags.append((BoardGeometry.holeFromBack + 0.06, 0, (240, 220, 20)))
        let resting = try XCTUnwrap(BagFinder().find(in: restingScene.render(seed: 3), board: board).first)
        let sliding = BagFinder().find(in: slidingScene.render(seed: 4), board: board)
        XCTAssertEqual(sliding.count, 1, "the case: one blob \(sliding)")
        let blob = try XCTUnwrap(sliding.first)
        XCTAssertTrue(resting.covers(blob.center, margin: 0.5 * bagSide), "the case: the resting bag's blob covers the mouth")
        XCTAssertGreaterThan(blob.extentMin.y, board.hole.center.y - 0.8 * bagSide, "the case: never in the air above the hole")
        XCTAssertTrue(BagCensus().grewAtMouth(blob, held: [resting], board: board, bagSide: bagSide))
        // A long pile over the mouth grown as much at its far end, three bags from the hole, is a
        // bag bouncing off it (dev7-0006 throw 7), not one going in.
        func strip(from x0: Double, to x1: Double, area: Double) -> BagSighting {
            var b = BagSighting(center: PlanePoint((x0 + x1) / 2, board.hole.center.y), colour: RGBColour(r: 20, g: 30, b: 110),
                                place: .onBoard, area: area)
            b.extentMin = PlanePoint(x0, board.hole.center.y - 0.3 * bagSide)
            b.extentMax = PlanePoint(x1, board.hole.center.y + 0.2 * bagSide)
            b.singleBagArea = resting.singleBagArea
            return b
        }
        let hx = board.hole.center.x, one = resting.singleBagArea
        let pile = strip(from: hx - 2 * bagSide, to: hx + bagSide, area: 3 * one)
        XCTAssertFalse(BagCensus().grewAtMouth(strip(from: hx - 4 * bagSide, to: hx + bagSide, area: 4 * one), held: [pile],
                                               board: board, bagSide: bagSide))
        XCTAssertTrue(BagCensus().grewAtMouth(strip(from: hx - 2 * bagSide, to: hx + 2 * bagSide, area: 4 * one), held: [pile],
                                              board: board, bagSide: bagSide), "grown beside the hole")
        // Grown on top of the pile, its edge wavering a pixel toward the hole (dev6-0013 throw 8,
        // at rest on the pile), it says nothing of the hole.
        XCTAssertFalse(BagCensus().grewAtMouth(strip(from: hx - 2 * bagSide - 1, to: hx + bagSide, area: 4 * one), held: [pile],
                                               board: board, bagSide: bagSide), "grown on top")

        func throwAndSettle(_ census: inout BagCensus, ending: BoardScene) throws -> (before: CensusResult, after: CensusResult) {
            var seq: UInt64 = 0
            let before = try XCTUnwrap(rest(&census, [restingScene.render(seed: 5)], board: board, seq: &seq).last)
            // Thrown: seen in flight on its way, then sliding at the mouth.
            XCTAssertTrue(rest(&census, [Self.withBagPassingOverTheFrontEnd(restingScene).render(seed: 8)], board: board, seq: &seq,
                               frames: 2).isEmpty)
            XCTAssertTrue(rest(&census, [slidingScene.render(seed: 6)], board: board, seq: &seq, frames: 3).isEmpty)
            let after = try XCTUnwrap(rest(&census, [ending.render(seed: 7)], board: board, seq: &seq).last)
            return (before, after)
        }
        var census = BagCensus()
        let wentIn = try throwAndSettle(&census, ending: restingScene)
        XCTAssertEqual(wentIn.after.inHole, wentIn.before.inHole + 1, "\(wentIn.after)")
        XCTAssertTrue(wentIn.after.changes.contains { $0.kind == .newBag && $0.place == .inHole && $0.inferred })
        // Without the rule the bag is lost.
        var blind = BagCensus()
        blind.mouthGrowthShare = .infinity
        let lost = try throwAndSettle(&blind, ending: restingScene)
        XCTAssertEqual(lost.after.inHole, lost.before.inHole, "the case needs the rule")
        // One that stays there is a bag on the board, none in the hole.
        var staying = BagCensus()
        let stayed = try throwAndSettle(&staying, ending: slidingScene)
        XCTAssertEqual(stayed.after.onBoard, stayed.before.onBoard + 1, "\(stayed.after)")
        XCTAssertEqual(stayed.after.inHole, stayed.before.inHole)
    }

    /// A pile standing by the hole reaches up above it. A bag passing beside the pile at its
    /// height joins its blob, which then reached "above the hole" by the pile's height alone,
    /// and a bag was counted in the hole (dev7-0005 throw 7: a bag came to rest on a pile of its
    /// own colour beside the hole, unseen, and was taken for one that went in). Only a blob
    /// reaching higher than the resting blobs it holds passes over the hole.
    func testABagBesideATallPileByTheHoleDoesNotPassOverTheHole() throws {
        let (scene, board, bagSide, pile) = try sideViewWithAPileBesideTheHole()
        let hole = board.hole.center
        var census = BagCensus()
        var seq: UInt64 = 0
        let first = try XCTUnwrap(rest(&census, [scene.render(seed: 3)], board: board, seq: &seq).last)
        var passing = scene
        passing.groundBags.append((PlanePoint(pile.x + 1.25 * bagSide, pile.y + 0.1 * bagSide), bagSide, (240, 220, 20)))
        let seen = BagFinder().find(in: passing.render(seed: 4), board: board)
        XCTAssertEqual(seen.count, 1, "the case: the passing bag joins the pile's blob \(seen)")
        XCTAssertLessThan(try XCTUnwrap(seen.first).extentMin.y, hole.y - 0.8 * bagSide, "the case: the blob reaches above the hole")
        XCTAssertFalse(try XCTUnwrap(seen.first).covers(hole, margin: 0), "the case: not over the mouth")
        _ = rest(&census, [passing.render(seed: 4)], board: board, seq: &seq, frames: 2)
        let after = rest(&census, [scene.render(seed: 5)], board: board, seq: &seq)
        XCTAssertEqual(after.last?.inHole ?? first.inHole, first.inHole, "\(after)")
        XCTAssertFalse(after.contains { $0.changes.contains { $0.place == .inHole } })
    }

    /// A pile lying along the top from beside the hole: a bag coming down on its far end joins
    /// its blob, which then stretches to the hole and reaches higher than the pile, but only at
    /// the far end (held10-0001 throw 8: came down three bags from the hole on a pile reaching
    /// to a bag from it, was taken for a bag passing over the hole and scored in the hole). Only
    /// a blob reaching higher by the hole passes over it.
    func testABagComingDownOnTheFarEndOfAPileFromTheHoleDoesNotPassOverTheHole() throws {
        var scene = BoardScene.sideView(seed: 2)
        let (board, bagSide) = try boardAndBagSide(of: scene)
        let hole = board.hole.center
        let navy = (20.0, 30.0, 110.0)
        scene.boardBags = (0..<3).map { (BoardGeometry.holeFromBack + 0.15 + 0.14 * Double($0), 0.0, navy) }
        let piles = BagFinder().find(in: scene.render(seed: 3), board: board)
        XCTAssertEqual(piles.count, 1, "the case: one pile \(piles)")
        let pile = try XCTUnwrap(piles.first)
        let towardHole = abs(pile.extentMin.x - hole.x) < abs(pile.extentMax.x - hole.x) ? -1.0 : 1.0
        let farEnd = towardHole < 0 ? pile.extentMax.x : pile.extentMin.x
        var coming = scene
        coming.groundBags = [(PlanePoint(farEnd + towardHole * 0.5 * bagSide, pile.extentMin.y - 0.3 * bagSide), bagSide, (240, 220, 20))]
        let image = coming.render(seed: 4)
        let scan = try XCTUnwrap(BagFinder().scan(in: image, board: board))
        XCTAssertEqual(scan.sightings.count, 1, "the case: the bag joins the pile's blob \(scan.sightings)")
        let blob = try XCTUnwrap(scan.sightings.first)
        XCTAssertLessThan(blob.extentMin.y, hole.y - 0.8 * bagSide, "the case: the blob reaches above the hole")
        let census = BagCensus()
        XCTAssertTrue(census.passesOverHole(blob, held: [pile], scan: nil, board: board, bagSide: bagSide),
                      "the case: its box alone passes over the hole")
        XCTAssertFalse(census.passesOverHole(blob, held: [pile], scan: scan, board: board, bagSide: bagSide))

        var counting = BagCensus()
        var seq: UInt64 = 0
        let first = try XCTUnwrap(rest(&counting, [scene.render(seed: 3)], board: board, seq: &seq).last)
        _ = rest(&counting, [image], board: board, seq: &seq, frames: 2)
        let after = rest(&counting, [scene.render(seed: 5)], board: board, seq: &seq)
        XCTAssertEqual(after.last?.inHole ?? first.inHole, first.inHole, "\(after)")
        XCTAssertFalse(after.contains { $0.changes.contains { $0.place == .inHole } })
    }

    /// A bag that crosses the hole's mouth and slides on over the back end drops behind the
    /// board, where it may rest hidden: seen below the top at the back end after the crossing,
    /// it is a bag on the ground behind the board, inferred, not one through the hole
    /// (held2-0008 and dev8-0008 throw 8 were each scored 15 for a miss). Without that sighting
    /// the crossing still says it went in.
    func testABagSeenDroppingBehindTheBackEndAfterCrossingTheHoleIsNotInIt() throws {
        let scene = BoardScene.sideView(seed: 2)
        let (board, bagSide) = try boardAndBagSide(of: scene)
        var crossing = scene
        crossing.boardBags = [(BoardGeometry.holeFromBack, 0, (240, 220, 20))]
        // Just below the back end's lower corner (the end nearer the hole).
        let c = board.corners
        func holeDistance(_ a: PlanePoint, _ b: PlanePoint) -> Double {
            PlanePoint((a.x + b.x) / 2, (a.y + b.y) / 2).distance(to: board.hole.center)
        }
        let backEnd = holeDistance(c[1], c[2]) <= holeDistance(c[3], c[0]) ? (c[1], c[2]) : (c[3], c[0])
        let lower = backEnd.0.y > backEnd.1.y ? backEnd.0 : backEnd.1
        var dropping = scene
        dropping.groundBags = [(PlanePoint(lower.x, lower.y + 0.8 * bagSide), bagSide, (240, 220, 20))]
        let seen = BagFinder().find(in: dropping.render(seed: 5), board: board)
        XCTAssertEqual(seen.count, 1, "\(seen)")
        XCTAssertTrue(BagCensus().dropsBehindBackEnd(try XCTUnwrap(seen.first), resting: [], board: board, bagSide: bagSide),
                      "the case: the bag shows below the back end")

        func throwAndSettle(droppingBehind: Bool) throws -> (before: CensusResult, after: CensusResult) {
            var census = BagCensus()
            var seq: UInt64 = 0
            let before = try XCTUnwrap(rest(&census, [scene.render(seed: 3)], board: board, seq: &seq).last)
            XCTAssertTrue(rest(&census, [crossing.render(seed: 4)], board: board, seq: &seq, frames: 3).isEmpty)
            if droppingBehind {
                XCTAssertTrue(rest(&census, [dropping.render(seed: 5)], board: board, seq: &seq, frames: 2).isEmpty)
            }
            let after = try XCTUnwrap(rest(&census, [scene.render(seed: 6)], board: board, seq: &seq).last)
            return (before, after)
        }
        let behind = try throwAndSettle(droppingBehind: true)
        XCTAssertEqual(behind.after.inHole, behind.before.inHole, "\(behind.after)")
        XCTAssertEqual(behind.after.changes.map(\.kind), [.newBag])
        XCTAssertTrue(behind.after.changes.allSatisfy { $0.place == .onGround && $0.inferred })
        XCTAssertEqual(behind.after.bags, behind.before.bags, "a bag no later rest state could see is not listed")
        let wentIn = try throwAndSettle(droppingBehind: false)
        XCTAssertEqual(wentIn.after.inHole, wentIn.before.inHole + 1, "\(wentIn.after)")
    }

    /// Two bags resting together behind the back end make one blob; while a bag goes through the
    /// hole they may show apart for a frame (held18-0006 throw 7: taken for a bag dropping behind
    /// the board, a bag in the hole scored 0). A piece of a resting blob, within its box, drops
    /// nowhere; a bag coming down on them grows the blob past its box.
    func testAPieceOfBagsRestingBehindTheBackEndIsNoBagDroppingThere() throws {
        let scene = BoardScene.sideView(seed: 2)
        let (board, bagSide) = try boardAndBagSide(of: scene)
        let c = board.corners
        func holeDistance(_ a: PlanePoint, _ b: PlanePoint) -> Double {
            PlanePoint((a.x + b.x) / 2, (a.y + b.y) / 2).distance(to: board.hole.center)
        }
        let backEnd = holeDistance(c[1], c[2]) <= holeDistance(c[3], c[0]) ? (c[1], c[2]) : (c[3], c[0])
        let lower = backEnd.0.y > backEnd.1.y ? backEnd.0 : backEnd.1
        let y = lower.y + 0.8 * bagSide
        let navy = (40.0, 40.0, 110.0)
        func sightings(_ bags: [PlanePoint], seed: UInt64) -> [BagSighting] {
            var s = scene
            s.groundBags = bags.map { ($0, bagSide, navy) }
            return BagFinder().find(in: s.render(seed: seed), board: board)
        }
        let pair = [PlanePoint(lower.x - 0.45 * bagSide, y), PlanePoint(lower.x + 0.45 * bagSide, y)]
        let resting = sightings(pair, seed: 3)
        XCTAssertEqual(resting.count, 1, "the case: the two make one blob \(resting)")
        let piece = sightings([pair[0]], seed: 4)
        XCTAssertEqual(piece.count, 1)
        let census = BagCensus()
        let pieceBlob = try XCTUnwrap(piece.first)
        XCTAssertTrue(census.dropsBehindBackEnd(pieceBlob, resting: [], board: board, bagSide: bagSide),
                      "the case: with nothing resting there it would be a bag dropping")
        XCTAssertFalse(census.dropsBehindBackEnd(pieceBlob, resting: resting, board: board, bagSide: bagSide))
        let landing = sightings(pair + [PlanePoint(lower.x, y - 0.6 * bagSide)], seed: 5)
        XCTAssertEqual(landing.count, 1)
        XCTAssertTrue(census.dropsBehindBackEnd(try XCTUnwrap(landing.first), resting: resting, board: board, bagSide: bagSide))
    }

    /// An end face is the top's paint in shade as the near rail is, and lies past the near
    /// side's end: held28-0011 (this crop of a 960×540 frame before the first throw), a yellow
    /// board whose front end face reads (172, 144, 19) against a top of (255, 245, 90), was
    /// counted as a bag on the ground in every rest state. Nothing lies about here.
    func testTheFrontEndsFaceIsNoBag() throws {
        let picture = try DetectionTestSupport.fixture("side-view-960-front-end-face.png")
        let board = try XCTUnwrap(BoardDetector().detect(in: picture))
        XCTAssertEqual(BagFinder().find(in: picture, board: board), [])
        // The case: without the end faces, a piece of the front one is a bag by the front end.
        var noEndFaces = BagFinder()
        noEndFaces.endFaceReach = 0
        let phantom = try XCTUnwrap(noEndFaces.find(in: picture, board: board).first)
        XCTAssertEqual(phantom.place, .onGround)
        let frontEnd = board.corners[2]
        XCTAssertLessThan(phantom.center.distance(to: frontEnd), 8, "below the near front corner: \(phantom)")
    }

    /// A small top's hole and the ring painted around it blur into a blob of about a bag:
    /// held28-0017 (this crop of a 640×360 frame before the first throw, a hole 3 px tall),
    /// counted on the board at the first rest state and knocked in at the next. Counted by its
    /// area, a blob centred on the hole's mouth is no bag: one resting there would drop in.
    func testASmallTopsHoleIsNoBagAtTheFirstRestState() throws {
        let picture = try DetectionTestSupport.fixture("side-view-640-small-hole-blob.png")
        let board = try XCTUnwrap(BoardDetector().detect(in: picture))
        let bagSide = BoardGeometry.bagSide / board.metresPerPixel
        var census = BagCensus()
        let atMouth = census.finder.find(in: picture, board: board).filter {
            census.liesAtMouth($0, board: board, bagSide: bagSide)
        }
        XCTAssertEqual(atMouth.count, 1, "the finder sees the hole as a blob: the case")
        XCTAssertTrue(census.isHoleByArea(try XCTUnwrap(atMouth.first), board: board, bagSide: bagSide))
        var seq: UInt64 = 0
        let rests = rest(&census, [picture], board: board, seq: &seq)
        let first = try XCTUnwrap(rests.first)
        XCTAssertFalse(first.bags.contains { $0.center.distance(to: board.hole.center) <= 0.5 * bagSide },
                       "no bag on the hole's mouth: \(first.bags)")
        XCTAssertEqual(first.inHole, 0)
    }

    /// A top's drawn outline and border stripe blur with the ground beyond into specks along its
    /// edges. A yellow top's line (0.55 of its paint) is an olive bag's colour (this crop of
    /// held28-0017 at 640×360 before the first throw: specks of a quarter to three fifths of a
    /// bag, by the far corner and the front end, counted at the first rest state: a bag too many
    /// all game). On a white top at 960×540 the far edge above the hole's ring made a strip of
    /// 0.74 of a bag (held30-0011's crop: counted, then gone and taken into the hole). Counted by
    /// its area, a speck smaller than a bag along the outline is the outline.
    func testSpecksOfATopsOutlineAreNoBagsAtTheFirstRestState() throws {
        for name in ["side-view-640-yellow-top-outline-specks.png", "side-view-960-white-top-edge-above-hole.png"] {
            let picture = try DetectionTestSupport.fixture(name)
            let board = try XCTUnwrap(BoardDetector().detect(in: picture))
            let bagSide = BoardGeometry.bagSide / board.metresPerPixel
            var census = BagCensus()
            let specks = census.finder.find(in: picture, board: board)
            XCTAssertFalse(specks.isEmpty, "\(name): the finder sees the outline's specks: the case")
            for speck in specks {
                XCTAssertTrue(census.isOutlineByArea(speck, board: board, bagSide: bagSide), "\(name): \(speck)")
            }
            var seq: UInt64 = 0
            let rests = rest(&census, [picture], board: board, seq: &seq)
            XCTAssertTrue(try XCTUnwrap(rests.first).bags.isEmpty, "\(name): no bag lies on the top: \(rests)")
            // A bag as small in the middle of the top, clear of the outline, still counts.
            var inner = specks[0]
            inner.center = board.corners.reduce(PlanePoint(0, 0), +) * 0.25
            XCTAssertFalse(census.isOutlineByArea(inner, board: board, bagSide: bagSide))
        }
    }
}

import Foundation
import PitchsideCore
import PitchsideSynth
import XCTest
@testable import PitchsideVision

/// The board on rendered synthetic side views with players in the picture, against the
/// renderer's truth (no video encoding: a few frames rendered straight from the scene).
final class BoardSyntheticSceneTests: XCTestCase {
    /// Seed 5 at 1280×720 with two players once gave a standing player's dark trousers (the gap
    /// between the legs looking like a hole) as the board, with confidence 1.
    func testTwoPlayerSideViewGivesTheBoardNotAPlayer() throws {
        let (game, truth) = DetectionTestSupport.syntheticGame(seed: 5, width: 1280, height: 720, players: 2)
        // The first frame (both players standing beside each other) and the first frame in
        // which a player walks must give the board; the release frame of the first throw must
        // never give a player (measured: the raw render's top splits there and scores 0.56, below
        // the 0.6 minimum, while the same frame through the H.264 encoder gives the board at 1.0).
        var frames = [(0, true)]
        if let walk = truth.actions.first(where: { $0.action == .walking }) { frames.append(((walk.startFrame + walk.endFrame) / 2, true)) }
        if let t = truth.throwsTruth.first { frames.append((t.releaseFrame, false)) }
        for (frame, required) in frames {
            let result = BoardDetector().search(in: game.render(frame: frame))
            guard let board = result.detection else {
                if required { result.candidates.forEach { print("  candidate \($0.x), \($0.y) \($0.width)×\($0.height): \($0.verdict)") } }
                XCTAssertFalse(required, "frame \(frame): no board (\(result.reason))")
                continue
            }
            let errors = Self.errors(board, truth: truth.frames[frame], width: 1280, height: 720)
            print(String(format: "seed 5 frame %d: corners %.2f%% of the length, hole %.1f%% of its diameter, scale %.2f%%",
                         frame, 100 * errors.corner, 100 * errors.hole, 100 * errors.scale))
            // The worst of the four corners (measured 2.2–2.3 %: the front ends' border band);
            // the 2 % is judged over a corpus by `pitchside eval detection`.
            XCTAssertLessThan(errors.corner, 0.025, "frame \(frame): corners")
            XCTAssertLessThan(errors.hole, 0.15, "frame \(frame): hole centre")
            XCTAssertLessThan(errors.scale, 0.03, "frame \(frame): metres per pixel")
        }
    }

    /// A 640×360 side view: the board is about 56 pixels long and its top five pixels deep.
    func testSmallSideViewFindsTheBoard() throws {
        let (game, truth) = DetectionTestSupport.syntheticGame(seed: 1000, width: 640, height: 360, players: 1)
        let frame = truth.camera.firstSettledFrame + 5
        let result = BoardDetector().search(in: game.render(frame: frame))
        let board = try XCTUnwrap(result.detection, "no board (\(result.reason))")
        let errors = Self.errors(board, truth: truth.frames[frame], width: 640, height: 360)
        print(String(format: "seed 1000 at 640×360: corners %.2f%% of the length, hole %.1f%% of its diameter, scale %.2f%%",
                     100 * errors.corner, 100 * errors.hole, 100 * errors.scale))
        XCTAssertLessThan(errors.corner, 0.05, "corners")
        XCTAssertLessThan(errors.hole, 0.15, "hole centre")
        XCTAssertLessThan(errors.scale, 0.05, "metres per pixel")
    }

    /// The renderer edges the top with a one-pixel darker outline centred on the edge, and the
    /// truth corners are the edge itself. Measured to where the top's own colour begins, every
    /// side lay half a pixel inside it: at 1280×720 the scale was 0.9–1.1 % too large and the
    /// worst corner 1.8–2.3 % of the length off. In these pictures, sharper than any video, the
    /// ends lie a little outside (the scale up to 0.5 % too small): the half edge line is
    /// stretched along the lines that cross an end obliquely, which through the codec brings the
    /// ends closer (`testTheEndsLieOnTheirOutlineThroughTheCodec`).
    func testSidesRunAlongTheMiddleOfTheTopsOutline() throws {
        for seed in [1000, 1001, 1002, 1003] as [UInt64] {
            let (game, truth) = DetectionTestSupport.syntheticGame(seed: seed, width: 1280, height: 720, players: 1)
            let frame = truth.camera.firstSettledFrame + 5
            let board = try XCTUnwrap(BoardDetector().detect(in: game.render(frame: frame)), "seed \(seed): no board")
            let f = truth.frames[frame]
            let errors = Self.errors(board, truth: f, width: 1280, height: 720)
            let scale = board.metresPerPixel / f.metresPerPixel - 1
            print(String(format: "seed %d at 1280×720: corners %.2f%% of the length, scale %+.2f%%", seed, 100 * errors.corner, 100 * scale))
            XCTAssertLessThan(abs(scale), 0.01, "seed \(seed): metres per pixel")
            XCTAssertLessThan(errors.corner, 0.02, "seed \(seed): corners")
        }
    }

    /// The near long side, through the video codec: the rail below it is only a little darker
    /// than the top, so "nearer the top's colour than the rail's" was reached high on the inner
    /// flank of the outline between them: on these six frames the near corners lay 0.72 % of
    /// the board's length inside the edge on average (0.6–0.8 % on the development corpora).
    /// Half-way up the outline's flank and half a line width out they lay 0.48 % inside: the
    /// codec's blur widens the outline, and its flank's middle lies inside its inner border. At
    /// the outline's darkest point, which straddles the edge, they lie 0.01 % outside.
    func testTheNearSideLiesOnItsOutlineThroughTheCodec() throws {
        var offsets: [Double] = []
        for (seed, width, height) in [(1000, 1280, 720), (1001, 1280, 720), (1003, 1280, 720), (1004, 640, 360), (1005, 640, 360), (1007, 640, 360)] as [(UInt64, Int, Int)] {
            let (game, truth) = DetectionTestSupport.syntheticGame(seed: seed, width: width, height: height, players: 1)
            let frame = truth.camera.firstSettledFrame + 5
            let picture = try DetectionTestSupport.throughVideoCodec(game.render(frame: frame), crf: 23)
            let board = try XCTUnwrap(BoardDetector().detect(in: picture), "seed \(seed): no board")
            let f = truth.frames[frame]
            let t = f.boardCorners.map { PlanePoint($0[0] * Double(width), $0[1] * Double(height)) }
            // The near side is the long side lower in the picture; offsets are outward.
            let near = t[2].y + t[3].y > t[0].y + t[1].y ? [2, 3] : [0, 1]
            let a = t[near[0]], b = t[near[1]], farMid = (t[(near[0] + 2) % 4] + t[(near[1] + 2) % 4]) * 0.5
            let d = (b - a) * (1 / a.distance(to: b))
            var n = PlanePoint(-d.y, d.x)
            if (farMid.x - a.x) * n.x + (farMid.y - a.y) * n.y > 0 { n = n * -1 }
            let length = BoardGeometry.length / f.metresPerPixel
            for k in near {
                let e = board.corners[k] - a
                offsets.append((e.x * n.x + e.y * n.y) / length)
            }
            print(String(format: "seed %d at %d×%d: near corners %+.2f%%, %+.2f%% of the length outward", seed, width, height,
                         100 * offsets[offsets.count - 2], 100 * offsets[offsets.count - 1]))
        }
        let mean = offsets.reduce(0, +) / Double(offsets.count)
        XCTAssertLessThan(abs(mean), 0.002, "the near side's mean offset from the edge, of the board's length")
    }

    /// The ends of a side-on top, through the codec at 640×360. An end slants across the
    /// picture and is found on lines along the long sides, which cross it at about 30°: every
    /// width across the end (the edge line, how far out an outline is looked for) is about twice
    /// as long along them. Measured as if the lines crossed it squarely, the corners of these six
    /// frames lay on average 1.19 % of the board's length in from the ends; with the widths
    /// stretched, 0.80 %, and 0.72 % with the top's colour taken along a stretch of it (the codec's
    /// blur still pulls the edge in; see the pictures without it,
    /// `testSidesRunAlongTheMiddleOfTheTopsOutline`). The picture searched at this size is the
    /// frame doubled, whose interpolation blurs the outline farther into the top; with that
    /// allowed for (`EdgePolish.doubledBlurShift`) and the near side on its outline's darkest
    /// point, 0.18 %.
    func testTheEndsLieOnTheirOutlineThroughTheCodec() throws {
        var offsets: [Double] = []
        for seed in [1004, 1005, 1007, 7002, 7003, 7016] as [UInt64] {
            let (game, truth) = DetectionTestSupport.syntheticGame(seed: seed, width: 640, height: 360, players: 1)
            let frame = truth.camera.firstSettledFrame + 5
            let picture = try DetectionTestSupport.throughVideoCodec(game.render(frame: frame), crf: 23)
            let board = try XCTUnwrap(BoardDetector().detect(in: picture), "seed \(seed): no board")
            let f = truth.frames[frame]
            let t = f.boardCorners.map { PlanePoint($0[0] * 640, $0[1] * 360) }
            // Corners 0 and 3 lie at one end, 1 and 2 at the other; offsets are outward along the
            // board's axis, as fractions of its length.
            let endA = (t[0] + t[3]) * 0.5, endB = (t[1] + t[2]) * 0.5
            let axis = (endB - endA) * (1 / endA.distance(to: endB))
            let length = BoardGeometry.length / f.metresPerPixel
            var line: [Double] = []
            for k in 0..<4 {
                let e = board.corners[k] - t[k]
                let along = (e.x * axis.x + e.y * axis.y) * (k == 0 || k == 3 ? -1 : 1)
                line.append(along / length)
            }
            offsets += line
            print(String(format: "seed %d at 640×360: corners %+.2f%% %+.2f%% %+.2f%% %+.2f%% of the length outward along the board",
                         seed, 100 * line[0], 100 * line[1], 100 * line[2], 100 * line[3]))
        }
        let mean = offsets.reduce(0, +) / Double(offsets.count)
        print(String(format: "mean %+.2f%%", 100 * mean))
        XCTAssertLessThan(abs(mean), 0.004, "the corners' mean offset along the board from its ends, of its length")
    }

    /// An end's lines take the top's colour from a stretch of the top, not one point: a bag
    /// lying a third of the length in (where that point fell) was taken for the top on half of
    /// them, the front face beyond the end (the paint in shade) came nearer that bag's colour
    /// than the ground's, and the end ran out over the face to the ground (dev3-0007, 7007 here:
    /// a corner 10 % of the length off for the whole game; on this frame through the codec 9.95 %,
    /// with the stretch's colour 0.6 %).
    func testAnEndIsNotCarriedOverTheFrontFaceByABagOnTheTop() throws {
        let (game, truth) = DetectionTestSupport.syntheticGame(seed: 7007, width: 1280, height: 720, players: 2)
        let frame = truth.camera.firstSettledFrame + 30
        let errors = try Self.boardErrors(game, truth: truth, frame: frame, crf: 23, seed: 7007)
        XCTAssertLessThan(errors.corner, 0.02, "seed 7007: corners")
    }

    /// dev7-0019 at 640×360 (frame 90 of its video, cropped to 400 × 200 from (0, 100)): a bag
    /// resting a third of the way in from the front end covered most of the stretch whose
    /// commonest colour the end's lines take for the top's, so the end ran 5 px out over the
    /// front face (corners 9.9 % of the length off, all game). Of the colours sampled there, the
    /// group nearest the top region's paint is the top's.
    func testAnEndIsNotCarriedOverTheFrontFaceByABagCoveringMostOfTheStretchInside() throws {
        let picture = try DetectionTestSupport.fixture("side-view-640-bag-inside-front-end.png")
        let board = try XCTUnwrap(BoardDetector().detect(in: picture))
        // The game's truth for the frame, in the crop's pixels; 56.5 px long.
        let truth = [PlanePoint(99.65, 129.30), PlanePoint(154.12, 138.38), PlanePoint(147.71, 145.33), PlanePoint(90.67, 135.87)]
        let length = BoardGeometry.length / 0.021593
        let worst = zip(board.corners, truth).map { $0.distance(to: $1) }.max() ?? .infinity
        XCTAssertLessThan(worst / length, 0.02, "corners \(board.corners)")
        XCTAssertEqual(board.metresPerPixel, 0.021593, accuracy: 0.03 * 0.021593)
    }

    /// A far board seen low (seed 1006: 125 px long, 30 px deep at 1280×720, two bags resting
    /// on its front edge), as its video shows it: its outline is notched by the bags and takes
    /// in the front face's darker paint, so its solidity is 0.85. With the hole plainly there,
    /// that is a board: it was reported as none for the whole game, and no throw was found.
    func testAFarBoardSeenLowWithBagsOnItsEdgeIsFound() throws {
        let (game, truth) = DetectionTestSupport.syntheticGame(seed: 1006, width: 1280, height: 720, players: 2)
        let frame = truth.camera.firstSettledFrame + 90
        let picture = try DetectionTestSupport.throughVideoCodec(game.render(frame: frame), crf: 26)
        let search = BoardDetector().search(in: picture)
        let board = try XCTUnwrap(search.detection, "seed 1006: no board (\(search.reason))")
        let f = truth.frames[frame]
        let errors = Self.errors(board, truth: f, width: 1280, height: 720)
        print(String(format: "seed 1006 at 1280×720: confidence %.2f, corners %.1f%% of the length, hole %.1f%% of its diameter, scale %.1f%%",
                     board.confidence, 100 * errors.corner, 100 * errors.hole, 100 * errors.scale))
        XCTAssertLessThan(errors.hole, 0.15, "hole centre")
        XCTAssertLessThan(errors.scale, 0.03, "metres per pixel")
        XCTAssertLessThan(errors.corner, 0.12, "corners (the near rail is taken in where the bags lie: about 10 % of the length)")
    }

    /// Side views whose top's colour region runs down into the near rail (the rail is the top's
    /// paint at three quarters of its brightness, and the outline between them blurs away): the
    /// near side lay on the rail's bottom edge, its corners 5–10 % of the board's length out
    /// (dev games 1006, 1015, 1016; 1006 is measured by `pitchside eval detection`, its bags on the edge make this frame fail). `RailSplit` moves it up to the top's edge.
    func testTheNearRailIsNotTakenForTheTop() throws {
        for (seed, width, height, players) in [(1015, 1920, 1080, 2), (1016, 640, 360, 1)] as [(UInt64, Int, Int, Int)] {
            let (game, truth) = DetectionTestSupport.syntheticGame(seed: seed, width: width, height: height, players: players)
            let frame = truth.camera.firstSettledFrame + 90
            let errors = try Self.boardErrors(game, truth: truth, frame: frame, crf: 23, seed: seed)
            XCTAssertLessThan(errors.corner, 0.035, "seed \(seed): corners")
        }
    }

    /// `errors` for the board found on one frame of `game` seen through the codec at `crf`
    /// (printed); fails the test when no board is found.
    static func boardErrors(_ game: SynthGame, truth: GroundTruth, frame: Int, crf: Int, seed: UInt64) throws
        -> (corner: Double, hole: Double, scale: Double) {
        let (width, height) = (game.settings.width, game.settings.height)
        let picture = try DetectionTestSupport.throughVideoCodec(game.render(frame: frame), crf: crf)
        let search = BoardDetector().search(in: picture)
        let board = try XCTUnwrap(search.detection, "seed \(seed): no board (\(search.reason))")
        let errors = Self.errors(board, truth: truth.frames[frame], width: width, height: height)
        print(String(format: "seed %d at %d×%d crf %d: corners %.2f%% of the length, scale %.2f%%", seed, width, height, crf,
                     100 * errors.corner, 100 * errors.scale))
        return errors
    }

    /// Largest corner distance over the board length, hole centre distance over the hole's
    /// apparent diameter, and the relative scale error, as `pitchside eval detection` measures them.
    static func errors(_ board: BoardDetection, truth f: FrameTruth, width: Int, height: Int)
        -> (corner: Double, hole: Double, scale: Double) {
        let w = Double(width), h = Double(height)
        let length = BoardGeometry.length / f.metresPerPixel
        let corner = zip(board.corners, f.boardCorners).map { hypot($0.x - $1[0] * w, $0.y - $1[1] * h) }.max() ?? .infinity
        let hole = hypot(board.hole.center.x - f.hole.cx * w, board.hole.center.y - f.hole.cy * h)
            / (2 * max(f.hole.rxPixels, f.hole.ryPixels))
        return (corner / length, hole, abs(board.metresPerPixel - f.metresPerPixel) / f.metresPerPixel)
    }
}

/// Side views with bags lying across the top before the first throw (the truth's initial bags),
/// through the codec: a bag covers the top's whole depth, the top's colour region stops at it,
/// and the part holding the hole passed for the whole board (dev3 games: 7003 one bag at the
/// front end, 7010 one across the middle, 7015 three in a row), 12–50 % short: every speed and
/// every bag's place was wrong for the whole game. `EndUnderBags` carries the end past them.
final class BoardUnderBagsTests: XCTestCase {
    /// held4-0013 at 1280×720 (frame 300 of its 1080p video as the detection worker sees it,
    /// cropped to 660 × 300 from (0, 300)): a tan top 130 pixels long and 12 deep, in rain, with
    /// a bag by the hole and three more across the rest. The bags cut the top's colour region
    /// into pieces no larger than half of it: the largest passed for a short overhead top or a
    /// short side view, and the board was never found all game. Joined across the bags, with
    /// them counted as top (`SurfaceFragments.Reach.acrossBags`), it is found whole.
    func testATopCutIntoPiecesByBagsLyingAcrossItIsFoundWhole() throws {
        // The game's truth for that frame, in the crop's pixels.
        let truth = FixtureTruth(corners: [(202.4, 158.7), (313.3, 178.2), (296.2, 189.9), (180.4, 169.4)],
                                 hole: (212.8, 167.7), holeDiameter: 2 * 11.335 / 1.5, metresPerPixel: 0.0070676 * 1.5)
        try assertBoard(inFixture: "side-view-1280-top-cut-by-bags.png", within: truth, label: "held4-0013 frame 300",
                        corners: 0.05, scale: 0.03)
    }
    /// held6-0013 (1920×1080, searched at 960×540) at 3 s, the region around the board as the
    /// detector searches it (2×2 pixels averaged): a yellow top 100 pixels long with two olive
    /// bags at its back end, standing over the far edge. They notch the outline, and the top
    /// alone fills 0.72 of it, under the 0.76 a whole top needs: the board was never found all
    /// game. Counting the bags within the outline as top, it is found, hole at the right end.
    func testBagsStandingOverTheFarEdgeDoNotHideTheTop() throws {
        // The game's truth, in the fixture's pixels.
        let truth = FixtureTruth(corners: [(114.3, 71.85), (200.1, 86.55), (190.2, 93.4), (100.6, 78.05)],
                                 hole: (124.1, 77.7), holeDiameter: 11.489, metresPerPixel: 0.0068585 * 2)
        try assertBoard(inFixture: "side-view-960-notched-by-bags.png", within: truth, label: "held6-0013 at 3 s",
                        corners: 0.02, scale: 0.03)
    }

    /// held20-0006 at 1 s (1280×720, cropped to 800 × 400 from (480, 250)): a tan top 110
    /// pixels long, two olive bags lying across its far half. Behind them the top's paint is cut
    /// off its region, and the top alone fills 0.65 of its outline: under the 0.66 a notched top
    /// needed, the board went unfound for the game's first 8.5 s (its first throw judged without
    /// it, the census's first rest state after it). Counting the bags as top, it is found.
    func testTwoBagsAcrossTheFarHalfOfASmallTopDoNotHideIt() throws {
        // The game's truth, in the fixture's pixels.
        let truth = FixtureTruth(corners: [(491.64, 227.9), (597.48, 209.24), (620.15, 219.02), (508.74, 238.64)],
                                 hole: (588.12, 217.6), holeDiameter: 14.632, metresPerPixel: 0.0110673)
        try assertBoard(inFixture: "side-view-1280-bags-across-far-half.png", within: truth, label: "held20-0006 at 1 s",
                        corners: 0.02, scale: 0.03)
    }

    /// held16-0006 at 1 s (1280×720, cropped to 800 × 400 from (480, 250)): a yellow top 110
    /// pixels long with a painted border and a ring around the hole, an olive bag on its front
    /// end. The ring cuts the hole off the top's region, so counting the bag as top put the hole
    /// outside the filled top and the candidate was rejected as a bag taken for the hole; as it
    /// stands the top filled 0.83 of its outline: no board for 33 s, three throws lost. The hole
    /// is a dark patch wholly inside the outline. The border kept the back end out of the region
    /// too, the end found 10 % short of where the hole puts it (scale 11 % off): laid parallel to
    /// the front end there (`BackEndSquaring`).
    func testASmallTopWithARingAroundItsHoleAndABagOnItIsFound() throws {
        // The game's truth, in the fixture's pixels.
        let truth = FixtureTruth(corners: [(500.83, 221.66), (606.13, 203.78), (626.07, 216.75), (516.16, 235.38)],
                                 hole: (595.67, 213.56), holeDiameter: 14.272, metresPerPixel: 0.0111828)
        try assertBoard(inFixture: "side-view-1280-small-top-ring-and-bag.png", within: truth, label: "held16-0006 at 1 s",
                        corners: 0.06, scale: 0.03)
    }

    /// held13-0009 at frame 5 (960×540, rows 200-499): two olive bags lying across the front end
    /// bit into the top's region there, and the quadrilateral fitted to it bent that end the
    /// other way from the back end (corners 19 % of the length off, scale 11 %, all game). Laid
    /// parallel to the back end through its own middle (`FrontEndSquaring`), the front end
    /// stands within a few pixels: the bags hide where exactly it is. (Since the near side is
    /// drawn without the samples under those bags, the other three corners lie within 1.6 px
    /// instead of 3.1 px, and the near front corner, under the bags, 5.5 px off instead of 4.5:
    /// 6.2 % of the length.)
    func testAFrontEndBentByBagsIsLaidParallelToTheBackEnd() throws {
        // The game's truth, in the fixture's pixels.
        let truth = FixtureTruth(corners: [(151.89, 146.57), (237.57, 161.22), (227.44, 172.07), (138.26, 156.84)],
                                 hole: (161.64, 154.41), holeDiameter: 11.422, metresPerPixel: 0.0137602)
        try assertBoard(inFixture: "side-view-960-bags-across-front-end.png", within: truth, label: "held13-0009 at frame 5",
                        corners: 0.07, scale: 0.06)
    }

    /// The ends of the boards the synthetic games show in a side view lie 7-10° apart, and seen
    /// from close by and square on they fan out farther: either is left as found. A front end
    /// bent the other way, one long side half as long again as the other, is laid parallel to
    /// the back end through its own middle.
    func testOnlyAFrontEndBentApartFromTheBackEndIsLaidParallelToIt() throws {
        // held13-0009's truth (back end, with the hole, on the left: corners 0 and 3).
        let truth = [PlanePoint(151.89, 146.57), PlanePoint(237.57, 161.22), PlanePoint(227.44, 172.07), PlanePoint(138.26, 156.84)]
        XCTAssertNil(FrontEndSquaring.square(truth, backEdgeStart: 3))
        // Fanned out 44° (a 240-pixel board 18 deep, its near side 6 % longer): perspective.
        let fanned = [PlanePoint(300, 200), PlanePoint(540, 200), PlanePoint(547.2, 218), PlanePoint(292.8, 218)]
        XCTAssertNil(FrontEndSquaring.square(fanned, backEdgeStart: 3))
        var bent = truth
        bent[1] = PlanePoint(217.5, 159.0)
        bent[2] = PlanePoint(240.9, 173.4)
        let squared = try XCTUnwrap(FrontEndSquaring.square(bent, backEdgeStart: 3))
        XCTAssertEqual(squared[0], bent[0])
        XCTAssertEqual(squared[3], bent[3])
        let back = squared[0] - squared[3], front = squared[1] - squared[2]
        XCTAssertEqual(back.x * front.y - back.y * front.x, 0, accuracy: 1e-6, "parallel")
        let bentMiddle = (bent[1] + bent[2]) * 0.5, toMiddle = bentMiddle - squared[2]
        XCTAssertEqual(front.x * toMiddle.y - front.y * toMiddle.x, 0, accuracy: 1e-6, "through the bent end's middle")
        for k in [1, 2] { XCTAssertLessThan(squared[k].distance(to: truth[k]), 5, "corner \(k): \(squared[k])") }
    }

    /// held15-0010 at 1.63 s (960×540): the top's region ran on past the back end's far corner
    /// into the grass, and the back end came out 43° from the front end, its far corner 14 pixels
    /// (17 % of the length) out, the long sides within 12 % of each other. Laid parallel to the
    /// front end where the hole places it (`BackEndSquaring`), both back corners stand within a
    /// few pixels. Ends as a board's truth has them, or a back end at its place, are left alone.
    func testABackEndBentAloneIsLaidParallelToTheFrontEndWhereTheHolePlacesIt() throws {
        // The game's truth and the quadrilateral found, in the picture's pixels (back end: 1-2).
        let truth = [PlanePoint(731.62, 352.79), PlanePoint(808.91, 338.35), PlanePoint(828.44, 348.41), PlanePoint(746.78, 363.65)]
        let found = [PlanePoint(733.8, 353.5), PlanePoint(822.86, 336.80), PlanePoint(824.52, 347.75), PlanePoint(745.42, 362.56)]
        let hole = PlanePoint(802.79, 346.24)
        XCTAssertNil(BackEndSquaring.square(truth, backEdgeStart: 1, holeCentre: PlanePoint(803.50, 346.03)))
        // A front end bent (held13-0009, below) is not this: its back end lies where its hole puts it.
        let held13 = [PlanePoint(151.89, 146.57), PlanePoint(237.57, 161.22), PlanePoint(227.44, 172.07), PlanePoint(138.26, 156.84)]
        var frontBent = held13
        frontBent[1] = PlanePoint(226.0, 159.5)
        XCTAssertNil(BackEndSquaring.square(frontBent, backEdgeStart: 3, holeCentre: PlanePoint(161.64, 154.41)))
        let squared = try XCTUnwrap(BackEndSquaring.square(found, backEdgeStart: 1, holeCentre: hole))
        XCTAssertEqual(squared[0], found[0])
        XCTAssertEqual(squared[3], found[3])
        let back = squared[2] - squared[1], front = found[3] - found[0]
        XCTAssertEqual(back.x * front.y - back.y * front.x, 0, accuracy: 1e-6, "parallel")
        XCTAssertLessThan(squared[1].distance(to: truth[1]), 4, "far back corner: \(squared[1])")
        XCTAssertLessThan(squared[2].distance(to: truth[2]), 6, "near back corner: \(squared[2])")
    }

    /// held28-0012 at 1 s (1920×1080 analysed at 1280×720, this crop of it): a white top whose
    /// painted border kept the back end out of the region, bent (its near corner 25 px short).
    /// Laid parallel to the front end where the hole places it, the back end missed the real one
    /// by 6.5 px at the near corner (5.5 % of the length, all game; the ends lie about 10° apart
    /// in perspective). Polished after it is laid, every corner lies within 2 % of the length.
    func testABackEndLaidWhereTheHolePlacesItIsPolishedOntoItsEdge() throws {
        let picture = try DetectionTestSupport.fixture("side-view-1280-bordered-top-back-end.png")
        let truth = FixtureTruth(corners: [(475.6, 167.8), (589.6, 148.0), (611.0, 156.6), (490.9, 177.4)],
                                 hole: (578.0, 156.0), holeDiameter: 15.55, metresPerPixel: 0.0102759)
        let board = try XCTUnwrap(BoardDetector().detect(in: picture))
        let error = truth.error(of: board)
        XCTAssertLessThan(error.corners, 0.02, error.description)
        XCTAssertLessThan(error.hole, 0.15, error.description)
        XCTAssertLessThan(error.scale, 0.03, error.description)
    }

    /// A bag lying on the top by a long side is not taken for the top's edge: where the colour
    /// inside a side is a bag's, its edge samples are left out of the side's line. held31-0010 at
    /// frame 981 (960×540, rows 280–419: a white top, an olive bag by the near edge; the near
    /// front corner was 2.6 % of the length off) and held31-0011 at frame 884 (rows 270–419: a
    /// white top with a painted border, two olive bags by the near edge; 4.3 %). In the second a
    /// yellow bag lies over the hole, so the hole's place is not asked there.
    func testABagLyingByALongSideDoesNotTiltIt() throws {
        let cases = [
            ("side-view-960-olive-bag-by-near-edge.png", true,
             FixtureTruth(corners: [(733.5, 75.7), (811.1, 61.0), (828.9, 68.7), (747.4, 84.1)],
                          hole: (804.9, 67.5), holeDiameter: 10.812, metresPerPixel: 0.0150861)),
            ("side-view-960-bordered-top-bags-by-near-edge.png", false,
             FixtureTruth(corners: [(149.4, 62.4), (227.2, 75.4), (212.1, 91.8), (129.7, 78.1)],
                          hole: (154.9, 72.5), holeDiameter: 11.04, metresPerPixel: 0.0150344)),
        ]
        for (fixture, holeShows, truth) in cases {
            try assertBoard(inFixture: fixture, within: truth, label: fixture, corners: 0.02, scale: 0.03, holeShows: holeShows)
        }
    }

    /// Counting bags within a notched outline as top never makes a wrong top, where the top as
    /// it stands does not pass: dev8-0016 at frame 72 (640×360, a top 60 pixels long, an olive
    /// bag over its far edge, the hole at the right end): the bag was taken for the hole at
    /// the left end; dev8-0009 at frame 331 (960×540, rows 300-419: a grey top on grey ground,
    /// no bags): its front face was counted in and the ends placed level. Either may give no
    /// board (the tracker keeps the one it has), never those.
    func testCountingBagsAsTopMakesNoWrongTop() throws {
        let cases = [
            ("side-view-640-bag-over-far-edge.png",
             FixtureTruth(corners: [(482.1, 243.3), (537.5, 232.8), (548.5, 236.2), (490.5, 247.2)],
                          hole: (532.3, 236.5), holeDiameter: 2 * 3.791, metresPerPixel: 0.0211559)),
            ("side-view-960-grey-top-no-bags.png",
             FixtureTruth(corners: [(152.0, 50.0), (235.5, 65.4), (223.8, 70.4), (136.9, 54.4)],
                          hole: (160.6, 55.1), holeDiameter: 2 * 5.644, metresPerPixel: 0.0140938)),
        ]
        for (fixture, truth) in cases {
            let picture = try DetectionTestSupport.fixture(fixture)
            guard let board = BoardDetector().detect(in: picture) else { continue }
            let error = truth.error(of: board)
            XCTAssertLessThan(error.hole, 0.15, "\(fixture): hole centre \(board.hole.center)")
            XCTAssertLessThan(error.corners, 0.05, "\(fixture): corners \(board.corners)")
        }
    }

    /// The board found in a fixture, or a failure saying why there is none.
    private func detectBoard(inFixture name: String) throws -> BoardDetection {
        let search = BoardDetector().search(in: try DetectionTestSupport.fixture(name))
        return try XCTUnwrap(search.detection, "no board (\(search.reason))")
    }

    /// The board found in `name` lies within `corners` (of its length) of `truth`'s corners, its
    /// hole within 15 % of the hole's diameter, its scale within `scale`; the errors are printed
    /// under `label`. Where a bag lies over the hole (`holeShows` false), its place is not asked.
    private func assertBoard(inFixture name: String, within truth: FixtureTruth, label: String, corners: Double, scale: Double,
                             holeShows: Bool = true, line: UInt = #line) throws {
        let board = try detectBoard(inFixture: name)
        let error = truth.error(of: board)
        print(String(format: "%@: confidence %.2f, ", label, board.confidence) + error.description)
        XCTAssertLessThan(error.corners, corners, "corners", line: line)
        if holeShows { XCTAssertLessThan(error.hole, 0.15, "hole centre", line: line) }
        XCTAssertLessThan(error.scale, scale, "metres per pixel", line: line)
    }

    /// A synthetic game's truth for a fixture cut from one of its frames, in the fixture's pixels.
    struct FixtureTruth {
        var corners: [(Double, Double)]
        var hole: (Double, Double)
        var holeDiameter: Double
        var metresPerPixel: Double

        /// Worst corner (of the board's length), hole centre (of its diameter) and scale errors, as fractions.
        func error(of board: BoardDetection) -> (corners: Double, hole: Double, scale: Double, description: String) {
            let length = BoardGeometry.length / metresPerPixel
            let corner = zip(board.corners, corners).map { hypot($0.x - $1.0, $0.y - $1.1) }.max()! / length
            let holeOff = hypot(board.hole.center.x - hole.0, board.hole.center.y - hole.1) / holeDiameter
            let scale = abs(board.metresPerPixel - metresPerPixel) / metresPerPixel
            return (corner, holeOff, scale, String(format: "corners %.1f%% of the length, hole %.1f%% of its diameter, scale %.1f%%",
                                                   100 * corner, 100 * holeOff, 100 * scale))
        }
    }

    /// dev8-0000's first frame at 640×360, an olive bag on the top and two on the ground before
    /// it: the top found as it stands (confidence 0.68) is right; joined across the bags, another
    /// candidate placed the hole at the far end and scored 0.77, and the tracker kept it all game
    /// (three throws scored wrong). A top joined across bags is only the last resort.
    func testATopJoinedAcrossBagsNeverOutranksOneFoundAsItStands() throws {
        // The truth: hole at (530.1, 238.2), 7.7 pixels across; the board 59.6 pixels long.
        try assertBoard(in: "side-view-640-hole-end-and-bags.png", hole: PlanePoint(530.1, 238.2), holeDiameter: 7.7,
                        metresPerPixel: 0.0204635, scaleTolerance: 0.03)
    }

    /// The board found in a fixture picture has its hole within 15 % of its diameter of `hole`
    /// and its scale within `scaleTolerance` of `metresPerPixel`.
    private func assertBoard(in fixture: String, hole: PlanePoint, holeDiameter: Double, metresPerPixel: Double,
                             scaleTolerance: Double, line: UInt = #line) throws {
        let picture = try DetectionTestSupport.fixture(fixture)
        let board = try XCTUnwrap(BoardDetector().detect(in: picture), line: line)
        XCTAssertLessThan(board.hole.center.distance(to: hole) / holeDiameter, 0.15, "hole centre: \(board.hole.center)", line: line)
        XCTAssertEqual(board.metresPerPixel, metresPerPixel, accuracy: scaleTolerance * metresPerPixel, "metres per pixel", line: line)
    }

    /// held10-0003 at 640×360, an olive bag lying mid-way along a tan top: the top's colour
    /// region stops at the bag and at the hole, and that piece, carried on to the whole top,
    /// found its "hole" at the bag, 11 cm past where a hole can lie on the outline, and
    /// outranked the whole top found with its hole 3 cm off (the same confidence, more contrast):
    /// scored all game with the hole at the bag, three throws wrong. Among candidates of equal
    /// confidence, the hole's nearness to the regulation place counts.
    func testADarkBagAwayFromTheHolesPlaceDoesNotOutrankTheHole() throws {
        // The truth: hole at (104.3, 233.1), 7.2 pixels across; 0.02246 m per pixel.
        try assertBoard(in: "side-view-640-olive-bag-mid-top.png", hole: PlanePoint(104.3, 233.1), holeDiameter: 7.2,
                        metresPerPixel: 0.02246, scaleTolerance: 0.05)
    }

    /// held11-0001 at 640×360: an olive bag lying near a white top's front end, against grey-green
    /// grass, cuts the top's region, and the part behind it passes with its hole. The lines of
    /// `EndUnderBags` read the bag as ground for 16 of the 33 pixels found, past a quarter of the
    /// length found, and the board was found a third short all game (scale 66 % off).
    func testAGroundColouredBagNearTheFrontEndIsCrossed() throws {
        // The truth: hole at (108.6, 237.7), 7.6 pixels across; 0.020714 m per pixel.
        try assertBoard(in: "side-view-640-olive-bag-at-front-end.png", hole: PlanePoint(108.6, 237.7), holeDiameter: 7.6,
                        metresPerPixel: 0.020714, scaleTolerance: 0.03)
    }

    /// Without `EndUnderBags` this frame of 7015 gives corners 50 % and scale 98 % off (with it,
    /// about 2.4 % and 1.5 %). 7003's frame, one picture through the codec, is sharper than the
    /// game's video, where the outline stopped at the bag (corners 30 %, scale 39 % off over the
    /// whole game, `eval detection`); here it is found whole either way (a 52-pixel board: each
    /// end within about 1.5 px, scale about 5 % off).
    func testAnEndIsCarriedPastBagsLyingAcrossTheTop() throws {
        for (seed, width, height, after) in [(7003, 640, 360, 10), (7015, 1920, 1080, 50)] as [(UInt64, Int, Int, Int)] {
            let (game, truth) = DetectionTestSupport.syntheticGame(seed: seed, width: width, height: height, players: 2)
            XCTAssertTrue(truth.initialBags.contains { $0.place == .onBoard }, "seed \(seed): the scene has a bag on the board")
            let frame = truth.camera.firstSettledFrame + after
            XCTAssertLessThan(frame, truth.throwsTruth.first?.releaseFrame ?? 0, "seed \(seed): before the first throw")
            // Through the codec at the game's own quality, as its video shows it.
            let errors = try BoardSyntheticSceneTests.boardErrors(game, truth: truth, frame: frame, crf: game.settings.nuisances.crf, seed: seed)
            XCTAssertLessThan(errors.scale, 0.08, "seed \(seed): metres per pixel")
            XCTAssertLessThan(errors.corner, 0.05, "seed \(seed): corners")
        }
    }

    /// dev6-0013 (three bags across the front third, at 1280×720): the top's colour region ended
    /// along the first bag's slanting edge, so the found end lay on the bags at the far side and a
    /// few pixels short of them at the near side. The lines there started on paint, and the end
    /// stayed: the board measured 45 % short, its scale 58 % off, for the whole game.
    func testAnEndStoppingShortOfTheBagsOnItsNearSideIsCarriedPastThem() throws {
        for seed in [1000, 1001, 1002, 1003] as [UInt64] {
            var scene = BoardScene.sideView(seed: seed)
            let length = BoardGeometry.length
            // A band of bags across the top, 70 % of the way along from the left end.
            let along = [0.3 * length, 0.7 * length].max { scene.plane.point(along: $0, across: 0).x < scene.plane.point(along: $1, across: 0).x }!
            scene.boardBags = [-0.2, 0, 0.2].map { (along, $0, (230, 200, 40)) }
            let bagSide = BoardGeometry.bagSide / length * scene.lengthPixels
            let bagsStart = scene.plane.point(along: along, across: 0).x - bagSide / 2
            func side(_ a: PlanePoint, _ b: PlanePoint, atX x: Double) -> PlanePoint { a + (b - a) * ((x - a.x) / (b.x - a.x)) }
            var found = scene.corners
            found[1] = side(scene.corners[0], scene.corners[1], atX: bagsStart)
            found[2] = side(scene.corners[3], scene.corners[2], atX: bagsStart - 4)
            let picture = WorkImage(scene.render(seed: seed), maxSide: 1280)
            let carried = try XCTUnwrap(EndUnderBags.extend(found, image: picture), "seed \(seed): the end is carried")
            XCTAssertLessThan(carried[1].distance(to: scene.corners[1]), 2, "seed \(seed): far corner")
            XCTAssertLessThan(carried[2].distance(to: scene.corners[2]), 2, "seed \(seed): near corner")
        }
    }

    /// dev8-0016 (640×360): an olive bag lying across a light blue top before green grass. Along
    /// the top the bag reads as ground, so the lines past the end found at it stopped there and the
    /// board measured 40 % short all game. Ground before any paint is crossed for up to a bag.
    func testAnEndIsCarriedPastABagOfTheGroundsColour() throws {
        for seed in [1000, 1001, 1002, 1003] as [UInt64] {
            var scene = BoardScene.sideView(seed: seed)
            scene.boardColour = (140, 175, 222)
            let length = BoardGeometry.length
            let along = [0.25 * length, 0.75 * length].max { scene.plane.point(along: $0, across: 0).x < scene.plane.point(along: $1, across: 0).x }!
            scene.boardBags = [(along, 0, (90, 125, 62))]
            let bagSide = BoardGeometry.bagSide / length * scene.lengthPixels
            let bagStart = scene.plane.point(along: along, across: 0).x - bagSide / 2
            func side(_ a: PlanePoint, _ b: PlanePoint, atX x: Double) -> PlanePoint { a + (b - a) * ((x - a.x) / (b.x - a.x)) }
            var found = scene.corners
            found[1] = side(scene.corners[0], scene.corners[1], atX: bagStart)
            found[2] = side(scene.corners[3], scene.corners[2], atX: bagStart)
            let picture = WorkImage(scene.render(seed: seed), maxSide: 1280)
            let carried = try XCTUnwrap(EndUnderBags.extend(found, image: picture), "seed \(seed): the end is carried")
            XCTAssertLessThan(carried[1].distance(to: scene.corners[1]), 2, "seed \(seed): far corner")
            XCTAssertLessThan(carried[2].distance(to: scene.corners[2]), 2, "seed \(seed): near corner")
        }
    }

    /// A side view without bags on it keeps its ends, with a bag lying on the ground just past one
    /// of them: the lines past each end meet the ground, not the top's paint.
    func testAnEndGivingOntoTheGroundStays() throws {
        for seed in [1000, 1001, 1002, 1003] as [UInt64] {
            var scene = BoardScene.sideView(seed: seed)
            // A bag on the ground just past one end, the ground beyond it.
            let end = (scene.corners[1] + scene.corners[2]) * 0.5, out = scene.corners[1] - scene.corners[0]
            let bagSide = scene.bagSidePixels
            scene.groundBags = [(end + out * (0.6 * bagSide / out.distance(to: PlanePoint(0, 0))), bagSide, (200, 180, 30))]
            let picture = WorkImage(scene.render(seed: seed), maxSide: 1280)
            XCTAssertNil(EndUnderBags.extend(scene.corners, image: picture), "seed \(seed)")
        }
    }

    /// The hole finder a side view's drawn scene gives when its top is the lit region: the
    /// region under a point well inside the front half, with its same-paint fragments.
    private func litTopHoleFinder(_ scene: BoardScene, seed: UInt64, picture: ImageBuffer? = nil) -> HoleFinder {
        let work = WorkImage(picture ?? scene.render(seed: seed), maxSide: 1280).blurred()
        let (labels, regions) = RegionSegmenter().segment(work)
        let inside = scene.plane.point(along: 0.8 * BoardGeometry.length, across: 0)
        let region = regions[Int(labels[Int(inside.y) * work.width + Int(inside.x)])]
        let top = SurfaceFragments.join(region, regions: regions, labels: labels, width: work.width, height: work.height)
        let mask = RegionMask(labels: labels, imageWidth: work.width, members: top.members, box: top.box)
        let mean = region.meanColour
        return HoleFinder(labels: labels, image: work, boardLabels: top.members, mask: mask,
                          boardColour: ColourFeature(mean.0, mean.1, mean.2))
    }

    /// dev3-0012 (1920×1080, seen by the worker at 1280×720): a painted ring around the hole cut
    /// the strip of top between the hole and the back end off the top's colour region, so the
    /// hole opened to the outside ("enclosed 0") and the board was never found on 52 searches of
    /// the game; five throws were lost with it, while the polished quadrilateral and the hole were
    /// right. Here that strip is the same paint in shade, too dark to join the region
    /// (`SurfaceFragments`), and the hole is judged on the true outline: inside a side view's
    /// outline the top's paint counts as top, and the hole is enclosed.
    func testAHoleOpenOnlyToTheTopsOwnPaintIsEnclosed() throws {
        for seed in [1000, 1001, 1002, 1003] as [UInt64] {
            var scene = BoardScene.sideView(seed: seed)
            scene.boardColour = (225, 225, 215)
            scene.backStripShade = 0.8
            let finder = litTopHoleFinder(scene, seed: seed)
            let corners = scene.corners
            let regionOnly = try XCTUnwrap(finder.find(corners: corners, lengthAlongFirstEdge: true, paintInsideOutline: false))
            let withPaint = try XCTUnwrap(finder.find(corners: corners, lengthAlongFirstEdge: true, paintInsideOutline: true))
            print(String(format: "seed %d: hole contrast %.2f, enclosed by the region %.2f, with the paint inside the outline %.2f",
                         seed, withPaint.contrast, regionOnly.enclosed, withPaint.enclosed))
            XCTAssertGreaterThan(withPaint.contrast, 0.5, "seed \(seed): the hole is there")
            XCTAssertLessThan(regionOnly.enclosed, 0.5, "seed \(seed): the region alone leaves it open")
            XCTAssertGreaterThan(withPaint.enclosed, 0.8, "seed \(seed): the top's paint closes it")
        }
    }

    /// dev6-0000 (640×360, seen low): the strip of top between the hole and the far side is a
    /// pixel, and blur and the codec open it, so the hole reads as open to the outside and the
    /// board was never found. A gap through the far side is no gap between a person's legs: the
    /// hole is enclosed. One through the near side still is open.
    func testAHoleOpenThroughTheFarSideOnlyIsEnclosed() throws {
        for seed in [1000, 1001, 1002, 1003] as [UInt64] {
            let scene = BoardScene.sideView(seed: seed)
            let half = BoardGeometry.width / 2, r = BoardGeometry.holeRadius
            // The side of the top farther up the picture (the far side) has this sign of `across`.
            let farSign = scene.plane.point(along: BoardGeometry.holeFromBack, across: half).y
                < scene.plane.point(along: BoardGeometry.holeFromBack, across: -half).y ? 1.0 : -1.0
            /// The picture with a channel of ground from the hole to the side of `sign`.
            func opened(toward sign: Double) -> ImageBuffer {
                var picture = scene.render(seed: seed)
                for a in stride(from: -0.5 * r, through: 0.5 * r, by: 0.002) {
                    for c in stride(from: 0.0, through: half + 0.02, by: 0.002) {
                        let p = scene.plane.point(along: BoardGeometry.holeFromBack + a, across: sign * c)
                        let i = Int(p.y) * picture.stride + Int(p.x) * 3
                        picture.pixels[i] = UInt8(scene.groundColour.0)
                        picture.pixels[i + 1] = UInt8(scene.groundColour.1)
                        picture.pixels[i + 2] = UInt8(scene.groundColour.2)
                    }
                }
                return picture
            }
            for (sign, enclosed) in [(farSign, true), (-farSign, false)] {
                let finder = litTopHoleFinder(scene, seed: seed, picture: opened(toward: sign))
                let found = try XCTUnwrap(finder.find(corners: scene.corners, lengthAlongFirstEdge: true, paintInsideOutline: true))
                if enclosed {
                    XCTAssertGreaterThan(found.enclosed, 0.8, "seed \(seed): open through the far side")
                } else {
                    XCTAssertLessThan(found.enclosed, 0.5, "seed \(seed): open through the near side")
                }
            }
        }
    }

    /// dev3-0010: a side view's top was two colour regions, the lit front part and, in shade,
    /// the back part holding the hole (merged with the rail in the game). Judged by the lit
    /// region's labels, the shaded paint around the hole was "not board" as much as the hole,
    /// the contrast came out 0, and the board was found on one frame of the game only. Inside
    /// the outline the top's paint in shade is board, and the hole stands out.
    func testAHoleInTheShadedPartOfATopStandsOut() throws {
        for seed in [1000, 1001, 1002, 1003] as [UInt64] {
            var scene = BoardScene.sideView(seed: seed)
            scene.boardColour = (225, 225, 215)
            scene.backStripShade = 0.72
            scene.shadeFromBack = 0.45
            let finder = litTopHoleFinder(scene, seed: seed)
            let regionOnly = try XCTUnwrap(finder.find(corners: scene.corners, lengthAlongFirstEdge: true, paintInsideOutline: false))
            let withPaint = try XCTUnwrap(finder.find(corners: scene.corners, lengthAlongFirstEdge: true, paintInsideOutline: true))
            print(String(format: "seed %d: hole contrast judged by the lit region %.2f, with the paint inside the outline %.2f (enclosed %.2f)",
                         seed, regionOnly.contrast, withPaint.contrast, withPaint.enclosed))
            XCTAssertLessThan(regionOnly.contrast, 0.35, "seed \(seed): the lit region alone sees no hole")
            XCTAssertGreaterThan(withPaint.contrast, 0.6, "seed \(seed): the hole stands out of the shaded paint")
            XCTAssertGreaterThan(withPaint.enclosed, 0.8, "seed \(seed)")
            let hole = scene.holeCentre
            let found = try XCTUnwrap(BoardPlane(corners: scene.corners, lengthAlongFirstEdge: true, backEdgeStart: withPaint.backEdgeStart))
                .point(along: withPaint.along, across: withPaint.across)
            XCTAssertLessThan(found.distance(to: hole), 0.02 * scene.lengthPixels, "seed \(seed): at the hole")
        }
    }

    /// Two of the real overhead photographs (at a third of their size) hold a scrap 14 px long
    /// with a dark speck that passed as a side view once the paint inside its outline counted;
    /// a side view then rules out the upright overhead board. Paint counts only on tops at least
    /// `minimumPaintedLength` long, and these give the board seen from above.
    func testAScrapWithASpeckIsNoSideView() throws {
        guard let dir = DetectionTestSupport.chuckVisionDirectory else { throw XCTSkip("chuckvision-dev not present") }
        for name in ["0020.jpg", "0039.jpg"] {
            let image = try DetectionTestSupport.decode(dir.appendingPathComponent("img").appendingPathComponent(name), divisor: 3)
            let board = try XCTUnwrap(BoardDetector().detect(in: image), name)
            let e = (0..<4).map { board.corners[$0].distance(to: board.corners[($0 + 1) % 4]) }
            print(name, "board sides", e.map { Int($0) })
            XCTAssertGreaterThan(e.max() ?? 0, 100, "\(name): the overhead board, not a scrap")
        }
    }
}

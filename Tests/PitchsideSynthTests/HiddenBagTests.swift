import Foundation
import XCTest
@testable import PitchsideSynth

/// The truth's `hidden` flag: ground bags the board hides from the camera.
final class HiddenBagTests: XCTestCase {
    func plan(_ side: ThrowerSide, seed: UInt64 = 71) -> GamePlan {
        var settings = SynthFixtures.small(seed: seed)
        settings.side = side
        settings.width = 1280
        settings.height = 720
        return GamePlan(settings: settings)
    }

    func groundBag(_ x: Double, _ z: Double) -> RestingBag {
        RestingBag(id: 99, position: Vec3(x, BagPhysics.halfThickness, z), place: .onGround, color: RGB(210, 30, 40),
                   yawDegrees: 12, since: 0, until: nil, throwIndex: 1, player: 0)
    }

    func isHidden(_ bag: RestingBag, _ plan: GamePlan) -> Bool {
        BagVisibility.isHidden(bag, board: plan.board, cameraSign: plan.cameraSign, camera: plan.camera)
    }

    /// Half a bag clear of each rail, halfway along the board.
    func besideTheRails(_ plan: GamePlan) -> (behind: RestingBag, before: RestingBag) {
        let x = plan.board.frontX + 0.6, z = BoardModel.width / 2 + BagPhysics.side / 2 + 0.02
        return (groundBag(x, -plan.cameraSign * z), groundBag(x, plan.cameraSign * z))
    }

    func testBagBehindTheBoardIsHiddenAndOneInFrontIsNot() {
        for side in ThrowerSide.allCases {
            for seed: UInt64 in [71, 72, 73] {
                let plan = plan(side, seed: seed)
                let (behind, before) = besideTheRails(plan)
                XCTAssertTrue(isHidden(behind, plan), "\(side) seed \(seed)")
                XCTAssertFalse(isHidden(before, plan), "\(side) seed \(seed)")
                // Short of the board, and far behind it where the board covers nothing.
                XCTAssertFalse(isHidden(groundBag(plan.board.frontX - 0.4, 0), plan))
                XCTAssertFalse(isHidden(groundBag(plan.board.frontX + 0.6, -plan.cameraSign * 2.5), plan))
            }
        }
    }

    func testBagsOffTheGroundAreNeverHidden() {
        let plan = plan(.left)
        var onBoard = groundBag(plan.board.holeCentre.x, 0)
        onBoard.place = .onBoard
        onBoard.position = plan.board.point(s: 0.4, w: 0, lift: BagPhysics.halfThickness)
        var inHole = onBoard
        inHole.place = .inHole
        inHole.position = plan.board.holeCentre
        XCTAssertFalse(isHidden(onBoard, plan))
        XCTAssertFalse(isHidden(inHole, plan))
    }

    /// The flag agrees with the pixels: the share of a bag's pixels it still changes once the
    /// whole scene is drawn, for bags from well behind the board to beside its near rail.
    func testHiddenAgreesWithWhatIsDrawn() {
        for side in ThrowerSide.allCases {
            let plan = plan(side)
            let sign = plan.cameraSign, x = plan.board.frontX + 0.6
            let empty = CairoCanvas(width: 1280, height: 720)
            ScenePainter(plan: plan).paint(empty, camera: plan.camera, bags: [])
            let farSide = [0.4, 0.55, 0.7, 0.85, 1.0, 1.3].map { groundBag(x, -sign * $0) }
            let behindTheBack = [0.0, -0.3].map { groundBag(plan.board.backX + 0.1, sign * $0) }
            for bag in farSide + behindTheBack + [besideTheRails(plan).before] {
                let box = BagPainter.groundFaces(bag).flatMap { $0.map(plan.camera.project) }
                // The bag drawn over everything, and in its place in the scene.
                let over = CairoCanvas(width: 1280, height: 720)
                over.copy(from: empty, x0: 0, y0: 0)
                BagPainter.resting(over, camera: plan.camera, bag: bag, board: plan.board)
                let scene = CairoCanvas(width: 1280, height: 720)
                ScenePainter(plan: plan).paint(scene, camera: plan.camera, bags: [bag])
                let inView = Double(differing(scene, empty, around: box)) / Double(differing(over, empty, around: box))
                let covered = BagVisibility.coveredShare(of: bag, board: plan.board, cameraSign: sign,
                                                         camera: plan.camera)
                let at = "\(side) at \(bag.position)"
                XCTAssertEqual(1 - inView, covered, accuracy: 0.1, at)
                if abs(inView - 0.5) > 0.1 { XCTAssertEqual(isHidden(bag, plan), inView < 0.5, at) }
            }
        }
    }

    func testTruthMarksGroundBagsAndOldTruthStillDecodes() throws {
        var settings = SynthFixtures.small(seed: 61, throwCount: 4)
        settings.nuisances.restingBags = 4
        let truth = SynthGame(settings: settings).truth()
        let bags = truth.initialBags + truth.censuses.flatMap(\.bags)
        XCTAssertFalse(bags.isEmpty)
        XCTAssertTrue(bags.allSatisfy { $0.hidden != nil })
        // Bags lying there from the start are short of the board, in view.
        XCTAssertTrue(truth.initialBags.allSatisfy { $0.hidden == false })
        let old = #"{"id": 1, "color": {"r": 1, "g": 2, "b": 3}, "place": "on_ground", "world": [0, 0, 0], "position": [0.5, 0.5]}"#
        XCTAssertNil(try JSONDecoder().decode(BagTruth.self, from: Data(old.utf8)).hidden)
    }

    /// Pixels that differ clearly between two canvases of one size (by about half the contrast
    /// of the bag's colours with the ground and the board, so that edge pixels the bag covers
    /// only in part count when it covers most of them), in the box around some points.
    func differing(_ a: CairoCanvas, _ b: CairoCanvas, around points: [Pixel]) -> Int {
        let xs = points.map(\.x), ys = points.map(\.y)
        let x0 = max(0, Int(xs.min()!) - 3), x1 = min(a.width - 1, Int(xs.max()!) + 3)
        let y0 = max(0, Int(ys.min()!) - 3), y1 = min(a.height - 1, Int(ys.max()!) + 3)
        var count = 0
        for y in y0...y1 {
            let ra = a.data + y * a.stride, rb = b.data + y * b.stride
            for x in x0...x1 {
                let d = (0..<3).map { abs(Int(ra[x * 4 + $0]) - Int(rb[x * 4 + $0])) }.reduce(0, +)
                if d > 100 { count += 1 }
            }
        }
        return count
    }
}

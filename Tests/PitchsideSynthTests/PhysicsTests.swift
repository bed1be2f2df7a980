import XCTest
@testable import PitchsideSynth

final class PhysicsTests: XCTestCase {
    let board = BoardModel(frontX: 8.23, frontHeight: 0.09)
    let release = Vec3(0.2, 1.1, 0.4)

    func testFlightAimedThroughTheHoleDropsIn() throws {
        let target = board.holeCentre + board.normal * BagPhysics.halfThickness
        for launch in [25.0, 35.0, 44.0] {
            let v = try XCTUnwrap(BagPhysics.aim(from: release, to: target, launchDegrees: launch))
            let path = BagPhysics.simulate(release: release, velocity: v, board: board, contact: BagContact())
            XCTAssertEqual(path.firstContact, .hole, "launch \(launch)")
            XCTAssertEqual(path.place, .inHole)
            XCTAssertEqual(path.phase(at: path.restTime + 0.1), .gone)
            // The aim really passes through the target.
            let p = path.position(at: path.landingTime)
            XCTAssertLessThan((p - target).length, 0.03)
        }
    }

    func testFlightAimedAtTheFrontEdgeLandsShort() throws {
        let target = Vec3(board.frontX, board.frontHeight * 0.5, 0)
        let v = try XCTUnwrap(BagPhysics.aim(from: release, to: target, launchDegrees: 30))
        let path = BagPhysics.simulate(release: release, velocity: v, board: board, contact: BagContact())
        XCTAssertEqual(path.firstContact, .frontFace)
        XCTAssertEqual(path.place, .onGround)
        XCTAssertLessThan(path.restPosition.x, board.frontX)
        XCTAssertEqual(path.restPosition.y, BagPhysics.halfThickness, accuracy: 1e-9)
    }

    func testBagOnTheBoardStopsOnTheSlope() throws {
        var contact = BagContact()
        contact.boardKeep = 0.2
        let target = board.point(s: 0.35, w: 0.05, lift: BagPhysics.halfThickness)
        let v = try XCTUnwrap(BagPhysics.aim(from: release, to: target, launchDegrees: 40))
        let path = BagPhysics.simulate(release: release, velocity: v, board: board, contact: contact)
        XCTAssertEqual(path.firstContact, .board)
        XCTAssertEqual(path.place, .onBoard)
        let (s, w, h) = board.surfaceCoordinates(path.restPosition)
        XCTAssertTrue(board.isOnTop(s: s, w: w))
        XCTAssertEqual(h, BagPhysics.halfThickness, accuracy: 1e-6)
        // It slid uphill a little, and stays put afterwards.
        XCTAssertGreaterThan(s, 0.35)
        XCTAssertEqual(path.position(at: path.restTime + 5), path.restPosition)
    }

    func testFastBagSlidesOffTheBack() throws {
        var contact = BagContact()
        contact.boardKeep = 0.95
        contact.boardFriction = 0.2
        let target = board.point(s: 1.05, w: 0.25, lift: BagPhysics.halfThickness)
        let v = try XCTUnwrap(BagPhysics.aim(from: release, to: target, launchDegrees: 22))
        let path = BagPhysics.simulate(release: release, velocity: v, board: board, contact: contact)
        XCTAssertEqual(path.firstContact, .board)
        XCTAssertEqual(path.place, .onGround)
        XCTAssertTrue(path.restPosition.x > board.backX || abs(path.restPosition.z) > BoardModel.width / 2)
        XCTAssertFalse(GroundFootprint(board: board).contains(x: path.restPosition.x, z: path.restPosition.z))
    }

    func testBagLandingJustBesideTheSideDoesNotEndUnderTheBoard() throws {
        // Comes down on the ground 4 cm outside the side rail: within half a bag of it.
        let target = Vec3(board.frontX + 0.6, BagPhysics.halfThickness, BoardModel.width / 2 + 0.04)
        let v = try XCTUnwrap(BagPhysics.aim(from: release, to: target, launchDegrees: 35))
        let path = BagPhysics.simulate(release: release, velocity: v, board: board, contact: BagContact())
        XCTAssertEqual(path.firstContact, .ground)
        XCTAssertEqual(path.place, .onGround)
        let footprint = GroundFootprint(board: board)
        for (p, phase) in zip(path.samples, path.phases) where phase == .sliding || phase == .rest {
            XCTAssertFalse(footprint.contains(x: p.x, z: p.z), "\(phase) at \(p)")
        }
        // It lies against the rail, its centre half a bag from the board's side.
        XCTAssertEqual(path.restPosition.z, BoardModel.width / 2 + BagPhysics.side / 2, accuracy: 1e-9)
        XCTAssertEqual(path.restPosition.y, BagPhysics.halfThickness, accuracy: 1e-9)
    }

    func testGroundBagSlidingTowardTheBoardStopsAtItsSide() throws {
        var samples: [Vec3] = [], phases: [BagPhase] = []
        let start = Vec3(board.frontX + 0.5, BagPhysics.halfThickness, -0.9)
        BagPhysics.slideOnGround(from: start, velocity: Vec3(0, -1, 16), board: board, contact: BagContact(),
                                 samples: &samples, phases: &phases)
        let rest = try XCTUnwrap(samples.last)
        XCTAssertEqual(phases.last, .rest)
        XCTAssertEqual(rest.z, -(BoardModel.width / 2 + BagPhysics.side / 2), accuracy: 0.01)
    }

    func testGroundFootprintPushesOutToTheNearestEdge() {
        let footprint = GroundFootprint(board: board)
        let margin = BagPhysics.side / 2, half = BoardModel.width / 2
        let middle = (board.frontX + board.backX) / 2
        XCTAssertEqual(footprint.nearestOutside(x: middle, z: half - 0.01).z, half + margin)
        XCTAssertEqual(footprint.nearestOutside(x: middle, z: -half).z, -(half + margin))
        XCTAssertEqual(footprint.nearestOutside(x: board.frontX - 0.03, z: 0.1).x, board.frontX - margin)
        XCTAssertEqual(footprint.nearestOutside(x: board.backX + 0.02, z: -0.2).x, board.backX + margin)
        // Outside already: stays where it is.
        XCTAssertEqual(footprint.nearestOutside(x: middle, z: 0.5).z, 0.5)
        XCTAssertEqual(footprint.nearestOutside(x: board.frontX - 0.2, z: 0).x, board.frontX - 0.2)
    }

    func testLongThrowLandsOnTheGroundBehind() throws {
        let target = Vec3(board.backX + 0.8, BagPhysics.halfThickness, 0)
        let v = try XCTUnwrap(BagPhysics.aim(from: release, to: target, launchDegrees: 40))
        let path = BagPhysics.simulate(release: release, velocity: v, board: board, contact: BagContact())
        XCTAssertEqual(path.firstContact, .ground)
        XCTAssertEqual(path.place, .onGround)
        XCTAssertGreaterThan(path.restPosition.x, board.backX)
    }

    func testScoring() {
        XCTAssertEqual(throwPoints(.hole, style: .underleg, rules: .apple), 15)
        XCTAssertEqual(throwPoints(.board, style: .underleg, rules: .apple), 5)
        XCTAssertEqual(throwPoints(.board, style: .underleg, rules: .official), 1)
        let totals = GameTotals.compute(
            throws: [(0, 1, 3), (1, 1, 1), (0, 1, 1), (1, 1, 0), (0, 2, 0), (1, 2, 3)], players: ["A", "B"],
            rules: .official, throwCount: 6)
        XCTAssertEqual(totals.scores, [3, 3])
        XCTAssertEqual(totals.innings.map(\.scored), [[3, 0], [0, 3]])
    }
}

/// Bags lie on one another instead of inside one another.
final class BagStackingTests: XCTestCase {
    func testBagOverAnotherRidesOnTop() {
        let two = 2 * BagPhysics.halfThickness
        XCTAssertEqual(BagStacking.lift(at: (0.02, 0), over: [(centre: (0, 0), lift: 0)]), two, accuracy: 1e-12)
        // On a bag that itself lies on one: a pile of three.
        XCTAssertEqual(BagStacking.lift(at: (0, 0.01), over: [(centre: (0, 0), lift: two)]), 2 * two, accuracy: 1e-12)
        // Half over its edge it tilts; clear of it, it lies on the surface.
        XCTAssertEqual(BagStacking.lift(at: (0.75 * BagPhysics.side, 0), over: [(centre: (0, 0), lift: 0)]), 0.5 * two,
                       accuracy: 1e-12)
        XCTAssertEqual(BagStacking.lift(at: (BagPhysics.side, 0), over: [(centre: (0, 0), lift: 0)]), 0)
        XCTAssertEqual(BagStacking.lift(at: (0, 0), over: []), 0)
    }

    /// In whole games, no two bags at rest on the same surface lie inside each other: where
    /// their squares overlap by half, the later one lies a bag's thickness higher.
    func testBagsAtRestInAGameNeverInterpenetrate() {
        var piles = 0
        for seed: UInt64 in 1000..<1006 {
            var settings = SynthFixtures.small(seed: seed, throwCount: 8, clean: false, styles: [])
            settings.aimSpread = 0.25
            let plan = GamePlan(settings: settings)
            let board = plan.board
            let bags = plan.restingBags.filter { $0.place == .onBoard }
            for (i, a) in bags.enumerated() {
                for b in bags[(i + 1)...] where a.isPresent(at: b.since) {
                    let pa = board.surfaceCoordinates(a.position), pb = board.surfaceCoordinates(b.position)
                    guard hypot(pa.s - pb.s, pa.w - pb.w) <= 0.5 * BagPhysics.side else { continue }
                    piles += 1
                    XCTAssertGreaterThanOrEqual(pb.height - pa.height, 2 * BagPhysics.halfThickness - 1e-9,
                                                "seed \(seed): bag \(b.id) lies on bag \(a.id)")
                    XCTAssertEqual(b.lift, pb.height - BagPhysics.halfThickness, accuracy: 1e-9)
                }
            }
        }
        XCTAssertGreaterThan(piles, 0, "no bag came to rest on another: the test saw nothing")
    }

    /// Bags lying there when the game starts never lie inside each other: each clears the others
    /// by a bag's side, where one would no longer ride on the other (dev8-0007 drew two ground
    /// bags 1 cm apart).
    func testBagsLyingThereAtTheStartLieApart() {
        var pairs = 0
        for seed: UInt64 in 2000..<2100 {
            var settings = SynthFixtures.small(seed: seed)
            settings.nuisances.restingBags = 3
            let bags = GamePlan(settings: settings).restingBags.filter { $0.throwIndex == nil }
            XCTAssertEqual(bags.count, 3)
            for (i, a) in bags.enumerated() {
                for b in bags[(i + 1)...] where a.place == b.place {
                    pairs += 1
                    XCTAssertGreaterThanOrEqual(hypot(a.position.x - b.position.x, a.position.z - b.position.z),
                                                BagPhysics.side, "seed \(seed): bags \(a.id) and \(b.id)")
                }
            }
        }
        XCTAssertGreaterThan(pairs, 100)
    }
}

import PitchsideCore
import XCTest
@testable import PitchsideGame

final class MeasurementTests: XCTestCase {
    let board = GameScript.board

    func testOutcomeRegions() {
        XCTAssertEqual(OutcomeJudge.fromFlight(landing: GameScript.hole, board: board), .hole)
        XCTAssertEqual(OutcomeJudge.fromFlight(landing: GameScript.boardSpot, board: board), .board)
        XCTAssertEqual(OutcomeJudge.fromFlight(landing: GameScript.missSpot, board: board), .miss)
        // Just above the surface still counts (regions extended upward), far above does not.
        XCTAssertEqual(OutcomeJudge.fromFlight(landing: Vec2(0.74, 0.60), board: board), .board)
        XCTAssertEqual(OutcomeJudge.fromFlight(landing: Vec2(0.74, 0.50), board: board), .miss)
        XCTAssertEqual(OutcomeJudge.fromFlight(landing: Vec2(0.83, 0.59), board: board), .hole)
    }

    /// A flight from (0.2, 0.5) coming down at `landing` one second later, sampled at 30 fps and
    /// lost `lostBefore` seconds before it lands.
    static func flight(landingAt landing: Vec2, lostBefore: Double) -> [TimedPoint] {
        let start = Vec2(0.2, 0.5), g = 0.5  // normalized units per s²
        let vx = landing.x - start.x, vy = landing.y - start.y - g
        return stride(from: 0.0, through: 1.0 - lostBefore, by: 1.0 / 30).map { t in
            TimedPoint(x: start.x + vx * t, y: start.y + vy * t + g * t * t, ptsUs: Int64((t * 1e6).rounded()))
        }
    }

    func testALostDescentIsCarriedOnToWhereItComesDown() {
        // Lost 0.2 s before landing: the last points are well above every region.
        for (spot, outcome) in [(GameScript.boardSpot, PSThrowOutcome.board), (GameScript.hole, .hole),
                                (Vec2(0.95, 0.60), .miss), (GameScript.missSpot, .miss)] {
            let points = Self.flight(landingAt: spot, lostBefore: 0.2)
            XCTAssertEqual(OutcomeJudge.fromFlight(landing: points.last!.point, board: board), .miss, "\(spot): last point is in the air")
            XCTAssertEqual(OutcomeJudge.fromFlight(points: points, board: board), outcome, "\(spot)")
        }
        // Lost while still rising: the fit of its first 0.3 s carries it on all the same.
        let rising = Self.flight(landingAt: GameScript.boardSpot, lostBefore: 0.7)
        XCTAssertEqual(OutcomeJudge.fromFlight(points: rising, board: board), .board)
        // Too few points to fit: the last point decides.
        XCTAssertEqual(OutcomeJudge.fromFlight(points: Array(Self.flight(landingAt: GameScript.boardSpot, lostBefore: 0.2).prefix(3)),
                                               board: board), .miss)
    }

    func testCensusConfirmation() {
        let script = GameScript()
        XCTAssertEqual(OutcomeJudge.fromCensus(script.census(0, place: .onGround, bagID: 1).census, previous: nil), .miss)
        XCTAssertEqual(OutcomeJudge.fromCensus(script.census(0, place: .inHole, bagID: 1).census, previous: nil), .hole)
        var before = PSBoardCensus()
        before.onBoard = 1
        var after = PSBoardCensus()
        after.onBoard = 1
        after.inHole = 1
        XCTAssertEqual(OutcomeJudge.fromCensus(after, previous: before), .hole)
        XCTAssertNil(OutcomeJudge.fromCensus(before, previous: before))
    }

    /// A re-shaded bag is left to the flight, though the census counts a bag come down on it (a
    /// bag came through the air and none crossed the hole's mouth): the count's rise alone does
    /// not say the thrown bag rests there.
    func testABagCountedOnAReshadedOneIsLeftToTheFlight() {
        var before = PSBoardCensus()
        before.onBoard = 1
        var after = before
        after.onBoard = 2
        XCTAssertEqual(OutcomeJudge.fromCensus(after, previous: before), .board, "the case: a count's rise alone says board")
        after.changes = [PSCensusChange.of(.censusChangeReshaded, bagID: 1, place: .onBoard)]
        XCTAssertNil(OutcomeJudge.fromCensus(after, previous: before))
    }

    /// A bag the census sees again (removed at an earlier rest state, faded from view) is no
    /// thrown bag: the board count's rise it makes says nothing of where the thrown one rests
    /// (held19-0003 throw 5, in the hole, was scored on the board so).
    func testABagSeenAgainDoesNotPlaceTheThrownBag() {
        var before = PSBoardCensus()
        before.onBoard = 1
        var after = before
        after.onBoard = 2
        after.changes = [PSCensusChange.of(.censusChangeSeenAgain, bagID: 1, place: .onBoard)]
        XCTAssertNil(OutcomeJudge.fromCensus(after, previous: before))
        after.onBoard = 3
        XCTAssertEqual(OutcomeJudge.fromCensus(after, previous: before), .board, "one more than was seen again")
    }

    /// Bags the census says were knocked in or off are not the thrown bag: their rise in a count
    /// says nothing of where it rests (held-0003 throw 2).
    func testBagsKnockedInOrOffDoNotPlaceTheThrownBag() {
        var before = PSBoardCensus()
        before.onBoard = 3
        var knocked = PSBoardCensus()
        knocked.onBoard = 1
        knocked.inHole = 2
        knocked.changes = [UInt32(2), 3].map { PSCensusChange.of(.censusChangeKnockedIn, bagID: $0, place: .inHole) }
        XCTAssertNil(OutcomeJudge.fromCensus(knocked, previous: before))
        // One more in the hole than were knocked in: that one is the thrown bag.
        knocked.inHole = 3
        XCTAssertEqual(OutcomeJudge.fromCensus(knocked, previous: before), .hole)

        var off = PSBoardCensus()
        off.onBoard = 2
        off.onGround = 1
        off.changes = [PSCensusChange.of(.censusChangeKnockedOff, bagID: 1, place: .onGround)]
        XCTAssertNil(OutcomeJudge.fromCensus(off, previous: before))
    }

    /// One throw brings one bag: when the rest state after it lists two new bags, the thrown one is
    /// the one nearest where the flight came down, whatever the census's order (held22-0016 throw
    /// 1 at 640×360: a blob above the top's far edge counted on the ground, listed first beside the
    /// thrown bag on the board; the throw was scored a miss).
    func testOfTwoNewBagsTheOneWhereTheFlightCameDownIsTheThrownOne() {
        var census = PSBoardCensus()
        census.header.frameWidth = 640
        census.header.frameHeight = 360
        census.onBoard = 1
        census.onGround = 1
        func bag(_ id: UInt32, _ x: Double, _ y: Double, _ place: PSBagPlace) -> PSBagAtRest {
            var b = PSBagAtRest()
            b.id = id
            b.position = Vec2(x, y).wire
            b.place = place
            return b
        }
        census.bags = [bag(2, 0.809, 0.647, .onGround), bag(3, 0.802, 0.669, .onBoard)]
        census.changes = [PSCensusChange.of(.censusChangeNewBag, bagID: 2, place: .onGround),
                          PSCensusChange.of(.censusChangeNewBag, bagID: 3, place: .onBoard)]
        XCTAssertEqual(OutcomeJudge.fromCensus(census, previous: nil), .miss, "the case: the first listed")
        XCTAssertEqual(OutcomeJudge.fromCensus(census, previous: nil, landing: Vec2(0.801, 0.669)), .board)
        XCTAssertEqual(OutcomeJudge.fromCensus(census, previous: nil, landing: Vec2(0.811, 0.645)), .miss)
        // One new bag: as listed, wherever the flight came down.
        census.changes.removeLast()
        XCTAssertEqual(OutcomeJudge.fromCensus(census, previous: nil, landing: Vec2(0.801, 0.669)), .miss)
    }

    func testReleaseAngleFromTheThrowingForearm() {
        var pose = PSPoseObservation()
        pose.present = true
        func joint(_ n: JointName, _ x: Double, _ y: Double) -> PSJoint {
            var j = PSJoint()
            j.name = n.rawValue
            j.position = Vec2(x, y).wire
            j.confidence = 0.9
            return j
        }
        // Right forearm 45° up (in pixels: 16:9 frame), left arm hanging far from the bag.
        pose.joints = [joint(.rightElbow, 0.20, 0.50), joint(.rightWrist, 0.20 + 0.05 * 1080 / 1920, 0.45),
                       joint(.leftElbow, 0.10, 0.60), joint(.leftWrist, 0.10, 0.68)]
        let angle = ThrowMeasurement.releaseAngle(poses: [pose], releasePts: 0, bag: Vec2(0.23, 0.44),
                                                  frameWidth: 1920, frameHeight: 1080)
        XCTAssertEqual(try XCTUnwrap(angle), 45, accuracy: 0.01)
        XCTAssertNil(ThrowMeasurement.releaseAngle(poses: [], releasePts: 0, bag: Vec2(0, 0), frameWidth: 1, frameHeight: 1))
    }

    /// The bag is first seen 5 frames after it left the hand, when the forearm has swung on by
    /// 50°: the release pose is found where the wrist meets the fitted path extrapolated back.
    func testReleaseAngleIsTakenWhereTheBagLeavesTheHand() throws {
        let frame = GameScript.frameUs, release: Int64 = 100 * GameScript.frameUs, seen = release + 5 * frame
        var fit = PSTrajectoryObservation()
        fit.uuid = "bag"
        fit.timeRangeStartUs = seen
        (fit.x0, fit.y0, fit.vx, fit.vy, fit.ay) = (0.30, 0.50, 0.6, -0.5, 1.2)
        func bag(_ pts: Int64) -> Vec2 {
            let s = Double(pts - seen) / 1e6
            return Vec2(fit.x0 + fit.vx * s, fit.y0 + fit.vy * s + 0.5 * fit.ay * s * s)
        }
        func joint(_ n: JointName, _ p: Vec2) -> PSJoint {
            var j = PSJoint()
            j.name = n.rawValue
            j.position = p.wire
            j.confidence = 0.9
            return j
        }
        // The wrist rides with the bag until release and falls behind after; the forearm
        // turns 10° a frame (45° at release); the other arm hangs far away.
        func poses(wristOffset: Double) -> [PSPoseObservation] {
            (-8...6).map { k -> PSPoseObservation in
                let pts = release + Int64(k) * frame
                var wrist = bag(pts)
                wrist.y += wristOffset + 0.004 * Double(abs(k))
                let angle = (45 + 10 * Double(k)) * .pi / 180
                let elbow = Vec2(wrist.x - 0.03 * cos(angle) * 1080 / 1920, wrist.y + 0.03 * sin(angle))
                var p = PSPoseObservation()
                p.header.ptsUs = pts
                p.present = true
                p.personBox.height = 0.3
                p.joints = [joint(.rightElbow, elbow), joint(.rightWrist, wrist),
                            joint(.leftElbow, Vec2(0.1, 0.6)), joint(.leftWrist, Vec2(0.1, 0.7))]
                return p
            }
        }
        let points = (0..<20).map { k -> TimedPoint in
            let pts = seen + Int64(k) * frame
            return TimedPoint(x: bag(pts).x, y: bag(pts).y, ptsUs: pts)
        }
        let flight = AssembledThrow(points: points, releaseFit: fit, fragments: ["bag"])
        let m = ThrowMeasurement.measure(flight, board: board, poses: poses(wristOffset: 0), frameWidth: 1920, frameHeight: 1080)
        XCTAssertEqual(try XCTUnwrap(m.releaseAngleDeg), 45, accuracy: 0.5)
        // Nobody's wrist near the bag's path (the person seen is not the thrower): no angle.
        let away = ThrowMeasurement.measure(flight, board: board, poses: poses(wristOffset: 0.2), frameWidth: 1920, frameHeight: 1080)
        XCTAssertNil(away.releaseAngleDeg)
    }

    func testSpeedWithoutTimeFitUsesPoints() {
        let script = GameScript()
        let pts = script.flight(from: GameScript.release, to: GameScript.hole, startFrame: 0, frames: 30)
        var fit = PSTrajectoryObservation()
        fit.uuid = "x"
        let t = AssembledThrow(points: pts, releaseFit: fit, fragments: ["x"])
        let m = ThrowMeasurement.measure(t, board: board, poses: [], frameWidth: 1920, frameHeight: 1080)
        let vx = (GameScript.hole.x - GameScript.release.x) * 1920
        let vy = (GameScript.hole.y - GameScript.release.y - 0.6) * 1080
        let expected = (vx * vx + vy * vy).squareRoot() * GameScript.metresPerPixel
        XCTAssertEqual(m.speedMps, expected, accuracy: expected * 0.1, "finite differences are close")
        XCTAssertNil(m.releaseAngleDeg)
    }
}

import PitchsideCore
import XCTest
@testable import PitchsideGame

/// Picking the thrower out of frames that show two players (`ThrowerPoses`).
final class ThrowerPosesTests: XCTestCase {
    private let script = GameScript()

    /// The scripted thrower's poses around a release at frame 100.
    private func swing(_ type: PSThrowType) -> [PSPoseObservation] {
        (56...110).map { f in script.pose(f, type: type, k: f - 100).pose }
    }

    /// `pose` moved `dx` across the picture (joints and box).
    private func shifted(_ pose: PSPoseObservation, _ dx: Double) -> PSPoseObservation {
        var p = pose
        p.joints = p.joints.map { j in
            var j = j
            j.position.x += dx
            return j
        }
        p.personBox.x += dx
        return p
    }

    private func asOther(_ pose: PSPoseObservation) -> PSPersonPose {
        var other = PSPersonPose()
        other.presence = pose.presence
        other.joints = pose.joints
        other.personBox = pose.personBox
        return other
    }

    /// Frames whose first person is a player idling `dx` away and whose `others` hold the thrower.
    private func twoPlayers(_ type: PSThrowType, idleAt dx: Double) -> [PSPoseObservation] {
        swing(type).map { thrower in
            var frame = shifted(script.pose(Int(thrower.header.seq), type: PSThrowType.none, k: Int(thrower.header.seq)).pose, dx)
            frame.others = [asOther(thrower)]
            return frame
        }
    }

    private let release = 100 * GameScript.frameUs
    private var releasePoint: Vec2 { GameScript.release }

    func testTheThrowerIsTheOneWhoseHandTheBagLeaves() {
        let frames = twoPlayers(.overhand, idleAt: -0.1)
        let thrower = ThrowerPoses.follow(frames, release: release, releasePoint: releasePoint)
        XCTAssertEqual(thrower.count, frames.count, "followed through every frame")
        XCTAssertTrue(thrower.allSatisfy(\.others.isEmpty))
        XCTAssertEqual(thrower.map(\.joints), swing(.overhand).map(\.joints), "the thrower's joints, not the idle player's")
        XCTAssertEqual(thrower.map(\.header.ptsUs), frames.map(\.header.ptsUs))
    }

    func testTheWaitingPlayerDecidesNothing() {
        let classifier = LearnedThrowTypeClassifier()
        for type in [PSThrowType.overhand, .underhand, .underleg] {
            let frames = twoPlayers(type, idleAt: -0.1)
            let primaryOnly = classifier.classify(frames.map { var f = $0; f.others = []; return f }, releasePtsUs: release)
            XCTAssertEqual(primaryOnly.type, PSThrowType.none, "the waiting player alone shows no throw")
            let thrower = ThrowerPoses.follow(frames, release: release, releasePoint: releasePoint)
            XCTAssertEqual(classifier.classify(thrower, releasePtsUs: release).type,
                           classifier.classify(swing(type), releasePtsUs: release).type, "\(type)")
        }
    }

    /// A frame that shows only the other player (the thrower unseen) is left out, not taken for the thrower.
    func testAFrameWithoutTheThrowerIsLeftOut() {
        var frames = twoPlayers(.underhand, idleAt: -0.1)
        frames[10].others = []
        frames[11].present = false
        let thrower = ThrowerPoses.follow(frames, release: release, releasePoint: releasePoint)
        XCTAssertEqual(thrower.count, frames.count - 2)
        XCTAssertFalse(thrower.contains { $0.header.seq == frames[10].header.seq })
        XCTAssertEqual(thrower.first?.joints, swing(.underhand).first?.joints)
    }

    func testOnePersonInViewComesBackAsItIs() {
        let frames = swing(.underleg)
        XCTAssertEqual(ThrowerPoses.follow(frames, release: release, releasePoint: releasePoint), frames)
        XCTAssertEqual(ThrowerPoses.follow(twoPlayers(.underleg, idleAt: -0.1), release: release, releasePoint: nil),
                       twoPlayers(.underleg, idleAt: -0.1), "no release point: nothing to choose by")
    }

    func testPeopleListsEveryoneInAFrame() {
        let frame = twoPlayers(.overhand, idleAt: -0.1)[40]
        let people = ThrowerPoses.people(frame)
        XCTAssertEqual(people.count, 2)
        XCTAssertEqual(people[1].joints, swing(.overhand)[40].joints)
        XCTAssertEqual(people[1].header, frame.header)
        var nobody = frame
        nobody.present = false
        XCTAssertEqual(ThrowerPoses.people(nobody), [])
    }
}

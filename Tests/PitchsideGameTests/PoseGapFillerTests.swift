import PitchsideCore
import XCTest
@testable import PitchsideGame

final class PoseGapFillerTests: XCTestCase {
    private let script = GameScript()

    /// The scripted swing around a release at frame 100, one pose a frame.
    private func swing(_ type: PSThrowType) -> [PSPoseObservation] {
        (56...110).map { f in script.pose(f, type: type, k: f - 100).pose }
    }

    /// What a worker analysing every `stride`-th frame sends of `poses`.
    private func strided(_ poses: [PSPoseObservation], _ stride: UInt64) -> [PSPoseObservation] {
        poses.filter { $0.header.seq % stride == 0 }.map { p in
            var p = p
            p.shardIndex = 0
            p.shardCount = UInt32(stride)
            return p
        }
    }

    private func filled(_ poses: [PSPoseObservation]) -> [PSPoseObservation] {
        var filler = PoseGapFiller()
        return poses.flatMap { filler.fill($0) }
    }

    func testFillsTheFramesAStridedWorkerSkipped() {
        let full = swing(.overhand)
        let out = filled(strided(full, 2))
        XCTAssertEqual(out.map(\.header.seq), Array(56...110).map(UInt64.init))
        for (got, truth) in zip(out, full) {
            XCTAssertLessThanOrEqual(abs(got.header.ptsUs - truth.header.ptsUs), 1, "frame \(truth.header.seq)")
        }
        // A skipped frame's joints lie halfway between its neighbours'.
        let odd = out.first { $0.header.seq == 77 }!
        let before = full.first { $0.header.seq == 76 }!, after = full.first { $0.header.seq == 78 }!
        for joint in odd.joints {
            let a = before.joints.first { $0.name == joint.name }!, b = after.joints.first { $0.name == joint.name }!
            XCTAssertEqual(joint.position.x, (a.position.x + b.position.x) / 2, accuracy: 1e-12, joint.name)
            XCTAssertEqual(joint.position.y, (a.position.y + b.position.y) / 2, accuracy: 1e-12, joint.name)
        }
    }

    /// A swing seen on every other frame reads as the same swing: the classifier's features
    /// stay close to the full stream's and every scripted type is still told apart.
    func testHalfThePosesGiveTheSameThrowType() {
        let release = 100 * GameScript.frameUs
        let classifier = RuleThrowTypeClassifier()
        for type in [PSThrowType.overhand, .underhand, .underleg, .none] {
            let full = swing(type)
            let half = filled(strided(full, 2))
            let a = WindowFeatures.extract(PoseWindow.around(release: release, in: full), releasePtsUs: release)!
            let b = WindowFeatures.extract(PoseWindow.around(release: release, in: half), releasePtsUs: release)!
            let worst = zip(a, b).map { abs($0 - $1) }.max()!
            XCTAssertLessThan(worst, 0.35, "\(type)")
            XCTAssertEqual(classifier.classify(PoseWindow.around(release: release, in: half), releasePtsUs: release).type,
                           type, "\(type)")
            // Unfilled, the half stream's window would reach twice as far back in time.
            let unfilled = PoseWindow.around(release: release, in: strided(full, 2))
            XCTAssertLessThan(unfilled.first!.header.seq, PoseWindow.around(release: release, in: half).first!.header.seq)
        }
    }

    /// A frame analysed with nobody in it is not a gap, nor is a long run of frames not analysed.
    func testLeavesOtherGapsAlone() {
        let full = swing(.underhand)
        // Every frame analysed, one without a person: nothing invented in its place.
        var withAbsence = full
        withAbsence[10].present = false
        XCTAssertEqual(filled(withAbsence).map(\.header.seq), full.map(\.header.seq).filter { $0 != full[10].header.seq })
        // Frames lost by a worker taking every frame are filled like skipped ones, up to the limit.
        let lost = full.enumerated().filter { $0.offset % 3 != 1 }.map(\.element)
        XCTAssertEqual(filled(lost).map(\.header.seq), full.map(\.header.seq))
        // A gap longer than `maximumGap`: no fill.
        var halves = strided(full, 2)
        halves.removeSubrange(5...6)
        let out = filled(halves)
        XCTAssertGreaterThan(halves[5].header.seq - halves[4].header.seq, PoseGapFiller.maximumGap)
        XCTAssertFalse(out.contains { $0.header.seq > halves[4].header.seq && $0.header.seq < halves[5].header.seq })
        XCTAssertTrue(out.contains { $0.header.seq == halves[6].header.seq - 1 }, "the short gaps after it are filled")
        // The pose before the gap had nobody: no fill.
        var afterAbsence = strided(full, 2)
        afterAbsence[3].present = false
        XCTAssertFalse(filled(afterAbsence).contains { $0.header.seq == afterAbsence[3].header.seq + 1 })
        // A late pose comes through alone and does not move the filler back.
        var filler = PoseGapFiller()
        let even = strided(full, 2)
        _ = filler.fill(even[4])
        XCTAssertEqual(filler.fill(even[2]).map(\.header.seq), [even[2].header.seq])
        XCTAssertEqual(filler.fill(even[5]).map(\.header.seq), [even[5].header.seq - 1, even[5].header.seq])
    }
}

extension PoseGapFillerTests {
    /// Everyone in view is filled in, each from their own earlier pose: a skipped frame's
    /// second person lies halfway between that person's neighbouring poses.
    func testOtherPeopleAreFilledInToo() {
        let script = GameScript()
        func frame(_ f: Int) -> PSPoseObservation {
            var o = script.pose(f, type: PSThrowType.none, k: f).pose
            let thrower = script.pose(f, type: .overhand, k: f - 100).pose
            var other = PSPersonPose()
            other.presence = 0.8
            other.personBox = thrower.personBox
            other.personBox.x += 0.3
            other.joints = thrower.joints.map { j in
                var j = j
                j.position.x += 0.3
                return j
            }
            o.others = [other]
            return o
        }
        var filler = PoseGapFiller()
        _ = filler.fill(frame(90))
        let out = filler.fill(frame(92))
        XCTAssertEqual(out.count, 2)
        let middle = out[0]
        XCTAssertEqual(middle.header.seq, 91)
        XCTAssertEqual(middle.others.count, 1)
        let a = frame(90).others[0], b = frame(92).others[0]
        for joint in middle.others[0].joints {
            let ja = a.joints.first { $0.name == joint.name }!, jb = b.joints.first { $0.name == joint.name }!
            XCTAssertEqual(joint.position.x, (ja.position.x + jb.position.x) / 2, accuracy: 1e-12, joint.name)
            XCTAssertEqual(joint.position.y, (ja.position.y + jb.position.y) / 2, accuracy: 1e-12, joint.name)
        }
        XCTAssertEqual(middle.others[0].personBox.x, (a.personBox.x + b.personBox.x) / 2, accuracy: 1e-12)
    }
}

import PitchsideCore
import PitchsidePose
import PitchsideSynth
import XCTest

/// The pose estimator on a rendered game with exact joints (PitchsideSynth):
/// the small thrower (about a fifth of a 640 × 360 frame) is found through a
/// throw and the limb joints land near the truth.
final class SyntheticGameTests: XCTestCase {
    /// A one-throw game at 640 × 360.
    static func game(seed: UInt64, players: Int) -> SynthGame {
        var settings = SynthSettings.random(seed: seed)
        settings.width = 640
        settings.height = 360
        settings.setPlayerCount(players)
        settings.throwCount = 1
        return SynthGame(settings: settings)
    }

    func testFindsTheThrowerThroughAThrowWithSmallJointErrors() throws {
        let game = Self.game(seed: 7, players: 1)
        let truth = game.truth()
        let release = try XCTUnwrap(truth.throwsTruth.first).releaseFrame
        let estimator = try TestImages.estimator()
        var accuracy = PoseAccuracy()
        // The wind-up, release and follow-through: two thirds of a second.
        for index in max(0, release - 14)..<min(game.frameCount, release + 6) {
            let image = game.render(frame: index)
            let pose = estimator.process(image)
            let joints = truth.frames[index].joints[0].map { j in
                PoseAccuracy.TruthJoint(position: PosePoint(x: Float(j[0]) * 640, y: Float(j[1]) * 360), inFrame: j[2] > 0.5)
            }
            accuracy.add(found: pose?.joints.map(\.position), truth: joints,
                         personHeight: Float(truth.camera.throwerHeightFraction) * 360)
        }
        XCTAssertGreaterThanOrEqual(accuracy.visibleFrames, 18)
        XCTAssertGreaterThanOrEqual(accuracy.detectionRate, 0.98)
        let overall = try XCTUnwrap(accuracy.medianError())
        XCTAssertLessThanOrEqual(overall, 0.03, "median error over the scored joints")
        let worst = try XCTUnwrap(accuracy.worstJointMedian)
        XCTAssertLessThanOrEqual(worst.error, 0.05, "\(worst.joint)")
        print(String(format: "synthetic game seed 7: found %d/%d, median joint error %.2f%%, worst %@ %.2f%%",
                     accuracy.foundFrames, accuracy.visibleFrames, overall * 100, worst.joint.rawValue, worst.error * 100))
    }

    /// A two-player game: the player waiting is in view beside the thrower. Both are tracked
    /// within a second, each box on one player's true joints, so the game can tell who threw;
    /// an estimator limited to one person reports only one.
    func testTracksBothPlayersOfATwoPlayerGame() throws {
        let game = Self.game(seed: 11, players: 2)
        let truth = game.truth()
        let release = try XCTUnwrap(truth.throwsTruth.first).releaseFrame
        let estimator = try TestImages.estimator()
        let frames = max(0, release - 60)...release
        var people: [PoseResult] = []
        for index in frames { people = estimator.processPeople(game.render(frame: index)) }
        XCTAssertEqual(people.count, 2, "both players tracked by the release")
        // Each box holds a different player's true hips.
        let hips = truth.frames[release].joints.map { joints -> PosePoint in
            let right = joints[JointName.allCases.firstIndex(of: .rightHip)!]
            return PosePoint(x: Float(right[0]) * 640, y: Float(right[1]) * 360)
        }
        let owners = people.map { person in hips.firstIndex { person.personBox.contains($0) } }
        XCTAssertEqual(Set(owners.compactMap { $0 }), Set(hips.indices), "boxes \(people.map(\.personBox)), hips \(hips)")

        let single = try PoseEstimator(assets: PoseAssets.default(), configuration: .init(threads: 1, maxPeople: 1))
        var seen = 0
        for index in frames { seen = max(seen, single.processPeople(game.render(frame: index)).count) }
        XCTAssertEqual(seen, 1)
    }

    /// With one player in view, looks for a second person that keep finding nobody grow rarer:
    /// over 200 frames the detector runs about half as often as at the first pace.
    func testLooksForMorePeopleGrowRareWhenNobodyElseIsThere() throws {
        let game = Self.game(seed: 7, players: 1)
        let estimator = try PoseEstimator(assets: PoseAssets.default(), configuration: .init(threads: 1))
        for index in 0..<200 { _ = estimator.processPeople(game.render(frame: index)) }
        let configuration = estimator.configuration
        let atFirstPace = 200 / configuration.discoveryInterval * configuration.discoveryDetectorRuns
        XCTAssertEqual(estimator.statistics.posesFound, 200)
        XCTAssertLessThanOrEqual(estimator.statistics.detectorRuns, atFirstPace * 2 / 3,
                                 "\(estimator.statistics.detectorRuns) detector runs, \(atFirstPace) at the first pace")
    }
}

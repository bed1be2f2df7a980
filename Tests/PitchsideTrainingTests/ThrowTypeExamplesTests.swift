import Foundation
import PitchsideCore
import PitchsideGame
import PitchsideSynth
import XCTest
@testable import PitchsideTraining

/// Labelling on a synthetic game's truth (no rendering): the "pose worker" here
/// reports one player's true joints, as if it tracked exactly that player.
final class ThrowTypeExamplesTests: XCTestCase {
    /// A pose track that follows player `player` perfectly (nil: nobody).
    private func track(_ truth: GroundTruth, following player: (Int) -> Int?) -> PoseTrack {
        let w = truth.video.width, h = truth.video.height
        let records = truth.frames.map { f -> PoseRecord in
            let pts = Int64((Double(f.index) * 1e6 / Double(truth.video.fps)).rounded())
            guard let k = player(f.index) else { return PoseRecord(seq: UInt64(f.index), pts: pts, w: w, h: h, p: 0, j: nil, box: nil) }
            let joints = f.joints[k].flatMap { [$0[0], $0[1], 0.9] }
            return PoseRecord(seq: UInt64(f.index), pts: pts, w: w, h: h, p: 0.95, j: joints, box: [0.1, 0.3, 0.1, 0.4])
        }
        return PoseTrack(header: .init(video: "game.mp4", videoWidth: w, videoHeight: h, rendition: "rgb", frames: records.count),
                         records: records)
    }

    func testOnePlayerGameGivesEveryThrowItsStyleAndNegativeActionsNone() throws {
        var settings = SynthSettings.random(seed: 3001)
        settings.setPlayerCount(1)
        settings.throwCount = 6
        settings.styles = [.overhand, .underhand, .underleg]
        settings.negativeActionRate = 1
        let truth = SynthGame(settings: settings).truth()
        var labeller = ThrowTypeExamples()
        labeller.releaseDelays = [0, 3]
        let examples = labeller.examples(track: track(truth) { _ in 0 }, truth: truth)

        let throwsSeen = examples.filter { $0.sample.label != .none }
        XCTAssertEqual(throwsSeen.count, 12, "6 throws × 2 delays")
        for t in truth.throwsTruth {
            let mine = throwsSeen.filter { abs($0.frame - t.releaseFrame) <= 3 }
            XCTAssertEqual(mine.map(\.sample.label.rawValue), [Int](repeating: ThrowTypeExamples.type(t.style).rawValue, count: 2))
            XCTAssertEqual(mine.first?.sample.poses.count, 45)
        }
        let nones = examples.filter { $0.sample.label == .none }
        XCTAssertTrue(nones.contains { $0.action == "walking" })
        XCTAssertTrue(nones.contains { $0.action == "picking_up" })
        let limit = Int(labeller.noneMinDistanceFromRelease * Double(truth.video.fps))
        for n in nones {
            XCTAssertTrue(truth.throwsTruth.allSatisfy { abs($0.releaseFrame - n.frame) >= limit }, "none window at \(n.frame)")
        }
    }

    /// Four throws by two players, no negative actions.
    static func twoPlayerTruth() -> GroundTruth {
        var settings = SynthSettings.random(seed: 3002)
        settings.setPlayerCount(2)
        settings.throwCount = 4
        settings.negativeActionRate = 0
        return SynthGame(settings: settings).truth()
    }

    func testAWindowOfTheWaitingPlayerIsNone() throws {
        let truth = Self.twoPlayerTruth()
        var labeller = ThrowTypeExamples()
        labeller.releaseDelays = [0]
        // The pose worker sticks to player 1 all game long.
        let examples = labeller.examples(track: track(truth) { _ in 1 }, truth: truth)
        for t in truth.throwsTruth {
            let at = examples.filter { $0.frame == t.releaseFrame }
            if t.playerIndex == 1 {
                XCTAssertEqual(at.map(\.sample.label), [ThrowTypeExamples.type(t.style)], "throw \(t.index)")
            } else {
                XCTAssertFalse(at.isEmpty, "throw \(t.index) by the player not seen")
                XCTAssertTrue(at.allSatisfy { $0.sample.label == .none }, "throw \(t.index) by the player not seen")
            }
        }
        // Nobody seen: no examples at all.
        XCTAssertTrue(labeller.examples(track: track(truth) { _ in nil }, truth: truth).isEmpty)
    }

    /// Both players tracked, the one not throwing first: the window is the thrower's, as the
    /// game picks it (`ThrowerPoses`), and carries the throw's style.
    func testWithBothPlayersTrackedTheWindowIsTheThrowers() throws {
        let truth = Self.twoPlayerTruth()
        var labeller = ThrowTypeExamples()
        labeller.releaseDelays = [0]
        var both = track(truth) { _ in 1 }
        for i in both.records.indices {
            let joints = truth.frames[i].joints[0]
            let xs = joints.map { $0[0] }, ys = joints.map { $0[1] }
            let box = [xs.min()!, ys.min()!, xs.max()! - xs.min()!, ys.max()! - ys.min()!]
            let primary = truth.frames[i].joints[1]
            let pxs = primary.map { $0[0] }, pys = primary.map { $0[1] }
            both.records[i].box = [pxs.min()!, pys.min()!, pxs.max()! - pxs.min()!, pys.max()! - pys.min()!]
            both.records[i].o = [[0.9] + box + joints.flatMap { [$0[0], $0[1], 0.9] }]
        }
        let examples = labeller.examples(track: both, truth: truth)
        for t in truth.throwsTruth {
            let at = examples.filter { $0.frame == t.releaseFrame }
            XCTAssertEqual(at.map(\.sample.label), [ThrowTypeExamples.type(t.style)], "throw \(t.index) by player \(t.playerIndex)")
            XCTAssertTrue(at.allSatisfy { $0.sample.poses.allSatisfy(\.others.isEmpty) }, "one person per frame")
        }
    }
}

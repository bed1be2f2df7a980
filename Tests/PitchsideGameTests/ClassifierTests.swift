import PitchsideCore
import XCTest
@testable import PitchsideGame

final class ClassifierTests: XCTestCase {
    /// The window of poses around a scripted release, with a little jitter.
    private func window(_ type: PSThrowType, jitter: Double, seed: UInt64) -> [PSPoseObservation] {
        var rng = SplitMix(seed: seed)
        let script = GameScript()
        return (-44...10).map { k in
            var p = script.pose(100 + k, type: type, k: k).pose
            p.joints = p.joints.map { j in
                var j = j
                j.position.x += (Double(rng.next() % 1000) / 1000 - 0.5) * jitter
                j.position.y += (Double(rng.next() % 1000) / 1000 - 0.5) * jitter
                return j
            }
            return p
        }
    }

    func testTensorLayoutIsAppleInput() {
        let poses = Array(window(.overhand, jitter: 0, seed: 1).suffix(10))
        let t = PoseWindow.tensor(poses)
        XCTAssertEqual(t.count, 45)
        XCTAssertEqual(t[0].count, 3)
        XCTAssertEqual(t[0][0].count, 18)
        XCTAssertEqual(t[0][2].reduce(0, +), 0, "zero-padded at the front")
        XCTAssertEqual(Double(t[44][0][4]), poses.last!.joints[4].position.x, accuracy: 1e-6, "right wrist x")
        XCTAssertEqual(Double(t[44][2][0]), 0.9, accuracy: 1e-6)
    }

    func testPoseWindowKeepsTenInFlightPoses() {
        var w = PoseWindow()
        let script = GameScript()
        for f in 0..<60 { w.add(script.pose(f, type: nil, k: 0).pose) }
        w.markRelease(50 * GameScript.frameUs)
        for f in 60..<80 { w.add(script.pose(f, type: nil, k: 0).pose) }
        let after = w.poses.filter { $0.header.ptsUs > 50 * GameScript.frameUs }
        XCTAssertEqual(after.count, 10)
        XCTAssertEqual(w.window.count, 45)
    }

    func testRuleClassifierOnScriptedSwings() {
        let c = RuleThrowTypeClassifier()
        for type in [PSThrowType.overhand, .underhand, .underleg, .none] {
            let d = c.classify(window(type, jitter: 0.004, seed: 3), releasePtsUs: 100 * GameScript.frameUs)
            XCTAssertEqual(d.type, type, "\(type)")
            XCTAssertGreaterThan(d.confidence, 0.5)
        }
        XCTAssertEqual(c.classify([], releasePtsUs: nil), ThrowTypeDecision(type: .none, confidence: 0))
    }

    func testTrainerLearnsAReplacementModel() throws {
        var train: [ThrowTypeTrainer.Sample] = []
        var heldOut: [ThrowTypeTrainer.Sample] = []
        let types: [PSThrowType] = [.overhand, .underhand, .underleg, .none]
        for seed in 0..<24 {
            for type in types {
                let s = ThrowTypeTrainer.Sample(poses: window(type, jitter: 0.01, seed: UInt64(seed * 7 + 1)),
                                                releasePtsUs: 100 * GameScript.frameUs, label: type)
                if seed < 16 { train.append(s) } else { heldOut.append(s) }
            }
        }
        let weights = ThrowTypeTrainer.train(samples: train, iterations: 300)
        let model = LinearThrowTypeClassifier(weights: weights)
        let correct = heldOut.filter { model.classify($0.poses, releasePtsUs: $0.releasePtsUs).type == $0.label }.count
        XCTAssertGreaterThanOrEqual(Double(correct) / Double(heldOut.count), 0.9)
        // The weights survive a JSON round trip.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tt-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try weights.save(url)
        XCTAssertEqual(try ThrowTypeWeights.load(url), weights)
    }
}

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

    /// The game's streaming buffer and the trainer's cut give the same window, whatever
    /// poses are missing: training and inference cannot drift apart.
    func testStreamingWindowIsTheSharedPlacement() {
        let script = GameScript()
        var all: [PSPoseObservation] = []
        for f in 0..<120 {
            var p = script.pose(f, type: nil, k: 0).pose
            if f % 7 == 3 || (40..<44).contains(f) { p.present = false }  // frames without anybody
            all.append(p)
        }
        for releaseFrame in [20, 50, 60, 100, 115] {
            let release = Int64(releaseFrame) * GameScript.frameUs
            var w = PoseWindow()
            for p in all where p.header.ptsUs <= release + 3 * GameScript.frameUs && p.present { w.add(p) }
            w.markRelease(release)  // the throw is seen a few frames after the bag left the hand
            for p in all where p.header.ptsUs > release + 3 * GameScript.frameUs && p.present { w.add(p) }
            let shared = PoseWindow.around(release: release, in: all)
            XCTAssertEqual(w.window.map(\.header.ptsUs), shared.map(\.header.ptsUs), "release at frame \(releaseFrame)")
            XCTAssertLessThanOrEqual(shared.filter { $0.header.ptsUs > release }.count, 10)
            XCTAssertLessThanOrEqual(shared.count, 45)
            XCTAssertTrue(shared.allSatisfy(\.present))
        }
    }

    /// The window with every joint moved by `move` (positions in the picture's 0…1 coordinates).
    private func moved(_ poses: [PSPoseObservation], _ move: (Vec2) -> Vec2) -> [PSPoseObservation] {
        poses.map { p in
            var p = p
            p.joints = p.joints.map { j in
                var j = j
                let q = move(Vec2(j.position.x, j.position.y))
                j.position.x = q.x
                j.position.y = q.y
                return j
            }
            return p
        }
    }

    private func assertSameFeatures(_ a: [Double]?, _ b: [Double]?, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        guard let a, let b else { return XCTFail("no features: \(what)", file: file, line: line) }
        XCTAssertEqual(a.count, WindowFeatures.count, file: file, line: line)
        let worst = zip(a, b).map { abs($0 - $1) }.max() ?? 0
        XCTAssertLessThan(worst, 1e-9, what, file: file, line: line)
    }

    /// The features do not depend on where the thrower stands, how big they look, which
    /// way they face, which side the pose model calls left, or the stream's clock.
    func testWindowFeaturesIgnoreWhereAndHowTheThrowerIsSeen() {
        let release = 100 * GameScript.frameUs
        for type in throwTypeClasses {
            let poses = window(type, jitter: 0.01, seed: 5)
            let base = WindowFeatures.extract(poses, releasePtsUs: release)
            assertSameFeatures(base, WindowFeatures.extract(moved(poses) { Vec2(1 - $0.x, $0.y) }, releasePtsUs: release),
                               "mirrored \(type)")
            assertSameFeatures(base, WindowFeatures.extract(moved(poses) { Vec2(0.6 + 0.5 * ($0.x - 0.1), 0.3 + 0.5 * ($0.y - 0.5)) },
                                                            releasePtsUs: release), "half the size elsewhere \(type)")
            let swapped = poses.map { p in
                var p = p
                p.joints = p.joints.map { j in
                    var j = j
                    if j.name.hasPrefix("right_") { j.name = "left_" + j.name.dropFirst(6) }
                    else if j.name.hasPrefix("left_") { j.name = "right_" + j.name.dropFirst(5) }
                    return j
                }
                return p
            }
            assertSameFeatures(base, WindowFeatures.extract(swapped, releasePtsUs: release), "sides swapped \(type)")
            let later = poses.map { p in
                var p = p
                p.header.ptsUs += 7_000_000
                return p
            }
            assertSameFeatures(base, WindowFeatures.extract(later, releasePtsUs: release + 7_000_000), "clock shifted \(type)")
        }
        // What the features must see: a throw is not its own idle stretch, nor a different throw.
        let x = throwTypeClasses.map { WindowFeatures.extract(window($0, jitter: 0, seed: 1), releasePtsUs: release)! }
        for i in x.indices { for j in x.indices where i < j { XCTAssertNotEqual(x[i], x[j]) } }
        // Too few poses: nothing to classify, and the learned classifier says none.
        XCTAssertNil(WindowFeatures.extract(Array(window(.overhand, jitter: 0, seed: 1).suffix(4)), releasePtsUs: release))
        XCTAssertEqual(LearnedThrowTypeClassifier().classify([], releasePtsUs: nil), ThrowTypeDecision(type: .none, confidence: 0))
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

    func testTrainerLearnsScriptedSwings() throws {
        var train: [ThrowTypeTrainer.Sample] = []
        var heldOut: [ThrowTypeTrainer.Sample] = []
        let types: [PSThrowType] = [.overhand, .underhand, .underleg, .none]
        for seed in 0..<16 {
            for type in types {
                let s = ThrowTypeTrainer.Sample(poses: window(type, jitter: 0.01, seed: UInt64(seed * 7 + 1)),
                                                releasePtsUs: 100 * GameScript.frameUs, label: type)
                if seed < 10 { train.append(s) } else { heldOut.append(s) }
            }
        }
        // Before training a model knows nothing: a zero output layer says the same for everything.
        var untrained = try ThrowTypeTrainer.train(samples: train, options: .init(hiddenUnits: 8, epochs: 1))
        untrained.output = untrained.output.map { $0.map { _ in 0 } }
        XCTAssertLessThanOrEqual(ThrowTypeTrainer.evaluate(LearnedThrowTypeClassifier(model: untrained), on: heldOut).accuracy, 0.25)

        let model = try ThrowTypeTrainer.train(samples: train, options: .init(hiddenUnits: 4, epochs: 30, learningRate: 0.01))
        let (accuracy, confusion) = ThrowTypeTrainer.evaluate(LearnedThrowTypeClassifier(model: model), on: heldOut)
        XCTAssertGreaterThanOrEqual(accuracy, 0.9, "\(confusion)")
        // The model survives a JSON round trip and gives the same answers.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tt-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try model.save(url)
        let loaded = try ThrowTypeModel.load(url)
        XCTAssertEqual(loaded, model)
        XCTAssertEqual(ThrowTypeTrainer.evaluate(LearnedThrowTypeClassifier(model: loaded), on: heldOut).confusion, confusion)
    }

    /// A seen flight settles that there was a throw: its type is the likeliest throw class even
    /// where the window reads as none (on the development games 14 of 320 throws were typed
    /// none, where the poses of the swing were few or another person's).
    func testAThrowWithASeenFlightGetsAThrowType() throws {
        var train: [ThrowTypeTrainer.Sample] = []
        for seed in 0..<10 {
            for type in throwTypeClasses {
                train.append(ThrowTypeTrainer.Sample(poses: window(type, jitter: 0.01, seed: UInt64(seed * 7 + 1)),
                                                     releasePtsUs: 100 * GameScript.frameUs, label: type))
            }
        }
        let model = try ThrowTypeTrainer.train(samples: train, options: .init(hiddenUnits: 4, epochs: 30, learningRate: 0.01))
        let learned = LearnedThrowTypeClassifier(model: model)
        let idle = window(.none, jitter: 0.01, seed: 99)
        let release = 100 * GameScript.frameUs
        XCTAssertEqual(learned.classify(idle, releasePtsUs: release).type, .none, "the idle window reads as none")
        let typed = learned.classifyThrow(idle, releasePtsUs: release)
        XCTAssertNotEqual(typed.type, .none)
        let p = model.probabilities(try XCTUnwrap(WindowFeatures.extract(idle, releasePtsUs: release)))
        let expected = [PSThrowType.overhand, .underhand, .underleg].max { p[throwTypeClasses.firstIndex(of: $0)!] < p[throwTypeClasses.firstIndex(of: $1)!] }!
        XCTAssertEqual(typed.type, expected, "the likeliest of the three throw classes")
        XCTAssertEqual(typed.confidence, p[throwTypeClasses.firstIndex(of: expected)!], accuracy: 1e-12)
        XCTAssertLessThan(typed.confidence, 0.5, "its confidence stays that class's probability")
        // A real swing keeps its type, and no poses still say nothing.
        for type in [PSThrowType.overhand, .underhand, .underleg] {
            XCTAssertEqual(learned.classifyThrow(window(type, jitter: 0.01, seed: 98), releasePtsUs: release),
                           learned.classify(window(type, jitter: 0.01, seed: 98), releasePtsUs: release))
        }
        XCTAssertEqual(learned.classifyThrow([], releasePtsUs: nil), ThrowTypeDecision(type: .none, confidence: 0))
        // The rules drop only their swing test.
        let rules = RuleThrowTypeClassifier()
        XCTAssertEqual(rules.classify(idle, releasePtsUs: release).type, .none)
        XCTAssertNotEqual(rules.classifyThrow(idle, releasePtsUs: release).type, .none)
        XCTAssertEqual(rules.classifyThrow([], releasePtsUs: nil).type, .none)
    }

    /// A problem a broken trainer cannot solve by luck: four classes told apart only by
    /// the sign of two different inputs among noise; softmax regression and the MLP must both learn it.
    func testTrainerSolvesASmallSeparableProblem() throws {
        var rng = SplitMix(seed: 11)
        func noise() -> Double { Double(rng.next() % 10_000) / 10_000 - 0.5 }
        func point(_ label: Int) -> [Double] {
            var x = (0..<6).map { _ in noise() }
            x[1] = (label & 1 == 0 ? -1 : 1) * (0.3 + abs(noise()))
            x[4] = (label & 2 == 0 ? -1 : 1) * (0.3 + abs(noise()))
            return x
        }
        let labels = (0..<200).map { $0 % 4 }
        let xs = labels.map(point)
        let names = (0..<6).map { "x\($0)" }
        for hidden in [0, 6] {
            let model = try ThrowTypeTrainer.train(features: xs, labels: labels,
                                                   options: .init(hiddenUnits: hidden, epochs: 40, learningRate: 0.01),
                                                   featureNames: names)
            let test = (0..<200).map { $0 % 4 }
            let right = test.filter { label in
                let p = model.probabilities(point(label))
                return p.indices.max { p[$0] < p[$1] } == label
            }.count
            XCTAssertGreaterThanOrEqual(Double(right) / 200, 0.97, "hidden \(hidden)")
        }
        XCTAssertThrowsError(try ThrowTypeTrainer.train(features: [], labels: []))
    }

    func testSamplesCutFromAScriptedGameAndEvaluated() {
        let script = GameScript()
        let plan = GameScript.appleGame()
        let results = script.results(throws: plan, frames: 830)
        let poses = results.compactMap { r -> PSPoseObservation? in if case .pose(let p) = r.result { return p } else { return nil } }
        let releases = plan.map { (ptsUs: Int64($0.releaseFrame) * GameScript.frameUs, type: $0.type) }
        let samples = ThrowTypeTrainer.samples(poses: poses, releases: releases)
        XCTAssertEqual(samples.filter { $0.label != .none }.count, 8)
        XCTAssertEqual(samples.first?.poses.count, 45)
        let (accuracy, confusion) = ThrowTypeTrainer.evaluate(RuleThrowTypeClassifier(), on: samples)
        XCTAssertEqual(accuracy, 1, "\(confusion)")
    }

    func testNonsenseTrajectoryIsRejected() {
        var script = GameScript()
        script.stream = "cam1"
        let bag = script.flight(from: GameScript.release, to: GameScript.hole, startFrame: 0, frames: 30)
        var r = script.trajectory(uuid: "nan", points: bag, upTo: 20).trajectory
        r.detectedPoints[3].x = .nan
        var a = ThrowAssembler()
        let board = GameScript.board
        XCTAssertFalse(a.observe(r, seq: 20, context: ThrowContext(board: board)).accepted)
        XCTAssertFalse(a.inFlight)
    }
}

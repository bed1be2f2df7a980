import Foundation
import PitchsideCore
import PitchsideGame
import XCTest
@testable import PitchsideTraining

/// The compiled-in model (`ThrowTypeModel.trained`) against windows the real pose
/// model produced on held-out games (`Fixtures/throw-windows.json`, written by
/// `pitchside train classifier` together with the model). A regression check of
/// the weights, the features and the window packing; accuracy figures come from
/// the trainer's held-out report and `pitchside eval` (docs/classifier.md).
final class TrainedModelTests: XCTestCase {
    private func fixture() throws -> WindowFixture {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/throw-windows.json")
        return try JSONDecoder().decode(WindowFixture.self, from: Data(contentsOf: url))
    }

    func testTheCompiledInModelLoadsAndFitsThisBuild() throws {
        let model = ThrowTypeModel.trained
        XCTAssertNoThrow(try model.validate())
        XCTAssertEqual(model.featureNames, WindowFeatures.names)
        XCTAssertEqual(model.notes["status"], "trained", "not the placeholder")
        XCTAssertFalse(model.hidden.isEmpty && model.output.joined().allSatisfy { $0 == 0 }, "a trained model, not zeros")
        XCTAssertTrue(model.notes["command"]?.hasPrefix("pitchside train classifier") ?? false)
    }

    func testTheCompiledInModelClassifiesHeldOutPoseWindows() throws {
        let f = try fixture()
        let classifier = LearnedThrowTypeClassifier()
        XCTAssertEqual(Set(f.windows.map(\.label)), ["overhand", "underhand", "underleg", "none"])
        for w in f.windows {
            let (sample, label) = try WindowFixture.unpack(w)
            XCTAssertGreaterThanOrEqual(sample.poses.count, 30)
            let d = classifier.classify(sample.poses, releasePtsUs: sample.releasePtsUs)
            XCTAssertEqual(d.type, label, "seed \(w.seed) frame \(w.frame)")
            XCTAssertGreaterThan(d.confidence, 0.5)
        }
    }

    /// The game types throws with this model unless told otherwise.
    func testTheGameUsesTheCompiledInModel() throws {
        let game = Game(streamID: "cam1")
        let learned = try XCTUnwrap(game.classifier as? LearnedThrowTypeClassifier)
        XCTAssertEqual(learned.model, ThrowTypeModel.trained)
    }

    /// The held-out windows seen in a mirror (a thrower on the other side) get the same answer.
    func testTheCompiledInModelAnswersTheSameForAMirroredThrower() throws {
        let classifier = LearnedThrowTypeClassifier()
        for w in try fixture().windows {
            let (sample, label) = try WindowFixture.unpack(w)
            let mirrored = sample.poses.map { p in
                var p = p
                p.joints = p.joints.map { j in
                    var j = j
                    j.position.x = 1 - j.position.x
                    return j
                }
                return p
            }
            XCTAssertEqual(classifier.classify(mirrored, releasePtsUs: sample.releasePtsUs).type, label, "seed \(w.seed) frame \(w.frame)")
        }
    }

    func testPackingKeepsTheWindow() throws {
        let f = try fixture()
        let w = try XCTUnwrap(f.windows.first)
        let (sample, label) = try WindowFixture.unpack(w)
        let again = WindowFixture.pack(label: label, seed: w.seed, frame: w.frame, sample: sample)
        XCTAssertEqual(again, w)
        var broken = w
        broken.poses = String(w.poses.dropLast(8))
        XCTAssertThrowsError(try WindowFixture.unpack(broken))
    }

    func testModelFilesThatDoNotFitAreRefused() throws {
        var model = ThrowTypeModel.trained
        model.featureNames.removeLast()
        XCTAssertThrowsError(try ThrowTypeModel.decode(model.encoded())) { XCTAssertTrue("\($0)".contains("features")) }
        model = ThrowTypeModel.trained
        model.output[0].append(1)
        XCTAssertThrowsError(try ThrowTypeModel.decode(model.encoded())) { XCTAssertTrue("\($0)".contains("layer sizes")) }
        model = ThrowTypeModel.trained
        model.std[3] = 0
        XCTAssertThrowsError(try ThrowTypeModel.decode(model.encoded())) { XCTAssertTrue("\($0)".contains("standardization")) }
        XCTAssertThrowsError(try ThrowTypeModel.decode(Data("{\"schema\": 1}".utf8)))
    }
}

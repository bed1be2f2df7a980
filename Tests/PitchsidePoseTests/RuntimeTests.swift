import PitchsideCore
@testable import PitchsidePose
import XCTest

/// Loading errors are clear, and the binding runs the models.
final class RuntimeTests: XCTestCase {
    func testMissingFilesSayHowToFetchThem() {
        let assets = PoseAssets.default(environment: ["PITCHSIDE_CACHE": "/nonexistent/cache"])
        XCTAssertEqual(assets.landmarkModel, "/nonexistent/cache/models/pose_landmark_full.tflite")
        XCTAssertFalse(assets.isAvailable)
        XCTAssertThrowsError(try PoseEstimator(assets: assets, threads: 1)) { error in
            XCTAssertTrue("\(error)".contains("run ops/setup"), "\(error)")
            XCTAssertTrue("\(error)".contains("/nonexistent/cache/lib/libLiteRt.so"), "\(error)")
        }
        XCTAssertEqual(PoseAssets.cacheDirectory(environment: ["HOME": "/home/x"]), "/home/x/.cache/pitchside")
    }

    func testALibraryThatIsNotLiteRtIsRejected() throws {
        let libm = "/lib/x86_64-linux-gnu/libm.so.6"
        try XCTSkipUnless(FileManager.default.fileExists(atPath: libm))
        XCTAssertThrowsError(try LiteRtRuntime(libraryPath: libm)) { error in
            guard case PoseError.runtimeUnavailable(_, let reason) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains("LiteRtCreateEnvironment"), reason)
        }
    }

    func testWrongOrUnreadableModelsAreNamed() throws {
        let assets = try PoseAssets.default().checked()
        let runtime = try LiteRtRuntime(libraryPath: assets.runtimeLibrary)
        XCTAssertThrowsError(try PoseLandmarkModel(runtime: runtime, path: assets.detectorModel)) { error in
            guard case PoseError.wrongModel(let path, _, let found) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, assets.detectorModel)
            XCTAssertTrue(found.contains("f32[1,224,224,3]"), found)
        }
        XCTAssertThrowsError(try PoseDetectorModel(runtime: runtime, path: assets.landmarkModel)) { error in
            guard case PoseError.wrongModel = error else { return XCTFail("\(error)") }
        }
        let notAModel = PoseAssets.photo("fruits.jpg")
        XCTAssertThrowsError(try LiteRtModel(runtime: runtime, path: notAModel)) { error in
            guard case PoseError.unreadableModel(let path, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(path, notAModel)
        }
        XCTAssertThrowsError(try LiteRtModel(runtime: runtime, path: "/nonexistent.tflite")) { error in
            XCTAssertTrue("\(error)".contains("run ops/setup"))
        }
    }

    func testModelShapesAndThreads() throws {
        let assets = try PoseAssets.default().checked()
        let runtime = try LiteRtRuntime(libraryPath: assets.runtimeLibrary)
        let model = try LiteRtModel(runtime: runtime, path: assets.landmarkModel, threads: 2)
        XCTAssertEqual(model.threads, 2)
        XCTAssertEqual(model.inputs, [TensorShape(dimensions: [1, 256, 256, 3])])
        XCTAssertTrue(model.outputs.contains(TensorShape(dimensions: [1, 195])))
        XCTAssertTrue(model.outputs.contains(TensorShape(dimensions: [1, 1])))
        XCTAssertFalse(model.loadLog.isEmpty, "LiteRT's load messages were captured")
        // A flat gray input holds nobody.
        model.withInput(0) { $0.update(repeating: 0.5) }
        try model.run()
        let index = model.outputs.firstIndex(of: TensorShape(dimensions: [1, 1]))!
        XCTAssertLessThan(model.withOutput(index) { $0[0] }, 0.5)
    }
}

import PitchsideCore
import PitchsidePose
import XCTest

final class PoseAccuracyTests: XCTestCase {
    func truth(offset: Float, inFrame: Bool = true) -> [PoseAccuracy.TruthJoint] {
        JointName.allCases.indices.map { PoseAccuracy.TruthJoint(position: PosePoint(x: Float($0) * 3 + offset, y: 10), inFrame: inFrame) }
    }

    func testCountsFoundVisibleFramesAndMedianErrors() {
        var accuracy = PoseAccuracy()
        let exact = truth(offset: 0).map(\.position)
        accuracy.add(found: exact, truth: truth(offset: 0), personHeight: 100)
        accuracy.add(found: exact, truth: truth(offset: 2), personHeight: 100)      // 2 px off everywhere
        accuracy.add(found: exact, truth: truth(offset: 4), personHeight: 100)      // 4 px off
        accuracy.add(found: nil, truth: truth(offset: 0), personHeight: 100)        // missed
        accuracy.add(found: nil, truth: truth(offset: 0, inFrame: false), personHeight: 100)
        accuracy.add(found: exact, truth: truth(offset: 0, inFrame: false), personHeight: 100)
        XCTAssertEqual(accuracy.frames, 6)
        XCTAssertEqual(accuracy.visibleFrames, 4)
        XCTAssertEqual(accuracy.foundFrames, 3)
        XCTAssertEqual(accuracy.posesWithoutPerson, 1)
        XCTAssertEqual(accuracy.detectionRate, 0.75)
        XCTAssertEqual(accuracy.medianError(.leftWrist) ?? -1, 0.02, accuracy: 1e-6)
        XCTAssertEqual(accuracy.medianError() ?? -1, 0.02, accuracy: 1e-6)
        XCTAssertNil(accuracy.medianError(.nose))                                   // not scored
        XCTAssertEqual(accuracy.errors.count, PoseAccuracy.scoredJoints.count)
    }
}

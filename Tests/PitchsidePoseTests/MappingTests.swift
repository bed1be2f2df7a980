import PitchsideCore
@testable import PitchsidePose
import XCTest

/// A pose with landmark i at (i, 2i), all confident, except the left shoulder (0.3).
func syntheticPose(width: Int = 200, height: Int = 100) -> PoseResult {
    var landmarks = (0..<33).map { i in
        PoseLandmark(x: Float(i), y: Float(2 * i), z: 1, visibility: 0.9, presence: 0.95)
    }
    landmarks[11].visibility = 0.3
    return PoseResult(
        landmarks: landmarks, joints: JointMapping.joints(from: landmarks),
        personBox: PoseResult.personBox(landmarks: landmarks), presence: 0.97,
        region: PoseRegion(center: PosePoint(x: 16, y: 32), side: 80), usedDetector: true,
        imageWidth: width, imageHeight: height)
}

final class JointMappingTests: XCTestCase {
    func testJointsFollowVisionOrderAndBlazePoseIndices() {
        let pose = syntheticPose()
        XCTAssertEqual(pose.joints.map(\.name), JointName.allCases)
        XCTAssertEqual(pose.joint(.rightWrist).position, PosePoint(x: 16, y: 32))
        XCTAssertEqual(pose.joint(.leftAnkle).position, PosePoint(x: 27, y: 54))
        XCTAssertEqual(pose.joint(.rightEye).position, PosePoint(x: 5, y: 10))
        // Neck: the shoulders' midpoint, with the weaker confidence.
        XCTAssertEqual(pose.joint(.neck).position, PosePoint(x: 11.5, y: 23))
        XCTAssertEqual(pose.joint(.neck).confidence, 0.3, accuracy: 1e-6)
        XCTAssertEqual(pose.joint(.rightShoulder).confidence, 0.9, accuracy: 1e-6)
    }

    func testPersonBoxHoldsConfidentLandmarksWithPadding() {
        let pose = syntheticPose()
        // Confident landmarks span (0, 0)…(32, 64); padding 8 % of 64.
        XCTAssertEqual(pose.personBox.minX, -5.12, accuracy: 1e-4)
        XCTAssertEqual(pose.personBox.maxY, 69.12, accuracy: 1e-4)
        for joint in pose.joints where joint.confidence >= 0.5 {
            XCTAssertTrue(pose.personBox.contains(joint.position), "\(joint.name)")
        }
    }
}

final class SearchPlanTests: XCTestCase {
    func testTilesCoverTheFrameAtEachScale() {
        let plan = SearchPlan()
        let tiles = plan.tiles(width: 640, height: 360)
        XCTAssertFalse(tiles.isEmpty)
        for side in Set(tiles.map(\.side)) {
            let level = tiles.filter { $0.side == side }
            for y in Swift.stride(from: 0, to: 360, by: 7) {
                for x in Swift.stride(from: 0, to: 640, by: 7) {
                    let p = PosePoint(x: Float(x) + 0.5, y: Float(y) + 0.5)
                    XCTAssertTrue(level.contains { abs($0.center.x - p.x) <= side / 2 && abs($0.center.y - p.y) <= side / 2 },
                                  "(\(x), \(y)) not covered at side \(side)")
                }
            }
            for t in level {   // inside the frame
                XCTAssertGreaterThanOrEqual(t.center.x - side / 2, -0.01)
                XCTAssertLessThanOrEqual(t.center.x + side / 2, 640.01)
            }
        }
        XCTAssertEqual(Set(tiles.map(\.side)), [360, 180, 120])
    }

    func testNoTilesSmallerThanTheMinimumOrAsLargeAsTheImage() {
        let plan = SearchPlan(tileFractions: [1.0, 0.5], minTileSide: 96)
        XCTAssertTrue(plan.tiles(width: 150, height: 150).isEmpty)
        XCTAssertEqual(plan.around(PoseBox(minX: 0, minY: 0, maxX: 10, maxY: 60)).side, 150)
    }
}

final class ShardSelectorTests: XCTestCase {
    func testTwoShardsCoverEveryFrameExactlyOnce() throws {
        let shards = [try ShardSelector(parsing: "0/2"), try ShardSelector(parsing: "1/2")]
        for seq in UInt64(0)..<1000 {
            XCTAssertEqual(shards.filter { $0.accepts(seq: seq) }.count, 1, "frame \(seq)")
        }
        XCTAssertTrue(shards[1].accepts(seq: 3))
        XCTAssertTrue(ShardSelector.all.accepts(seq: 12345))
    }

    func testRejectsBadShards() {
        for text in ["2/2", "-1/2", "0/0", "1", "a/b", "1/2/3"] {
            XCTAssertThrowsError(try ShardSelector(parsing: text), text)
        }
    }
}

final class WireTests: XCTestCase {
    func testPoseObservationIsNormalizedAndComplete() throws {
        let pose = syntheticPose(width: 200, height: 100)
        let frame = VideoFrame(streamID: "cam1", seq: 7, ptsUs: 233_000, image: ImageBuffer(width: 200, height: 100, layout: .rgb24))
        let message = PSPoseObservation(result: pose, frame: frame, producerID: "pose-1", shard: try ShardSelector(index: 1, count: 2))
        let decoded = try PSPoseObservation(serializedBytes: try message.serializedBytes() as [UInt8])
        XCTAssertTrue(decoded.present)
        XCTAssertEqual(decoded.header.streamID, "cam1")
        XCTAssertEqual(decoded.header.seq, 7)
        XCTAssertEqual(decoded.header.ptsUs, 233_000)
        XCTAssertEqual(decoded.shardIndex, 1)
        XCTAssertEqual(decoded.shardCount, 2)
        XCTAssertEqual(decoded.presence, 0.97, accuracy: 1e-6)
        XCTAssertEqual(decoded.joints.map(\.name), JointName.allCases.map(\.rawValue))
        XCTAssertEqual(decoded.landmarks.count, 33)
        let wrist = decoded.joints[4]
        XCTAssertEqual(wrist.name, "right_wrist")
        XCTAssertEqual(wrist.position.x, 16.0 / 200, accuracy: 1e-6)
        XCTAssertEqual(wrist.position.y, 32.0 / 100, accuracy: 1e-6)
        XCTAssertEqual(decoded.personBox.width, Double(pose.personBox.width) / 200, accuracy: 1e-6)
    }

    func testNobodyIsAnObservationThatIsNotPresent() {
        let frame = VideoFrame(seq: 3, ptsUs: 100, image: ImageBuffer(width: 4, height: 4, layout: .rgb24))
        let message = PSPoseObservation(result: nil, frame: frame, producerID: "pose")
        XCTAssertFalse(message.present)
        XCTAssertTrue(message.joints.isEmpty)
        XCTAssertEqual(message.header.seq, 3)
        XCTAssertEqual(message.shardCount, 1)
    }
}

@testable import PitchsidePose
import XCTest

final class DetectorDecodingTests: XCTestCase {
    func testDecodesOnlyConfidentAnchorsRelativeToTheirCentre() {
        let decoder = DetectorDecoder.blazePose
        let n = decoder.anchors.count
        var regressors = [Float](repeating: 0, count: n * 12)
        var scores = [Float](repeating: -5, count: n)
        let i = 1600                                   // an anchor of the 14 × 14 map
        scores[i] = 2
        let values: [Float] = [22.4, -11.2, 44.8, 89.6, 0, 0, 0, -22.4, 11.2, 0, 0, 0]
        for k in 0..<12 { regressors[i * 12 + k] = values[k] }
        let found = regressors.withUnsafeBufferPointer { r in
            scores.withUnsafeBufferPointer { s in decoder.decode(regressors: r, scores: s) }
        }
        XCTAssertEqual(found.count, 1)
        let d = found[0]
        let a = decoder.anchors[i]
        XCTAssertEqual(d.score, 1 / (1 + exp(-2)), accuracy: 1e-6)
        XCTAssertEqual(d.box.center.x, a.x + 0.1, accuracy: 1e-5)
        XCTAssertEqual(d.box.center.y, a.y - 0.05, accuracy: 1e-5)
        XCTAssertEqual(d.box.width, 0.2, accuracy: 1e-5)
        XCTAssertEqual(d.box.height, 0.4, accuracy: 1e-5)
        XCTAssertEqual(d.keypoints.count, 4)
        XCTAssertEqual(d.keypoints[0], a)
        XCTAssertEqual(d.keypoints[1].y, a.y - 0.1, accuracy: 1e-5)
        XCTAssertEqual(d.keypoints[2].x, a.x + 0.05, accuracy: 1e-5)
    }
}

final class NonMaxSuppressionTests: XCTestCase {
    func detection(_ score: Float, _ x: Float, keypoint: Float) -> PersonDetection {
        PersonDetection(score: score, box: PoseBox(minX: x, minY: 0, maxX: x + 1, maxY: 1),
                        keypoints: [PosePoint(x: keypoint, y: 0)])
    }

    func testOverlappingDetectionsMergeByScoreWeight() {
        let merged = WeightedNonMaxSuppression(iouThreshold: 0.3)([
            detection(0.6, 0.1, keypoint: 2), detection(0.9, 0, keypoint: 1), detection(0.8, 5, keypoint: 9),
        ])
        XCTAssertEqual(merged.count, 2)
        XCTAssertEqual(merged[0].score, 0.9)                              // the best one's score
        XCTAssertEqual(merged[0].keypoints[0].x, (0.9 * 1 + 0.6 * 2) / 1.5, accuracy: 1e-5)
        XCTAssertEqual(merged[0].box.minX, 0.6 * 0.1 / 1.5, accuracy: 1e-5)
        XCTAssertEqual(merged[1], detection(0.8, 5, keypoint: 9))       // far away: untouched
    }

    func testNothingInNothingOut() {
        XCTAssertEqual(WeightedNonMaxSuppression()([]), [])
    }
}

final class LandmarkDecodingTests: XCTestCase {
    func testProjectsCropPixelsThroughTheRegion() {
        var raw = [Float](repeating: 0, count: 39 * 5)
        // Landmark 0 at the crop centre, landmark 1 at the crop's top centre.
        raw[0] = 128; raw[1] = 128; raw[2] = 25.6; raw[3] = 0; raw[4] = 100
        raw[5] = 128; raw[6] = 0
        let region = PoseRegion(center: PosePoint(x: 50, y: 60), side: 100, rotation: .pi / 2)
        let landmarks = raw.withUnsafeBufferPointer { LandmarkDecoder.decode($0, region: region) }
        XCTAssertEqual(landmarks.count, 39)
        XCTAssertEqual(landmarks[0].x, 50, accuracy: 1e-4)
        XCTAssertEqual(landmarks[0].y, 60, accuracy: 1e-4)
        XCTAssertEqual(landmarks[0].z, 10, accuracy: 1e-4)
        XCTAssertEqual(landmarks[0].visibility, 0.5, accuracy: 1e-6)
        XCTAssertEqual(landmarks[0].presence, 1, accuracy: 1e-6)
        // Region turned a quarter clockwise: its top is the image's +x.
        XCTAssertEqual(landmarks[1].x, 100, accuracy: 1e-3)
        XCTAssertEqual(landmarks[1].y, 60, accuracy: 1e-3)
    }
}

/// Greying out people already known before the detector looks for more.
final class DetectorMaskTests: XCTestCase {
    func testABoxIsGreyedWhereItLiesInTheDetectorsView() {
        let size = PoseDetectorModel.inputSize
        var input = [Float](repeating: 1, count: size * size * 3)
        // A 448-pixel tile centred at (524, 324): the detector sees 2 image pixels per input pixel.
        let region = PoseRegion(center: PosePoint(x: 524, y: 324), side: 448)
        let box = PoseBox(minX: 300, minY: 100, maxX: 400, maxY: 300)  // input x 0…50, y 0…100
        input.withUnsafeMutableBufferPointer { PoseDetectorModel.grey(box, of: region, in: $0) }
        func value(_ x: Int, _ y: Int) -> Float { input[(y * size + x) * 3] }
        XCTAssertEqual(value(0, 0), 0)
        XCTAssertEqual(value(49, 99), 0)
        XCTAssertEqual(value(52, 50), 1, "right of the box")
        XCTAssertEqual(value(20, 102), 1, "below the box")
        // The edges are rounded outward: at most one more column and row.
        XCTAssertTrue((50 * 100 * 3...51 * 101 * 3).contains(input.filter { $0 == 0 }.count))
        // A box outside the region changes nothing; a turned region is left alone.
        var untouched = [Float](repeating: 1, count: size * size * 3)
        untouched.withUnsafeMutableBufferPointer {
            PoseDetectorModel.grey(PoseBox(minX: 0, minY: 0, maxX: 50, maxY: 50), of: region, in: $0)
            PoseDetectorModel.grey(box, of: PoseRegion(center: region.center, side: 448, rotation: 0.3), in: $0)
        }
        XCTAssertFalse(untouched.contains(0))
    }
}

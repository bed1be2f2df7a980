import Foundation

/// Turns the detector's raw regressors and score logits into detections, as
/// MediaPipe's TensorsToDetectionsCalculator does for BlazePose
/// (12 values per anchor: box centre x, y, width, height, then 4 keypoints
/// x, y; offsets in input pixels relative to the anchor centre).
public struct DetectorDecoder: Sendable {
    public var anchors: [PosePoint]
    public var inputSize: Float
    public var valuesPerAnchor: Int
    public var keypointCount: Int
    public var minScore: Float

    public init(anchors: [PosePoint], inputSize: Float = 224, valuesPerAnchor: Int = 12, keypointCount: Int = 4, minScore: Float = 0.5) {
        self.anchors = anchors
        self.inputSize = inputSize
        self.valuesPerAnchor = valuesPerAnchor
        self.keypointCount = keypointCount
        self.minScore = minScore
    }

    public static let blazePose = DetectorDecoder(anchors: AnchorGrid.blazePose.centres())

    /// Detections scoring at least `minScore`, in normalized detector-input coordinates.
    public func decode(regressors: UnsafeBufferPointer<Float>, scores: UnsafeBufferPointer<Float>) -> [PersonDetection] {
        precondition(regressors.count >= anchors.count * valuesPerAnchor && scores.count >= anchors.count,
                     "detector outputs do not match \(anchors.count) anchors")
        // Compare logits, not probabilities: one sigmoid per kept anchor only.
        let minLogit = log(minScore / (1 - minScore))
        var result: [PersonDetection] = []
        for i in 0..<anchors.count {
            let logit = min(max(scores[i], -100), 100)
            guard logit >= minLogit else { continue }
            let anchor = anchors[i]
            let base = i * valuesPerAnchor
            let cx = regressors[base] / inputSize + anchor.x
            let cy = regressors[base + 1] / inputSize + anchor.y
            let w = regressors[base + 2] / inputSize
            let h = regressors[base + 3] / inputSize
            var keypoints: [PosePoint] = []
            keypoints.reserveCapacity(keypointCount)
            for k in 0..<keypointCount {
                keypoints.append(PosePoint(
                    x: regressors[base + 4 + 2 * k] / inputSize + anchor.x,
                    y: regressors[base + 5 + 2 * k] / inputSize + anchor.y))
            }
            result.append(PersonDetection(
                score: 1 / (1 + exp(-logit)),
                box: PoseBox(minX: cx - w / 2, minY: cy - h / 2, maxX: cx + w / 2, maxY: cy + h / 2),
                keypoints: keypoints))
        }
        return result
    }
}

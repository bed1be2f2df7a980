/// Weighted non-max suppression (MediaPipe's WEIGHTED algorithm): the best
/// remaining detection absorbs every detection overlapping it by more than the
/// threshold, and its box and keypoints become their score-weighted average.
/// Averaging the overlapping anchors steadies the keypoints the region of
/// interest is built from.
public struct WeightedNonMaxSuppression: Sendable {
    public var iouThreshold: Float
    public var maxDetections: Int

    public init(iouThreshold: Float = 0.3, maxDetections: Int = .max) {
        self.iouThreshold = iouThreshold
        self.maxDetections = maxDetections
    }

    /// Merged detections, best first.
    public func callAsFunction(_ detections: [PersonDetection]) -> [PersonDetection] {
        var remaining = detections.sorted { $0.score > $1.score }
        var result: [PersonDetection] = []
        while let best = remaining.first, result.count < maxDetections {
            var cluster: [PersonDetection] = []
            var rest: [PersonDetection] = []
            for d in remaining {
                if d.box.iou(best.box) > iouThreshold || d == best { cluster.append(d) } else { rest.append(d) }
            }
            remaining = rest
            result.append(Self.weightedAverage(cluster, score: best.score))
        }
        return result
    }

    static func weightedAverage(_ cluster: [PersonDetection], score: Float) -> PersonDetection {
        guard cluster.count > 1 else { return cluster[0] }
        var total: Float = 0
        var box = PoseBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
        var keypoints = [PosePoint](repeating: PosePoint(x: 0, y: 0), count: cluster[0].keypoints.count)
        for d in cluster {
            let w = d.score
            total += w
            box.minX += d.box.minX * w; box.minY += d.box.minY * w
            box.maxX += d.box.maxX * w; box.maxY += d.box.maxY * w
            for k in keypoints.indices { keypoints[k] = keypoints[k] + d.keypoints[k] * w }
        }
        let inv = 1 / total
        box = PoseBox(minX: box.minX * inv, minY: box.minY * inv, maxX: box.maxX * inv, maxY: box.maxY * inv)
        return PersonDetection(score: score, box: box, keypoints: keypoints.map { $0 * inv })
    }
}

import PitchsideCore

/// Pooled, body-normalized features of a pose window, shared by the rule
/// classifier and the learned one. Heights are measured upward from the hip
/// centre in torso lengths (neck to hip centre), so they do not depend on how
/// big the thrower is in the frame; the throwing arm is the one whose wrist
/// moves most.
public struct ThrowTypeFeatures: Sendable, Equatable {
    public static let names = [
        "wrist_peak_height", "wrist_lowest_below_knee", "wrist_height_at_release_vs_shoulder",
        "wrist_travel_y", "wrist_travel_x", "frac_below_knee", "frac_above_shoulder", "frames",
    ]

    public var values: [Double]
    /// Poses with a usable arm and hips.
    public var usableFrames: Int

    public subscript(_ name: String) -> Double { values[Self.names.firstIndex(of: name)!] }

    public init(values: [Double], usableFrames: Int) {
        self.values = values
        self.usableFrames = usableFrames
    }

    private struct Frame {
        var pts: Int64
        var wrist: [Vec2?]  // right, left
        var shoulderY: Double
        var kneeY: Double
        var hip: Vec2
        var torso: Double
    }

    public static func extract(_ poses: [PSPoseObservation], releasePtsUs: Int64?) -> ThrowTypeFeatures {
        var frames: [Frame] = []
        for pose in poses where pose.present {
            let j = PoseJoints(pose)
            let hips = [j[.rightHip], j[.leftHip]].compactMap { $0 }
            let shoulders = [j[.rightShoulder], j[.leftShoulder], j[.neck]].compactMap { $0 }
            let knees = [j[.rightKnee], j[.leftKnee]].compactMap { $0 }
            guard !hips.isEmpty, !shoulders.isEmpty, !knees.isEmpty else { continue }
            let hip = Vec2(hips.map(\.x).reduce(0, +) / Double(hips.count), hips.map(\.y).reduce(0, +) / Double(hips.count))
            let shoulderY = shoulders.map(\.y).reduce(0, +) / Double(shoulders.count)
            let torso = max(1e-3, hip.y - shoulderY)
            frames.append(Frame(pts: pose.header.ptsUs, wrist: [j[.rightWrist], j[.leftWrist]], shoulderY: shoulderY,
                                kneeY: knees.map(\.y).reduce(0, +) / Double(knees.count), hip: hip, torso: torso))
        }
        guard !frames.isEmpty else {
            return ThrowTypeFeatures(values: [Double](repeating: 0, count: names.count), usableFrames: 0)
        }
        // The throwing arm moves most.
        func travel(_ arm: Int) -> Double {
            var ys: [Double] = []
            for f in frames { if let w = f.wrist[arm] { ys.append((w.y - f.hip.y) / f.torso) } }
            return (ys.max() ?? 0) - (ys.min() ?? 0)
        }
        let arm = travel(0) >= travel(1) ? 0 : 1
        var peak = -Double.infinity, lowest = -Double.infinity
        var below = 0, above = 0, count = 0
        var ys: [Double] = [], xs: [Double] = []
        var releaseHeight = 0.0
        var releaseGap = Int64.max
        for f in frames {
            guard let w = f.wrist[arm] else { continue }
            count += 1
            let height = (f.hip.y - w.y) / f.torso
            peak = max(peak, height)
            lowest = max(lowest, (w.y - f.kneeY) / f.torso)
            if w.y > f.kneeY { below += 1 }
            if w.y < f.shoulderY { above += 1 }
            ys.append(height)
            xs.append((w.x - f.hip.x) / f.torso)
            let gap = abs(f.pts - (releasePtsUs ?? frames.last!.pts))
            if gap < releaseGap {
                releaseGap = gap
                releaseHeight = (f.shoulderY - w.y) / f.torso
            }
        }
        guard count > 0 else {
            return ThrowTypeFeatures(values: [Double](repeating: 0, count: names.count), usableFrames: 0)
        }
        let n = Double(count)
        let values = [
            peak, lowest, releaseHeight,
            (ys.max() ?? 0) - (ys.min() ?? 0), (xs.max() ?? 0) - (xs.min() ?? 0),
            Double(below) / n, Double(above) / n, min(1, n / Double(GameConstants.maxPoseObservations)),
        ]
        return ThrowTypeFeatures(values: values, usableFrames: count)
    }
}

import Foundation
import PitchsideCore

/// Trains `ThrowTypeWeights` (softmax regression over `ThrowTypeFeatures`) from
/// labelled pose windows. Deterministic: full-batch gradient descent from zero.
///
/// ```swift
/// let weights = ThrowTypeTrainer.train(samples: samples)
/// try weights.save(URL(fileURLWithPath: "throw-type.json"))
/// ```
public enum ThrowTypeTrainer {
    /// One labelled window.
    public struct Sample: Sendable {
        public var poses: [PSPoseObservation]
        public var releasePtsUs: Int64?
        public var label: PSThrowType

        public init(poses: [PSPoseObservation], releasePtsUs: Int64?, label: PSThrowType) {
            self.poses = poses
            self.releasePtsUs = releasePtsUs
            self.label = label
        }
    }

    public static func name(of type: PSThrowType) -> String {
        switch type {
        case .overhand: return "overhand"
        case .underhand: return "underhand"
        case .underleg: return "underleg"
        default: return "none"
        }
    }

    public static func type(named name: String) -> PSThrowType {
        switch name {
        case "overhand": return .overhand
        case "underhand": return .underhand
        case "underleg": return .underleg
        default: return .none
        }
    }

    public static func train(samples: [Sample], iterations: Int = 2000, learningRate: Double = 0.5,
                             l2: Double = 1e-3) -> ThrowTypeWeights {
        let classes = throwTypeClasses.map(name(of:))
        let xs = samples.map { ThrowTypeFeatures.extract($0.poses, releasePtsUs: $0.releasePtsUs).values }
        let ys = samples.map { classes.firstIndex(of: name(of: $0.label)) ?? 3 }
        let d = ThrowTypeFeatures.names.count
        var mean = [Double](repeating: 0, count: d), std = [Double](repeating: 1, count: d)
        if !xs.isEmpty {
            for k in 0..<d {
                let col = xs.map { $0[k] }
                let m = col.reduce(0, +) / Double(col.count)
                let v = col.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(col.count)
                mean[k] = m
                std[k] = max(1e-6, v.squareRoot())
            }
        }
        var w = [[Double]](repeating: [Double](repeating: 0, count: d + 1), count: classes.count)
        var model = ThrowTypeWeights(featureNames: ThrowTypeFeatures.names, classes: classes, mean: mean, std: std, weights: w)
        guard !xs.isEmpty else { return model }
        let zs = xs.map { x in zip(x, zip(mean, std)).map { v, ms in (v - ms.0) / ms.1 } + [1] }
        let n = Double(xs.count)
        for _ in 0..<iterations {
            var grad = [[Double]](repeating: [Double](repeating: 0, count: d + 1), count: classes.count)
            for (i, x) in xs.enumerated() {
                let p = model.probabilities(x)
                for c in 0..<classes.count {
                    let err = p[c] - (ys[i] == c ? 1 : 0)
                    for k in 0...d { grad[c][k] += err * zs[i][k] / n }
                }
            }
            for c in 0..<classes.count {
                for k in 0...d { w[c][k] -= learningRate * (grad[c][k] + l2 * w[c][k]) }
            }
            model.weights = w
        }
        return model
    }

    /// Cuts labelled windows out of a stream of poses with known releases (the
    /// ground truth of a synthetic game): one window per throw, as the game
    /// would see it, plus `none` windows from stretches at least 3 s away from
    /// any release (walking about, picking up bags).
    public static func samples(poses: [PSPoseObservation], releases: [(ptsUs: Int64, type: PSThrowType)],
                               negativeEvery: Int = 60) -> [Sample] {
        let sorted = poses.sorted { $0.header.ptsUs < $1.header.ptsUs }
        var out: [Sample] = []
        for r in releases {
            var w = PoseWindow()
            for p in sorted where p.header.ptsUs <= r.ptsUs { w.add(p) }
            w.markRelease(r.ptsUs)
            for p in sorted where p.header.ptsUs > r.ptsUs { w.add(p) }
            out.append(Sample(poses: w.window, releasePtsUs: r.ptsUs, label: r.type))
        }
        let far: Int64 = 3_000_000
        var i = GameConstants.maxPoseObservations
        while i < sorted.count {
            let end = sorted[i].header.ptsUs
            if releases.allSatisfy({ abs($0.ptsUs - end) > far }) {
                let window = Array(sorted[(i - GameConstants.maxPoseObservations)..<i])
                out.append(Sample(poses: window, releasePtsUs: end, label: .none))
            }
            i += max(1, negativeEvery)
        }
        return out
    }

    /// Share of samples a classifier gets right, and the confusion counts
    /// [true class][predicted class] in `throwTypeClasses` order.
    public static func evaluate(_ classifier: any ThrowTypeClassifier, on samples: [Sample]) -> (accuracy: Double, confusion: [[Int]]) {
        var confusion = [[Int]](repeating: [Int](repeating: 0, count: 4), count: 4)
        var correct = 0
        for s in samples {
            let predicted = classifier.classify(s.poses, releasePtsUs: s.releasePtsUs).type
            let t = throwTypeClasses.firstIndex(of: s.label) ?? 3
            let p = throwTypeClasses.firstIndex(of: predicted) ?? 3
            confusion[t][p] += 1
            if t == p { correct += 1 }
        }
        return (samples.isEmpty ? 0 : Double(correct) / Double(samples.count), confusion)
    }
}

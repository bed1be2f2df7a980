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
}

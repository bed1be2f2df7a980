import Foundation
import PitchsideCore

/// Learned weights of the linear (softmax regression) throw-type model, stored as small JSON.
public struct ThrowTypeWeights: Sendable, Codable, Equatable {
    public var featureNames: [String]
    /// Wire names of the classes, in output order.
    public var classes: [String]
    /// Per-feature standardization.
    public var mean: [Double]
    public var std: [Double]
    /// [class][feature + 1]; the last column is the bias.
    public var weights: [[Double]]

    public init(featureNames: [String], classes: [String], mean: [Double], std: [Double], weights: [[Double]]) {
        self.featureNames = featureNames
        self.classes = classes
        self.mean = mean
        self.std = std
        self.weights = weights
    }

    public static func load(_ url: URL) throws -> ThrowTypeWeights {
        try JSONDecoder().decode(ThrowTypeWeights.self, from: Data(contentsOf: url))
    }

    public func save(_ url: URL) throws {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys]
        try e.encode(self).write(to: url)
    }

    /// Class probabilities for a feature vector.
    public func probabilities(_ x: [Double]) -> [Double] {
        let z = zip(x, zip(mean, std)).map { v, ms in (v - ms.0) / ms.1 }
        let logits = weights.map { w in zip(w, z + [1]).map(*).reduce(0, +) }
        let m = logits.max() ?? 0
        let e = logits.map { Foundation.exp($0 - m) }
        let s = e.reduce(0, +)
        return e.map { $0 / s }
    }
}

/// Runs learned `ThrowTypeWeights` over the pooled `ThrowTypeFeatures`; a drop-in
/// replacement for `RuleThrowTypeClassifier`.
public struct LinearThrowTypeClassifier: ThrowTypeClassifier {
    public let weights: ThrowTypeWeights

    public init(weights: ThrowTypeWeights) { self.weights = weights }

    public func classify(_ poses: [PSPoseObservation], releasePtsUs: Int64?) -> ThrowTypeDecision {
        let f = ThrowTypeFeatures.extract(poses, releasePtsUs: releasePtsUs)
        guard f.usableFrames >= 5 else { return ThrowTypeDecision(type: .none, confidence: 0) }
        let p = weights.probabilities(f.values)
        let best = p.indices.max { p[$0] < p[$1] } ?? 0
        return ThrowTypeDecision(type: ThrowTypeTrainer.type(named: weights.classes[best]), confidence: p[best])
    }
}

import Foundation
import PitchsideCore

/// Trains a `ThrowTypeModel` from labelled pose windows: cross-entropy with
/// class weights (rare classes count as much as common ones), L2 on the
/// weights, Adam on shuffled mini-batches. Deterministic for a given seed.
///
/// ```swift
/// let model = try ThrowTypeTrainer.train(samples: samples, options: .init(hiddenUnits: 16))
/// let (accuracy, confusion) = ThrowTypeTrainer.evaluate(LearnedThrowTypeClassifier(model: model), on: heldOut)
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

    public struct Options: Sendable {
        /// Hidden tanh units; 0 trains softmax regression.
        public var hiddenUnits: Int
        public var epochs: Int
        public var batchSize: Int
        public var learningRate: Double
        public var l2: Double
        public var seed: UInt64

        public init(hiddenUnits: Int = 16, epochs: Int = 300, batchSize: Int = 64, learningRate: Double = 0.003,
                    l2: Double = 1e-3, seed: UInt64 = 1) {
            self.hiddenUnits = hiddenUnits
            self.epochs = epochs
            self.batchSize = batchSize
            self.learningRate = learningRate
            self.l2 = l2
            self.seed = seed
        }
    }

    public enum TrainingFailure: Error, CustomStringConvertible {
        case noUsableSamples
        case diverged

        public var description: String {
            switch self {
            case .noUsableSamples: return "no sample has enough poses to learn from"
            case .diverged: return "training diverged (a weight became infinite); lower the learning rate"
            }
        }
    }

    /// Feature vectors and class indices of the samples that have enough poses.
    public static func featurize(_ samples: [Sample]) -> (x: [[Double]], y: [Int]) {
        let classes = throwTypeClasses
        var xs: [[Double]] = [], ys: [Int] = []
        for s in samples {
            guard let x = WindowFeatures.extract(s.poses, releasePtsUs: s.releasePtsUs) else { continue }
            xs.append(x)
            ys.append(classes.firstIndex(of: s.label) ?? 3)
        }
        return (xs, ys)
    }

    public static func train(samples: [Sample], options: Options = Options(),
                             progress: (Int, Double) -> Void = { _, _ in }) throws -> ThrowTypeModel {
        let (xs, ys) = featurize(samples)
        return try train(features: xs, labels: ys, options: options, progress: progress)
    }

    /// Trains on feature vectors (`WindowFeatures` order) and class indices (`throwTypeClasses` order).
    /// `progress(epoch, loss)` is called every 25 epochs.
    public static func train(features xs: [[Double]], labels ys: [Int], options: Options = Options(),
                             featureNames: [String] = WindowFeatures.names,
                             progress: (Int, Double) -> Void = { _, _ in }) throws -> ThrowTypeModel {
        guard !xs.isEmpty else { throw TrainingFailure.noUsableSamples }
        let classes = throwTypeClasses.map(ThrowTypeModel.name(of:))
        let c = classes.count, d = xs[0].count, n = xs.count
        // Standardization.
        var mean = [Double](repeating: 0, count: d), std = [Double](repeating: 1, count: d)
        for k in 0..<d {
            let m = xs.reduce(0) { $0 + $1[k] } / Double(n)
            let v = xs.reduce(0) { $0 + ($1[k] - m) * ($1[k] - m) } / Double(n)
            mean[k] = m
            std[k] = max(1e-6, v.squareRoot())
        }
        let zs = xs.map { x in (0..<d).map { (x[$0] - mean[$0]) / std[$0] } }
        // Class weights: each class weighs as much in total.
        var counts = [Double](repeating: 0, count: c)
        for y in ys { counts[y] += 1 }
        let present = Double(counts.filter { $0 > 0 }.count)
        let classWeight = counts.map { $0 > 0 ? Double(n) / (present * $0) : 0 }

        var rng = TrainerRandom(seed: options.seed)
        let h = options.hiddenUnits
        let width = h > 0 ? h : d
        // Glorot-uniform initial weights, zero biases.
        func layer(_ outputs: Int, _ inputs: Int) -> [[Double]] {
            let limit = (6.0 / Double(inputs + outputs)).squareRoot()
            return (0..<outputs).map { _ in (0..<inputs).map { _ in (rng.unit() * 2 - 1) * limit } + [0] }
        }
        var model = ThrowTypeModel(featureNames: featureNames, classes: classes, mean: mean, std: std,
                                   hidden: h > 0 ? layer(h, d) : [], output: layer(c, width))
        var adamHidden = Adam(shape: model.hidden), adamOutput = Adam(shape: model.output)
        var order = Array(0..<n)
        let batch = max(1, min(options.batchSize, n))
        for epoch in 1...max(1, options.epochs) {
            for i in stride(from: n - 1, to: 0, by: -1) { order.swapAt(i, Int(rng.next() % UInt64(i + 1))) }
            var epochLoss = 0.0
            for start in stride(from: 0, to: n, by: batch) {
                let members = order[start..<min(n, start + batch)]
                var gHidden = model.hidden.map { [Double](repeating: 0, count: $0.count) }
                var gOutput = model.output.map { [Double](repeating: 0, count: $0.count) }
                var weightSum = 0.0
                for i in members {
                    let z = zs[i]
                    let a = model.hiddenActivations(z)
                    let p = model.outputProbabilities(a)
                    let w = classWeight[ys[i]]
                    weightSum += w
                    epochLoss -= w * Foundation.log(max(p[ys[i]], 1e-12))
                    // Output layer.
                    var back = [Double](repeating: 0, count: width)
                    for k in 0..<c {
                        let e = w * (p[k] - (k == ys[i] ? 1 : 0))
                        for u in 0..<width {
                            gOutput[k][u] += e * a[u]
                            back[u] += e * model.output[k][u]
                        }
                        gOutput[k][width] += e
                    }
                    // Hidden layer (tanh' = 1 − a²).
                    guard h > 0 else { continue }
                    for u in 0..<h {
                        let e = back[u] * (1 - a[u] * a[u])
                        guard e != 0 else { continue }
                        for k in 0..<d { gHidden[u][k] += e * z[k] }
                        gHidden[u][d] += e
                    }
                }
                let scale = 1 / max(weightSum, 1e-12)
                adamOutput.step(&model.output, gradient: gOutput, scale: scale, l2: options.l2, rate: options.learningRate)
                if h > 0 {
                    adamHidden.step(&model.hidden, gradient: gHidden, scale: scale, l2: options.l2, rate: options.learningRate)
                }
            }
            guard (model.output.joined()).allSatisfy(\.isFinite) else { throw TrainingFailure.diverged }
            if epoch % 25 == 0 || epoch == options.epochs { progress(epoch, epochLoss / Double(n)) }
        }
        return model
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

    /// A confusion matrix as text: rows true class, columns predicted.
    public static func describe(confusion: [[Int]]) -> String {
        let names = throwTypeClasses.map(ThrowTypeModel.name(of:))
        var lines = ["true \\ predicted " + names.map { $0.padding(toLength: 10, withPad: " ", startingAt: 0) }.joined()]
        for (i, row) in confusion.enumerated() {
            let total = row.reduce(0, +)
            let cells = row.map { String($0).padding(toLength: 10, withPad: " ", startingAt: 0) }.joined()
            let share = total > 0 ? String(format: "%5.1f%%", Double(row[i]) / Double(total) * 100) : "    -"
            lines.append(names[i].padding(toLength: 18, withPad: " ", startingAt: 0) + cells + share)
        }
        return lines.joined(separator: "\n")
    }

    /// Cuts labelled windows out of a stream of poses with known releases, as
    /// the game would see them (`PoseWindow.around`), plus `none` windows at
    /// moments at least 3 s from any release.
    public static func samples(poses: [PSPoseObservation], releases: [(ptsUs: Int64, type: PSThrowType)],
                               negativeEvery: Int = 60) -> [Sample] {
        let sorted = poses.filter(\.present).sorted { $0.header.ptsUs < $1.header.ptsUs }
        var out = releases.map { r in
            Sample(poses: PoseWindow.around(release: r.ptsUs, in: sorted), releasePtsUs: r.ptsUs, label: r.type)
        }
        let far: Int64 = 3_000_000
        var i = GameConstants.maxPoseObservations
        while i < sorted.count {
            let end = sorted[i].header.ptsUs
            if releases.allSatisfy({ abs($0.ptsUs - end) > far }) {
                out.append(Sample(poses: PoseWindow.around(release: end, in: sorted), releasePtsUs: end, label: .none))
            }
            i += max(1, negativeEvery)
        }
        return out
    }
}

/// Adam's moment estimates for one layer.
private struct Adam {
    var m: [[Double]]
    var v: [[Double]]
    var t = 0
    let beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8

    init(shape: [[Double]]) {
        m = shape.map { [Double](repeating: 0, count: $0.count) }
        v = m
    }

    /// One step on `weights` with gradient × `scale` plus L2 on everything but the bias column.
    mutating func step(_ weights: inout [[Double]], gradient: [[Double]], scale: Double, l2: Double, rate: Double) {
        t += 1
        let c1 = 1 - Foundation.pow(beta1, Double(t)), c2 = 1 - Foundation.pow(beta2, Double(t))
        for r in weights.indices {
            let bias = weights[r].count - 1
            for k in weights[r].indices {
                let g = gradient[r][k] * scale + (k == bias ? 0 : l2 * weights[r][k])
                m[r][k] = beta1 * m[r][k] + (1 - beta1) * g
                v[r][k] = beta2 * v[r][k] + (1 - beta2) * g * g
                weights[r][k] -= rate * (m[r][k] / c1) / ((v[r][k] / c2).squareRoot() + epsilon)
            }
        }
    }
}

/// A small deterministic generator (never the system one) for initial weights and shuffling.
struct TrainerRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}

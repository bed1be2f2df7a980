import Foundation
import PitchsideCore

/// A small learned throw-type model over `WindowFeatures`: standardization,
/// then one hidden layer of tanh units (none: softmax regression), then a
/// softmax over the classes. Stored as JSON; the game's default is compiled in
/// (`ThrowTypeModel.trained`, written by `pitchside train classifier`).
public struct ThrowTypeModel: Sendable, Codable, Equatable {
    public var schema = "pitchside-throw-type-model/1"
    /// Names of the inputs (`WindowFeatures.names` when trained); checked on load.
    public var featureNames: [String]
    /// Wire names of the classes, in output order.
    public var classes: [String]
    public var mean: [Double]
    public var std: [Double]
    /// Hidden layer: [unit][input + 1], the last column the bias; empty for softmax regression.
    public var hidden: [[Double]]
    /// Output layer: [class][hidden unit (or input) + 1], the last column the bias.
    public var output: [[Double]]
    /// How the model was made and how well it did (free text, for people).
    public var notes: [String: String] = [:]

    public init(featureNames: [String], classes: [String], mean: [Double], std: [Double], hidden: [[Double]],
                output: [[Double]], notes: [String: String] = [:]) {
        self.featureNames = featureNames
        self.classes = classes
        self.mean = mean
        self.std = std
        self.hidden = hidden
        self.output = output
        self.notes = notes
    }

    /// Why a model cannot be used.
    public enum LoadError: Error, CustomStringConvertible {
        case mismatch(String)

        public var description: String {
            switch self { case .mismatch(let why): return "throw-type model does not fit this build: \(why)" }
        }
    }

    public static func decode(_ data: Data) throws -> ThrowTypeModel {
        let model = try JSONDecoder().decode(ThrowTypeModel.self, from: data)
        try model.validate()
        return model
    }

    public static func load(_ url: URL) throws -> ThrowTypeModel { try decode(Data(contentsOf: url)) }

    public func encoded() throws -> Data {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return try e.encode(self)
    }

    public func save(_ url: URL) throws { try encoded().write(to: url) }

    /// Shapes agree with each other and with this build's features and classes.
    public func validate() throws {
        guard featureNames == WindowFeatures.names else {
            throw LoadError.mismatch("its \(featureNames.count) features are not this build's \(WindowFeatures.count)")
        }
        guard Set(classes) == Set(throwTypeClasses.map(ThrowTypeModel.name(of:))), classes.count == 4 else {
            throw LoadError.mismatch("classes \(classes)")
        }
        let d = featureNames.count
        guard mean.count == d, std.count == d, std.allSatisfy({ $0 > 0 }) else {
            throw LoadError.mismatch("standardization has the wrong size")
        }
        let width = hidden.isEmpty ? d : hidden.count
        guard hidden.allSatisfy({ $0.count == d + 1 }), output.count == classes.count,
              output.allSatisfy({ $0.count == width + 1 }) else {
            throw LoadError.mismatch("layer sizes do not chain")
        }
        guard (hidden + output + [mean, std]).allSatisfy({ $0.allSatisfy(\.isFinite) }) else {
            throw LoadError.mismatch("a weight is not finite")
        }
    }

    /// The standardized inputs.
    func standardize(_ x: [Double]) -> [Double] {
        var z = [Double](repeating: 0, count: x.count)
        for k in x.indices { z[k] = (x[k] - mean[k]) / std[k] }
        return z
    }

    /// Hidden activations for standardized inputs (the inputs themselves without a hidden layer).
    func hiddenActivations(_ z: [Double]) -> [Double] {
        guard !hidden.isEmpty else { return z }
        return hidden.map { w in
            var s = w[z.count]
            for k in z.indices { s += w[k] * z[k] }
            return Foundation.tanh(s)
        }
    }

    /// Softmax of the output layer over hidden activations.
    func outputProbabilities(_ h: [Double]) -> [Double] {
        let logits = output.map { w in
            var s = w[h.count]
            for k in h.indices { s += w[k] * h[k] }
            return s
        }
        let m = logits.max() ?? 0
        let e = logits.map { Foundation.exp($0 - m) }
        let total = e.reduce(0, +)
        return e.map { $0 / total }
    }

    /// Class probabilities for a feature vector, in `classes` order.
    public func probabilities(_ x: [Double]) -> [Double] {
        outputProbabilities(hiddenActivations(standardize(x)))
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
}

/// Runs a `ThrowTypeModel` over a pose window: the game's default classifier
/// with the compiled-in model.
public struct LearnedThrowTypeClassifier: ThrowTypeClassifier {
    public let model: ThrowTypeModel

    public init(model: ThrowTypeModel = .trained) { self.model = model }

    public func classify(_ poses: [PSPoseObservation], releasePtsUs: Int64?) -> ThrowTypeDecision {
        decide(poses, releasePtsUs: releasePtsUs) { _ in true }
    }

    /// The most probable throw class; its confidence is that class's probability, which stays
    /// low when the model took the window for none.
    public func classifyThrow(_ poses: [PSPoseObservation], releasePtsUs: Int64?) -> ThrowTypeDecision {
        decide(poses, releasePtsUs: releasePtsUs) { $0 != .none }
    }

    /// The most probable of the classes `allowed` admits, with its probability.
    private func decide(_ poses: [PSPoseObservation], releasePtsUs: Int64?,
                        allowed: (PSThrowType) -> Bool) -> ThrowTypeDecision {
        guard let x = WindowFeatures.extract(poses, releasePtsUs: releasePtsUs) else {
            return ThrowTypeDecision(type: .none, confidence: 0)
        }
        let p = model.probabilities(x)
        let types = model.classes.map(ThrowTypeModel.type(named:))
        guard let best = p.indices.filter({ allowed(types[$0]) }).max(by: { p[$0] < p[$1] }) else {
            return ThrowTypeDecision(type: .none, confidence: 0)
        }
        return ThrowTypeDecision(type: types[best], confidence: p[best])
    }
}

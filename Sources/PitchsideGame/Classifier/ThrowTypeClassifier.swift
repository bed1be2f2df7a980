import PitchsideCore

/// A throw-type decision with its confidence in [0, 1].
public struct ThrowTypeDecision: Sendable, Equatable {
    public var type: PSThrowType
    public var confidence: Double

    public init(type: PSThrowType, confidence: Double) {
        self.type = type
        self.confidence = confidence
    }
}

/// Classifies the pose window around a release as overhand, underhand,
/// underleg or none. `LearnedThrowTypeClassifier` (the game's default) runs a
/// model learned by `ThrowTypeTrainer` from the pose worker's output on
/// synthetic games; `RuleThrowTypeClassifier` needs no training data.
public protocol ThrowTypeClassifier: Sendable {
    func classify(_ poses: [PSPoseObservation], releasePtsUs: Int64?) -> ThrowTypeDecision
    /// The type of a throw whose flight was seen: the likeliest of overhand, underhand and
    /// underleg, since the flight settles that it was a throw. None only when the window holds
    /// too little of a person to tell.
    func classifyThrow(_ poses: [PSPoseObservation], releasePtsUs: Int64?) -> ThrowTypeDecision
}

/// The wire order of the classes the models output.
public let throwTypeClasses: [PSThrowType] = [.overhand, .underhand, .underleg, .none]

import PitchsideCore

/// A transparent throw-type classifier that needs no training data: a wrist
/// that passes below the knee is underleg; a wrist above the shoulder at
/// release is overhand; any other real arm swing is underhand; little wrist
/// motion (walking, picking up a bag) or too few poses is none.
public struct RuleThrowTypeClassifier: ThrowTypeClassifier {
    public init() {}

    public func classify(_ poses: [PSPoseObservation], releasePtsUs: Int64?) -> ThrowTypeDecision {
        decide(poses, releasePtsUs: releasePtsUs, swingKnown: false)
    }

    /// The same rules without the swing test: a seen flight says the arm swung.
    public func classifyThrow(_ poses: [PSPoseObservation], releasePtsUs: Int64?) -> ThrowTypeDecision {
        decide(poses, releasePtsUs: releasePtsUs, swingKnown: true)
    }

    private func decide(_ poses: [PSPoseObservation], releasePtsUs: Int64?, swingKnown: Bool) -> ThrowTypeDecision {
        let f = ThrowTypeFeatures.extract(poses, releasePtsUs: releasePtsUs)
        guard f.usableFrames >= 5 else { return ThrowTypeDecision(type: .none, confidence: 0) }
        let travel = max(f["wrist_travel_y"], f["wrist_travel_x"])
        if travel < 0.6, !swingKnown { return ThrowTypeDecision(type: .none, confidence: min(1, 0.5 + (0.6 - travel))) }
        let belowKnee = f["wrist_lowest_below_knee"]
        if belowKnee > 0.05 { return ThrowTypeDecision(type: .underleg, confidence: min(1, 0.6 + belowKnee)) }
        let atRelease = f["wrist_height_at_release_vs_shoulder"]
        if atRelease > 0.1 { return ThrowTypeDecision(type: .overhand, confidence: min(1, 0.6 + atRelease / 2)) }
        return ThrowTypeDecision(type: .underhand, confidence: min(1, 0.6 + min(0.4, (0.1 - atRelease) / 2)))
    }
}

import PitchsideCore

/// Scores poses against ground truth (synthetic games): how often a fully
/// visible person is found, and how far the limb joints land from the truth,
/// as a fraction of the person's height.
///
/// ```swift
/// var accuracy = PoseAccuracy()
/// accuracy.add(found: pose?.joints.map(\.position), truth: truthJoints, personHeight: 80)
/// print(accuracy.detectionRate, accuracy.medianError())
/// ```
public struct PoseAccuracy: Sendable {
    /// The joints whose error is scored: shoulders, elbows, wrists, hips, knees, ankles.
    public static let scoredJoints: [JointName] = [
        .rightShoulder, .leftShoulder, .rightElbow, .leftElbow, .rightWrist, .leftWrist,
        .rightHip, .leftHip, .rightKnee, .leftKnee, .rightAnkle, .leftAnkle,
    ]

    /// One joint of the truth, in pixels, and whether it is inside the frame.
    public struct TruthJoint: Sendable, Equatable {
        public var position: PosePoint
        public var inFrame: Bool

        public init(position: PosePoint, inFrame: Bool) {
            self.position = position
            self.inFrame = inFrame
        }
    }

    public private(set) var frames = 0
    /// Frames where every truth joint is inside the frame.
    public private(set) var visibleFrames = 0
    /// Visible frames with a pose found.
    public private(set) var foundFrames = 0
    /// Frames without a visible person that still gave a pose.
    public private(set) var posesWithoutPerson = 0
    /// Per scored joint, the error of each found visible frame / person height.
    public private(set) var errors: [JointName: [Float]] = [:]

    public init() {}

    /// Adds one frame: `found` are the 18 predicted joints in `JointName.allCases`
    /// order (nil when no pose), `truth` the 18 true joints, `personHeight` the
    /// person's standing height, all in pixels.
    public mutating func add(found: [PosePoint]?, truth: [TruthJoint], personHeight: Float) {
        frames += 1
        let visible = truth.count == JointName.allCases.count && truth.allSatisfy(\.inFrame)
        guard visible else {
            if found != nil { posesWithoutPerson += 1 }
            return
        }
        visibleFrames += 1
        guard let found else { return }
        foundFrames += 1
        for joint in Self.scoredJoints {
            let i = JointName.allCases.firstIndex(of: joint)!
            errors[joint, default: []].append(found[i].distance(to: truth[i].position) / personHeight)
        }
    }

    /// Found / fully visible frames (1 when there were none).
    public var detectionRate: Double { visibleFrames == 0 ? 1 : Double(foundFrames) / Double(visibleFrames) }

    /// Median error of one joint, or over all scored joints; nil without data.
    public func medianError(_ joint: JointName? = nil) -> Float? {
        let values = joint.map { errors[$0] ?? [] } ?? errors.values.flatMap { $0 }
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    /// The worst per-joint median among the scored joints.
    public var worstJointMedian: (joint: JointName, error: Float)? {
        Self.scoredJoints.compactMap { j in medianError(j).map { (j, $0) } }.max { $0.1 < $1.1 }
    }
}

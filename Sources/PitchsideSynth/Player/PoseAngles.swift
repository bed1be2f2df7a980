/// A body posture as joint angles, degrees. Arm and leg angles are swings in the body's forward
/// plane measured from straight down (positive = forward/up); elbow and knee angles are flexion.
public struct PoseAngles: Sendable, Equatable {
    public var lean = 0.0
    public var rightShoulder = 0.0, rightElbow = 0.0
    public var leftShoulder = 0.0, leftElbow = 0.0
    public var rightHip = 0.0, rightKnee = 0.0
    public var leftHip = 0.0, leftKnee = 0.0

    public init() {}

    /// Shorthand for keyframe tables: lean, right shoulder/elbow, left shoulder/elbow,
    /// right hip/knee, left hip/knee.
    public init(_ v: [Double]) {
        lean = v[0]
        rightShoulder = v[1]
        rightElbow = v[2]
        leftShoulder = v[3]
        leftElbow = v[4]
        rightHip = v[5]
        rightKnee = v[6]
        leftHip = v[7]
        leftKnee = v[8]
    }

    static func mix(_ a: PoseAngles, _ b: PoseAngles, _ t: Double) -> PoseAngles {
        var p = PoseAngles()
        p.lean = lerp(a.lean, b.lean, t)
        p.rightShoulder = lerp(a.rightShoulder, b.rightShoulder, t)
        p.rightElbow = lerp(a.rightElbow, b.rightElbow, t)
        p.leftShoulder = lerp(a.leftShoulder, b.leftShoulder, t)
        p.leftElbow = lerp(a.leftElbow, b.leftElbow, t)
        p.rightHip = lerp(a.rightHip, b.rightHip, t)
        p.rightKnee = lerp(a.rightKnee, b.rightKnee, t)
        p.leftHip = lerp(a.leftHip, b.leftHip, t)
        p.leftKnee = lerp(a.leftKnee, b.leftKnee, t)
        return p
    }
}

/// A posture over a normalized time [0, 1], by keyframes eased with smoothstep.
struct KeyframeTrack: Sendable {
    let keys: [(Double, PoseAngles)]

    init(_ keys: [(Double, [Double])]) { self.keys = keys.map { ($0.0, PoseAngles($0.1)) } }

    func angles(at phase: Double) -> PoseAngles {
        let t = clamp(phase, 0, 1)
        for i in 1..<keys.count where t <= keys[i].0 {
            let (t0, a) = keys[i - 1]
            let (t1, b) = keys[i]
            return PoseAngles.mix(a, b, smoothstep((t - t0) / max(t1 - t0, 1e-9)))
        }
        return keys[keys.count - 1].1
    }
}

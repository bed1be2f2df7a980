import Foundation

/// A posed body in the world: every point the painter draws and the truth records.
public struct BodyPose: Sendable {
    public var head = Vec3.zero, nose = Vec3.zero, mouth = Vec3.zero
    public var rightEye = Vec3.zero, leftEye = Vec3.zero, rightEar = Vec3.zero, leftEar = Vec3.zero
    public var neck = Vec3.zero
    public var rightShoulder = Vec3.zero, rightElbow = Vec3.zero, rightWrist = Vec3.zero, rightHand = Vec3.zero
    public var leftShoulder = Vec3.zero, leftElbow = Vec3.zero, leftWrist = Vec3.zero, leftHand = Vec3.zero
    public var rightHip = Vec3.zero, rightKnee = Vec3.zero, rightAnkle = Vec3.zero, rightToe = Vec3.zero
    public var leftHip = Vec3.zero, leftKnee = Vec3.zero, leftAnkle = Vec3.zero, leftToe = Vec3.zero
    public var rightHeel = Vec3.zero, leftHeel = Vec3.zero
    /// Facing direction and the body's right, unit vectors.
    public var forward = Vec3(1, 0, 0), right = Vec3(0, 0, 1)
    public var height = 1.75

    /// The 18 joints in PitchsideCore's `JointName` order.
    public var joints: [Vec3] {
        [nose, neck, rightShoulder, rightElbow, rightWrist, leftShoulder, leftElbow, leftWrist,
         rightHip, rightKnee, rightAnkle, leftHip, leftKnee, leftAnkle, rightEye, leftEye, rightEar, leftEar]
    }

    /// Poses a body of the given height standing at `root` (on the ground), facing `facingDegrees`
    /// (0 = +x, toward the board; positive turns toward +z).
    public init(angles a: PoseAngles, root: Vec3, facingDegrees: Double, height h: Double) {
        height = h
        let phi = radians(facingDegrees)
        let f = Vec3(cos(phi), 0, sin(phi))
        let u = Vec3.up
        let r = f.cross(u)
        forward = f
        right = r
        func swing(_ deg: Double) -> Vec3 {
            let t = radians(deg)
            return u * -cos(t) + f * sin(t)
        }
        let thigh = 0.245 * h, shin = 0.245 * h, ankle = 0.04 * h
        func drop(_ hip: Double, _ knee: Double) -> Double {
            thigh * cos(radians(hip)) + shin * cos(radians(hip - knee)) + ankle
        }
        // The lower foot stands on the ground.
        let pelvisHeight = max(drop(a.rightHip, a.rightKnee), drop(a.leftHip, a.leftKnee))
        let pelvis = Vec3(root.x, pelvisHeight, root.z)
        let lean = radians(a.lean)
        let spine = u * cos(lean) + f * sin(lean)
        neck = pelvis + spine * (0.30 * h)
        head = neck + spine * (0.075 * h) + u * (0.04 * h)
        let headR = 0.0667 * h
        let headUp = (u * 0.8 + spine * 0.2).normalized
        nose = head + f * (headR * 0.95) - headUp * (headR * 0.05)
        mouth = head + f * (headR * 0.82) - headUp * (headR * 0.45)
        rightEye = head + f * (headR * 0.72) + r * (headR * 0.38) + headUp * (headR * 0.18)
        leftEye = head + f * (headR * 0.72) - r * (headR * 0.38) + headUp * (headR * 0.18)
        rightEar = head + r * (headR * 0.78) - f * (headR * 0.1)
        leftEar = head - r * (headR * 0.78) - f * (headR * 0.1)
        let shoulderHalf = 0.115 * h
        let shoulderBase = neck - spine * (0.025 * h)
        rightShoulder = shoulderBase + r * shoulderHalf
        leftShoulder = shoulderBase - r * shoulderHalf
        let upperArm = 0.17 * h, forearm = 0.15 * h, hand = 0.055 * h
        rightElbow = rightShoulder + swing(a.rightShoulder) * upperArm + r * (0.02 * h)
        rightWrist = rightElbow + swing(a.rightShoulder + a.rightElbow) * forearm
        rightHand = rightWrist + swing(a.rightShoulder + a.rightElbow) * hand
        leftElbow = leftShoulder + swing(a.leftShoulder) * upperArm - r * (0.02 * h)
        leftWrist = leftElbow + swing(a.leftShoulder + a.leftElbow) * forearm
        leftHand = leftWrist + swing(a.leftShoulder + a.leftElbow) * hand
        let hipHalf = 0.06 * h
        rightHip = pelvis + r * hipHalf
        leftHip = pelvis - r * hipHalf
        rightKnee = rightHip + swing(a.rightHip) * thigh
        rightAnkle = rightKnee + swing(a.rightHip - a.rightKnee) * shin
        leftKnee = leftHip + swing(a.leftHip) * thigh
        leftAnkle = leftKnee + swing(a.leftHip - a.leftKnee) * shin
        let footDown = u * (-0.6 * ankle)
        rightToe = rightAnkle + f * (0.1 * h) + footDown
        rightHeel = rightAnkle - f * (0.03 * h) + footDown
        leftToe = leftAnkle + f * (0.1 * h) + footDown
        leftHeel = leftAnkle - f * (0.03 * h) + footDown
    }
}

/// The 18 body joints Pitchside reports, in the order of Apple's action
/// classifier input (nose, neck, right arm, left arm, right leg, left leg, eyes, ears).
public enum JointName: String, Sendable, CaseIterable, Codable {
    case nose
    case neck
    case rightShoulder = "right_shoulder"
    case rightElbow = "right_elbow"
    case rightWrist = "right_wrist"
    case leftShoulder = "left_shoulder"
    case leftElbow = "left_elbow"
    case leftWrist = "left_wrist"
    case rightHip = "right_hip"
    case rightKnee = "right_knee"
    case rightAnkle = "right_ankle"
    case leftHip = "left_hip"
    case leftKnee = "left_knee"
    case leftAnkle = "left_ankle"
    case rightEye = "right_eye"
    case leftEye = "left_eye"
    case rightEar = "right_ear"
    case leftEar = "left_ear"
}

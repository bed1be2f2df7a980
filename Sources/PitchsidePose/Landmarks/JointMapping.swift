import PitchsideCore

/// BlazePose's 33 landmark indices for the 18 Vision-named joints Pitchside reports.
///
/// BlazePose names sides from the person's point of view, as Vision does.
/// The neck has no landmark: it is the midpoint of the shoulders, with the
/// lower of their two confidences.
public enum JointMapping {
    /// Landmark index for each joint; the neck maps to both shoulders.
    public static func landmarkIndices(_ joint: JointName) -> [Int] {
        switch joint {
        case .nose: return [0]
        case .neck: return [11, 12]
        case .rightShoulder: return [12]
        case .rightElbow: return [14]
        case .rightWrist: return [16]
        case .leftShoulder: return [11]
        case .leftElbow: return [13]
        case .leftWrist: return [15]
        case .rightHip: return [24]
        case .rightKnee: return [26]
        case .rightAnkle: return [28]
        case .leftHip: return [23]
        case .leftKnee: return [25]
        case .leftAnkle: return [27]
        case .rightEye: return [5]
        case .leftEye: return [2]
        case .rightEar: return [8]
        case .leftEar: return [7]
        }
    }

    /// A landmark's confidence: visible and inside the image.
    public static func confidence(_ landmark: PoseLandmark) -> Float {
        min(landmark.visibility, landmark.presence)
    }

    /// The 18 joints, in `JointName.allCases` order, from the 33 body landmarks.
    public static func joints(from landmarks: [PoseLandmark]) -> [PoseJoint] {
        JointName.allCases.map { name in
            let points = landmarkIndices(name).map { landmarks[$0] }
            let x = points.map(\.x).reduce(0, +) / Float(points.count)
            let y = points.map(\.y).reduce(0, +) / Float(points.count)
            let confidence = points.map(confidence).min() ?? 0
            return PoseJoint(name: name, position: PosePoint(x: x, y: y), confidence: confidence)
        }
    }
}

/// One named joint in image pixels with its confidence in [0, 1].
public struct PoseJoint: Sendable, Equatable {
    public var name: JointName
    public var position: PosePoint
    public var confidence: Float

    public init(name: JointName, position: PosePoint, confidence: Float) {
        self.name = name
        self.position = position
        self.confidence = confidence
    }
}

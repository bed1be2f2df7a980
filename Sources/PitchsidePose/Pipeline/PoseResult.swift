import PitchsideCore

/// One person's pose in one frame, in image pixels.
///
/// `normalized…` helpers give Pitchside's normalized coordinates (origin
/// top-left, x right, y down, both in [0, 1] over the image).
public struct PoseResult: Sendable {
    /// The 33 BlazePose landmarks.
    public var landmarks: [PoseLandmark]
    /// The 18 Vision-named joints, in `JointName.allCases` order.
    public var joints: [PoseJoint]
    /// Box around the confident landmarks, padded to take in the head and feet;
    /// may extend past the image edges when the person does.
    public var personBox: PoseBox
    /// Probability that a person is in the region (the landmark model's presence output).
    public var presence: Float
    /// The region the landmark model looked at.
    public var region: PoseRegion
    /// True when the detector ran for this frame (tracking was lost or had not started).
    public var usedDetector: Bool
    public var imageWidth: Int
    public var imageHeight: Int

    public init(landmarks: [PoseLandmark], joints: [PoseJoint], personBox: PoseBox, presence: Float,
                region: PoseRegion, usedDetector: Bool, imageWidth: Int, imageHeight: Int) {
        self.landmarks = landmarks
        self.joints = joints
        self.personBox = personBox
        self.presence = presence
        self.region = region
        self.usedDetector = usedDetector
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
    }

    /// The joint named `name`.
    public func joint(_ name: JointName) -> PoseJoint {
        joints[JointName.allCases.firstIndex(of: name)!]
    }

    /// `point` in normalized image coordinates.
    public func normalized(_ point: PosePoint) -> PosePoint {
        PosePoint(x: point.x / Float(imageWidth), y: point.y / Float(imageHeight))
    }

    /// The person box in normalized image coordinates.
    public var normalizedPersonBox: PoseBox {
        PoseBox(minX: personBox.minX / Float(imageWidth), minY: personBox.minY / Float(imageHeight),
                maxX: personBox.maxX / Float(imageWidth), maxY: personBox.maxY / Float(imageHeight))
    }

    /// The person box from landmarks: those with confidence ≥ `minConfidence`
    /// (all 33 when fewer than two are), padded by `padding` × the box's longer side.
    public static func personBox(landmarks: [PoseLandmark], minConfidence: Float = 0.5, padding: Float = 0.08) -> PoseBox {
        let body = landmarks.prefix(LandmarkDecoder.bodyLandmarkCount)
        var confident = body.filter { JointMapping.confidence($0) >= minConfidence }.map(\.point)
        if confident.count < 2 { confident = body.map(\.point) }
        var box = PoseBox.enclosing(confident) ?? PoseBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
        let pad = max(box.width, box.height) * padding
        box.minX -= pad; box.minY -= pad; box.maxX += pad; box.maxY += pad
        return box
    }
}

/// One person found by the detector: a box, four keypoints and a score.
///
/// Keypoints follow BlazePose's detector: 0 hip centre, 1 a point whose
/// distance from the hip centre encloses the whole body, 2 shoulder centre,
/// 3 a point enclosing the upper body. Units are those of the space the
/// detection was decoded in (detector input, normalized; or image pixels).
public struct PersonDetection: Sendable, Equatable {
    public var score: Float
    public var box: PoseBox
    public var keypoints: [PosePoint]

    public init(score: Float, box: PoseBox, keypoints: [PosePoint]) {
        self.score = score
        self.box = box
        self.keypoints = keypoints
    }

    /// The same detection with every coordinate mapped.
    public func mapped(_ transform: (PosePoint) -> PosePoint) -> PersonDetection {
        let a = transform(PosePoint(x: box.minX, y: box.minY))
        let b = transform(PosePoint(x: box.maxX, y: box.maxY))
        return PersonDetection(
            score: score,
            box: PoseBox(minX: min(a.x, b.x), minY: min(a.y, b.y), maxX: max(a.x, b.x), maxY: max(a.y, b.y)),
            keypoints: keypoints.map(transform))
    }

    /// The region the landmark model should look at for this person.
    public var landmarkRegion: PoseRegion {
        PoseRegion.aligned(center: keypoints[0], scalePoint: keypoints[1])
    }
}

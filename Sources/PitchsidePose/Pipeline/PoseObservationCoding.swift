import PitchsideCore

extension PSPoseObservation {
    /// The wire form of one frame's pose results: everyone the estimator tracks, the one
    /// tracked longest first (`present == false` when there is nobody).
    public init(people: [PoseResult], frame: VideoFrame, producerID: String, shard: ShardSelector = .all) {
        self.init(result: people.first, frame: frame, producerID: producerID, shard: shard)
        others = people.dropFirst().map { person in
            var other = PSPersonPose()
            other.presence = Double(person.presence)
            other.joints = Self.wireJoints(person)
            other.personBox = Self.wireBox(person)
            return other
        }
    }

    /// The wire form of one frame's pose result (`present == false` when
    /// `result` is nil), with coordinates normalized to the frame.
    public init(result: PoseResult?, frame: VideoFrame, producerID: String, shard: ShardSelector = .all) {
        self.init()
        header = PSHeader(frame: frame, producerID: producerID)
        shardIndex = UInt32(shard.index)
        shardCount = UInt32(shard.count)
        guard let result else { return }
        let w = Double(result.imageWidth), h = Double(result.imageHeight)
        present = true
        presence = Double(result.presence)
        joints = Self.wireJoints(result)
        landmarks = result.landmarks.map { landmark in
            var l = PSLandmark()
            l.x = Double(landmark.x) / w
            l.y = Double(landmark.y) / h
            l.z = Double(landmark.z) / w
            l.visibility = Double(landmark.visibility)
            l.presence = Double(landmark.presence)
            return l
        }
        personBox = Self.wireBox(result)
    }

    /// The 18 joints, normalized to the image.
    static func wireJoints(_ result: PoseResult) -> [PSJoint] {
        let w = Double(result.imageWidth), h = Double(result.imageHeight)
        return result.joints.map { joint in
            var j = PSJoint()
            j.name = joint.name.rawValue
            var p = PSPoint()
            p.x = Double(joint.position.x) / w
            p.y = Double(joint.position.y) / h
            j.position = p
            j.confidence = Double(joint.confidence)
            return j
        }
    }

    /// The person box, normalized to the image.
    static func wireBox(_ result: PoseResult) -> PSRect {
        let w = Double(result.imageWidth), h = Double(result.imageHeight)
        var box = PSRect()
        box.x = Double(result.personBox.minX) / w
        box.y = Double(result.personBox.minY) / h
        box.width = Double(result.personBox.width) / w
        box.height = Double(result.personBox.height) / h
        return box
    }
}

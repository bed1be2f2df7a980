import PitchsideCore

extension PSPoseObservation {
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
        joints = result.joints.map { joint in
            var j = PSJoint()
            j.name = joint.name.rawValue
            var p = PSPoint()
            p.x = Double(joint.position.x) / w
            p.y = Double(joint.position.y) / h
            j.position = p
            j.confidence = Double(joint.confidence)
            return j
        }
        landmarks = result.landmarks.map { landmark in
            var l = PSLandmark()
            l.x = Double(landmark.x) / w
            l.y = Double(landmark.y) / h
            l.z = Double(landmark.z) / w
            l.visibility = Double(landmark.visibility)
            l.presence = Double(landmark.presence)
            return l
        }
        var box = PSRect()
        box.x = Double(result.personBox.minX) / w
        box.y = Double(result.personBox.minY) / h
        box.width = Double(result.personBox.width) / w
        box.height = Double(result.personBox.height) / h
        personBox = box
    }
}

import PitchsideCore

/// Poses for the frames the pose worker did not analyse.
///
/// A pose worker may skip frames (`worker pose --every N` while the body moves slowly,
/// `--shard k/N` with no worker for the other shards, or frames lost in live pacing). The
/// throw-type classifier and the release angle expect a pose on every frame, so a short gap
/// between two present poses gets poses interpolated joint by joint, at the skipped frames'
/// own times. A frame the worker analysed and found nobody in is never filled (its
/// observation says nobody is there), nor is a gap longer than `maximumGap` frames.
///
/// ```swift
/// var filler = PoseGapFiller()
/// for pose in filler.fill(observation) { window.add(pose) }   // present poses, in order
/// ```
public struct PoseGapFiller: Sendable {
    /// The longest run of frames without an observation that is filled, plus one.
    public static let maximumGap: UInt64 = 4

    private var last: PSPoseObservation?

    public init() {}

    /// The present poses to store for `pose`: the interpolated ones before it
    /// (oldest first) and the pose itself; nothing when no person is present.
    public mutating func fill(_ pose: PSPoseObservation) -> [PSPoseObservation] {
        let seq = pose.header.seq
        guard let previous = last, seq > previous.header.seq else {
            // The first pose, or a late one: no gap to fill from it.
            if last == nil { last = pose }
            return pose.present ? [pose] : []
        }
        last = pose
        guard pose.present else { return [] }
        let gap = seq - previous.header.seq
        guard previous.present, gap > 1, gap <= Self.maximumGap else { return [pose] }
        let between = (1..<gap).map { k in Self.interpolate(previous, pose, fraction: Double(k) / Double(gap)) }
        return between + [pose]
    }

    /// The pose a fraction of the way from `a` to `b`: joints present in both
    /// moved linearly, the others left out; frame time and number in between.
    static func interpolate(_ a: PSPoseObservation, _ b: PSPoseObservation, fraction f: Double) -> PSPoseObservation {
        var out = b
        let gap = Double(b.header.seq - a.header.seq)
        out.header.seq = a.header.seq + UInt64((f * gap).rounded())
        out.header.ptsUs = a.header.ptsUs + Int64((Double(b.header.ptsUs - a.header.ptsUs) * f).rounded())
        // The person box stays the later one's: it places the thrower, not the throw's timing.
        (out.presence, out.joints, _) = interpolatePerson(a, b, fraction: f)
        out.landmarks = []  // the 33 raw landmarks are not used past the worker
        // Everyone else in view moves too: each matched to the nearest person of `a`.
        let earlierPeople = ThrowerPoses.people(a)
        out.others = ThrowerPoses.people(b).dropFirst().compactMap { later in
            guard let start = ThrowerPoses.nearest(to: later, in: earlierPeople) else { return nil }
            let moved = interpolatePerson(start, later, fraction: f)
            var person = PSPersonPose()
            person.presence = moved.presence
            person.joints = moved.joints
            person.personBox = moved.personBox
            return person
        }
        return out
    }

    /// One person's presence, joints and box a fraction of the way from `a` to `b`.
    private static func interpolatePerson(_ a: PSPoseObservation, _ b: PSPoseObservation, fraction f: Double)
        -> (presence: Double, joints: [PSJoint], personBox: PSRect) {
        let earlier = Dictionary(a.joints.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let joints = b.joints.compactMap { jb -> PSJoint? in
            guard let ja = earlier[jb.name] else { return nil }
            var j = jb
            j.position.x = ja.position.x + (jb.position.x - ja.position.x) * f
            j.position.y = ja.position.y + (jb.position.y - ja.position.y) * f
            j.confidence = min(ja.confidence, jb.confidence)
            return j
        }
        var box = b.personBox
        box.x = a.personBox.x + (b.personBox.x - a.personBox.x) * f
        box.y = a.personBox.y + (b.personBox.y - a.personBox.y) * f
        box.width = a.personBox.width + (b.personBox.width - a.personBox.width) * f
        box.height = a.personBox.height + (b.personBox.height - a.personBox.height) * f
        return (a.presence + (b.presence - a.presence) * f, joints, box)
    }
}

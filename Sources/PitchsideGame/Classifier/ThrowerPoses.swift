import PitchsideCore

/// The thrower's poses out of frames that may show several people.
///
/// The pose worker tracks everyone in view (`PSPoseObservation.others`); in a
/// two-player game the one tracked longest is as often the player waiting as
/// the one throwing. The bag leaves the thrower's hand, so at release the
/// thrower is the person with a wrist nearest the flight's first point; from
/// there the same person is followed frame by frame, back and forth, as the
/// box nearest the one before. The game (release angle, throw type) and the
/// trainer (`ThrowTypeExamples`) both pick the thrower with this function.
///
/// ```swift
/// let window = PoseWindow.around(release: release, in: stored)
/// let thrower = ThrowerPoses.follow(window, release: release, releasePoint: Vec2(0.31, 0.55))
/// ```
public enum ThrowerPoses {
    /// Farthest a person's box centre moves from one pose to the next, in box heights (a throw's
    /// lunge moves it about a tenth; a player standing beside the thrower is half a height away or more).
    static let maximumStep = 0.3

    /// One pose per frame of the person who threw at `release` from `releasePoint`
    /// (normalized image coordinates), each with no `others`. Frames where that person
    /// is not found are left out. Frames that show one person only come back as they are.
    public static func follow(_ poses: [PSPoseObservation], release: Int64, releasePoint: Vec2?) -> [PSPoseObservation] {
        guard let releasePoint, poses.contains(where: { !$0.others.isEmpty }) else { return poses }
        let frames = poses.map(people)
        guard let anchor = frames.indices.last(where: { poses[$0].header.ptsUs <= release && !frames[$0].isEmpty })
                ?? frames.indices.first(where: { !frames[$0].isEmpty }) else { return poses }
        let chosen = frames[anchor].min { a, b in
            distance(releasePoint, toHandsOf: a) < distance(releasePoint, toHandsOf: b)
        }!
        var before: [PSPoseObservation] = [], after: [PSPoseObservation] = []
        var reference = chosen
        for i in stride(from: anchor - 1, through: 0, by: -1) {
            guard let next = nearest(to: reference, in: frames[i]) else { continue }
            before.append(next)
            reference = next
        }
        reference = chosen
        for i in (anchor + 1)..<frames.count {
            guard let next = nearest(to: reference, in: frames[i]) else { continue }
            after.append(next)
            reference = next
        }
        return before.reversed() + [chosen] + after
    }

    /// Everyone in a frame, each as an observation of its own (same header, no `others`).
    public static func people(_ o: PSPoseObservation) -> [PSPoseObservation] {
        guard o.present else { return [] }
        var first = o
        first.others = []
        return [first] + o.others.map { other in
            var person = first
            person.presence = other.presence
            person.joints = other.joints
            person.personBox = other.personBox
            person.landmarks = []
            return person
        }
    }

    /// The person in `candidates` whose box is nearest `reference`'s, if within `maximumStep`.
    static func nearest(to reference: PSPoseObservation, in candidates: [PSPoseObservation]) -> PSPoseObservation? {
        let aspect = aspectRatio(reference)
        let scale = max(reference.personBox.height, 1e-4)
        func step(_ c: PSPoseObservation) -> Double {
            let a = centre(reference.personBox), b = centre(c.personBox)
            return Vec2((a.x - b.x) * aspect, a.y - b.y).length / scale
        }
        guard let best = candidates.min(by: { step($0) < step($1) }), step(best) <= maximumStep else { return nil }
        return best
    }

    /// How far `point` is from the person's nearer wrist (or box centre, without wrists), in image heights.
    static func distance(_ point: Vec2, toHandsOf person: PSPoseObservation) -> Double {
        let aspect = aspectRatio(person)
        let wrists = person.joints.filter { ($0.name == JointName.rightWrist.rawValue || $0.name == JointName.leftWrist.rawValue)
            && $0.confidence > 0 }
        let places = wrists.isEmpty ? [centre(person.personBox)] : wrists.map { Vec2($0.position.x, $0.position.y) }
        return places.map { Vec2(($0.x - point.x) * aspect, $0.y - point.y).length }.min()!
    }

    static func centre(_ box: PSRect) -> Vec2 { Vec2(box.x + box.width / 2, box.y + box.height / 2) }

    static func aspectRatio(_ o: PSPoseObservation) -> Double {
        o.header.frameHeight > 0 ? Double(o.header.frameWidth) / Double(o.header.frameHeight) : 16.0 / 9.0
    }
}

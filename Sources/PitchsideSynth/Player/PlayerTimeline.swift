import Foundation

/// One stretch of a player's time doing one action, moving from `from` to `to`.
public struct ActionSegment: Sendable {
    public var start: Double
    public var end: Double
    public var action: PlayerAction
    public var from: Vec3
    public var to: Vec3
    /// Whether a bag is in the right hand (for throws: until the release).
    public var holdsBag: Bool
    /// For throws: the release time.
    public var release: Double?
}

/// A player's whole game as a sequence of actions; answers the posture at any time.
public struct PlayerTimeline: Sendable {
    public let settings: PlayerSettings
    /// Facing yaw toward the camera (degrees, sign picks the camera's side).
    let towardCamera: Double
    public private(set) var segments: [ActionSegment] = []
    public private(set) var position: Vec3

    init(settings: PlayerSettings, start: Vec3, towardCamera: Double) {
        self.settings = settings
        self.position = start
        self.towardCamera = towardCamera
    }

    var endTime: Double { segments.last?.end ?? 0 }

    /// Appends an action from the end of the last one (filling any gap with idling).
    mutating func append(_ action: PlayerAction, start: Double, duration: Double, to: Vec3? = nil,
                         holdsBag: Bool, release: Double? = nil) {
        if start > endTime + 1e-9 {
            segments.append(ActionSegment(start: endTime, end: start, action: .idle, from: position, to: position,
                                          holdsBag: holdsBag, release: nil))
        }
        let target = to ?? position
        segments.append(ActionSegment(start: start, end: start + duration, action: action, from: position, to: target,
                                      holdsBag: holdsBag, release: release))
        position = target
    }

    mutating func idle(until t: Double, holdsBag: Bool) {
        if t > endTime {
            segments.append(ActionSegment(start: endTime, end: t, action: .idle, from: position, to: position,
                                          holdsBag: holdsBag, release: nil))
        }
    }

    func segment(at t: Double) -> ActionSegment? {
        // Binary search: segments are contiguous and ordered.
        var lo = 0, hi = segments.count - 1
        guard hi >= 0 else { return nil }
        if t < segments[0].start { return nil }
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].start <= t { lo = mid } else { hi = mid - 1 }
        }
        return segments[lo]
    }

    /// The action at time t (idle outside the planned segments).
    public func action(at t: Double) -> PlayerAction { segment(at: t).map { $0.end > t ? $0.action : .idle } ?? .idle }

    /// The body at time t and whether the right hand holds a bag.
    public func pose(at t: Double) -> (body: BodyPose, holdsBag: Bool) {
        let h = settings.height
        guard let seg = segment(at: t), t < seg.end else {
            let root = segments.last?.to ?? position
            return (BodyPose(angles: ActionLibrary.idle(at: t), root: root, facingDegrees: towardCamera, height: h),
                    segments.last?.holdsBag ?? true)
        }
        let phase = (t - seg.start) / max(seg.end - seg.start, 1e-9)
        switch seg.action {
        case .idle:
            return (BodyPose(angles: ActionLibrary.idle(at: t), root: seg.from, facingDegrees: towardCamera, height: h),
                    seg.holdsBag)
        case .walking:
            let d = seg.to - seg.from
            let distance = d.horizontalLength
            let root = seg.from + d * phase
            let heading = distance > 0 ? degrees(atan2(d.z, d.x)) : 0
            // Face the way of walking, turned toward the camera.
            let facing = abs(heading) > 90 ? 180 - towardCamera : towardCamera
            let cycle = distance > 0 ? (phase * distance / 1.3) : phase * 2
            return (BodyPose(angles: ActionLibrary.walk(cycle: cycle, holdsBag: seg.holdsBag), root: root,
                             facingDegrees: facing + (heading.magnitude > 90 ? 0 : 0), height: h), seg.holdsBag)
        case .pickingUp:
            return (BodyPose(angles: ActionLibrary.pickUp.angles(at: phase), root: seg.from,
                             facingDegrees: towardCamera, height: h), seg.holdsBag || phase > 0.5)
        case .overhand, .underhand, .underleg:
            let style = seg.action.throwStyle!
            let holds = t < (seg.release ?? seg.end)
            return (BodyPose(angles: ActionLibrary.track(style).angles(at: phase), root: seg.from,
                             facingDegrees: towardCamera, height: h), holds)
        }
    }
}

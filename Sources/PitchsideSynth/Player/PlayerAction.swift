import Foundation

/// What a player is doing: a throw style or a negative action (not a throw).
public enum PlayerAction: String, Sendable, Codable, CaseIterable {
    case idle
    case walking
    case pickingUp = "picking_up"
    case overhand, underhand, underleg

    public var isThrow: Bool { throwStyle != nil }

    public var throwStyle: ThrowStyle? {
        switch self {
        case .overhand: return .overhand
        case .underhand: return .underhand
        case .underleg: return .underleg
        default: return nil
        }
    }

    public init(_ style: ThrowStyle) {
        switch style {
        case .overhand: self = .overhand
        case .underhand: self = .underhand
        case .underleg: self = .underleg
        }
    }
}

/// The animation of each action: keyframes, duration and, for throws, the release moment.
enum ActionLibrary {
    /// Seconds a throw takes and the fraction of it at which the bag leaves the hand.
    static func timing(_ style: ThrowStyle) -> (duration: Double, release: Double) {
        switch style {
        case .overhand: return (1.3, 0.55)
        case .underhand: return (1.4, 0.62)
        case .underleg: return (1.6, 0.60)
        }
    }

    static let pickUpDuration = 1.8

    // Columns: lean, right shoulder, right elbow, left shoulder, left elbow, right hip, right knee,
    // left hip, left knee (degrees).
    static let idleAngles: [Double] = [3, 18, 65, 6, 20, 0, 4, 2, 4]

    static let overhand = KeyframeTrack([
        (0.0, idleAngles),
        (0.30, [-6, 170, 115, 45, 25, -10, 10, 18, 10]),
        (0.55, [10, 118, 20, 5, 20, -15, 15, 22, 14]),
        (0.75, [16, 55, 20, -10, 20, -15, 15, 22, 14]),
        (1.0, idleAngles),
    ])

    static let underhand = KeyframeTrack([
        (0.0, idleAngles),
        (0.30, [16, -55, 10, 35, 30, -10, 15, 18, 15]),
        (0.62, [16, 62, 10, -10, 20, -15, 25, 26, 20]),
        (0.80, [10, 112, 15, -15, 20, -15, 20, 22, 15]),
        (1.0, idleAngles),
    ])

    static let underleg = KeyframeTrack([
        (0.0, idleAngles),
        (0.30, [24, -40, 10, 20, 30, 12, 22, 0, 10]),
        (0.50, [30, -12, 10, 25, 30, 72, 95, 0, 15]),
        (0.60, [26, 35, 10, 25, 30, 78, 95, 0, 15]),
        (0.80, [12, 92, 20, 10, 25, 22, 30, 0, 8]),
        (1.0, idleAngles),
    ])

    static let pickUp = KeyframeTrack([
        (0.0, idleAngles),
        (0.40, [68, 8, 0, 12, 10, 40, 55, 35, 50]),
        (0.60, [68, 5, 0, 12, 10, 40, 55, 35, 50]),
        (1.0, idleAngles),
    ])

    static func track(_ style: ThrowStyle) -> KeyframeTrack {
        switch style {
        case .overhand: return overhand
        case .underhand: return underhand
        case .underleg: return underleg
        }
    }

    static func idle(at t: Double) -> PoseAngles {
        var a = PoseAngles(idleAngles)
        a.lean += 1.5 * sinApprox(t * 1.3)
        a.leftShoulder += 3 * sinApprox(t * 0.9 + 1)
        return a
    }

    /// A walking gait at `cycle` (one full cycle = two steps).
    static func walk(cycle c: Double, holdsBag: Bool) -> PoseAngles {
        let s = sinApprox(2 * Double.pi * c)
        var a = PoseAngles([4, -22 * s, 18, 22 * s, 18, 26 * s, 12 + 28 * max(0, -s), -26 * s, 12 + 28 * max(0, s)])
        if holdsBag {
            a.rightShoulder = 18
            a.rightElbow = 65
        }
        return a
    }

    static func sinApprox(_ x: Double) -> Double { sin(x) }
}

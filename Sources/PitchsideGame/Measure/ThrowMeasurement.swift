import Foundation
import PitchsideCore

/// Release speed, launch angle and release angle of a throw.
///
/// Speed is the bag's velocity at release from the fitted trajectory
/// (x(t) = x0 + vx t, y(t) = y0 + vy t + ½ ay t², normalized units per second),
/// turned into pixels with the frame size and into metres with the board's
/// metres per pixel. Without a time fit it falls back to the first detected
/// points and their `pts_us`. The launch angle is that velocity against the
/// horizontal, up positive. The release angle is the throwing forearm (elbow →
/// wrist) against the horizontal, up positive, in the pose nearest release; the
/// throwing arm is the one whose wrist is nearest the bag's first point.
public struct ThrowMeasurement: Sendable, Equatable {
    public var speedMps: Double
    public var speedMph: Double { speedMps * GameConstants.mphPerMps }
    public var launchAngleDeg: Double
    public var releaseAngleDeg: Double?

    public init(speedMps: Double, launchAngleDeg: Double, releaseAngleDeg: Double?) {
        self.speedMps = speedMps
        self.launchAngleDeg = launchAngleDeg
        self.releaseAngleDeg = releaseAngleDeg
    }

    /// Measures a throw. `poses` are the stored poses around release.
    public static func measure(_ t: AssembledThrow, board: BoardGeometry, poses: [PSPoseObservation],
                               frameWidth: Double, frameHeight: Double) -> ThrowMeasurement {
        let (vxN, vyN) = releaseVelocity(t)
        let vxPx = vxN * frameWidth, vyPx = vyN * frameHeight
        let speed = (vxPx * vxPx + vyPx * vyPx).squareRoot() * board.metresPerPixel
        let launch = (vxPx == 0 && vyPx == 0) ? 0 : atan2(-vyPx, abs(vxPx)) * 180 / .pi
        let release = releaseAngle(poses: poses, releasePts: t.releasePtsUs, bag: t.start,
                                   frameWidth: frameWidth, frameHeight: frameHeight)
        return ThrowMeasurement(speedMps: speed, launchAngleDeg: launch, releaseAngleDeg: release)
    }

    /// Velocity at release in normalized units per second.
    static func releaseVelocity(_ t: AssembledThrow) -> (Double, Double) {
        let o = t.releaseFit
        if o.vx != 0 || o.vy != 0 {
            let tr = Double(t.releasePtsUs - o.timeRangeStartUs) / 1e6
            return (o.vx, o.vy + o.ay * max(0, tr))
        }
        // No time fit: finite differences over the first few points.
        let pts = t.points
        guard pts.count >= 2 else { return (0, 0) }
        let k = min(3, pts.count - 1)
        let dt = Double(pts[k].ptsUs - pts[0].ptsUs) / 1e6
        guard dt > 0 else { return (0, 0) }
        return ((pts[k].x - pts[0].x) / dt, (pts[k].y - pts[0].y) / dt)
    }

    /// Forearm angle at release, degrees, up positive; nil without a usable pose.
    public static func releaseAngle(poses: [PSPoseObservation], releasePts: Int64, bag: Vec2,
                                    frameWidth: Double, frameHeight: Double) -> Double? {
        let usable = poses.filter(\.present)
        guard let pose = usable.min(by: { abs($0.header.ptsUs - releasePts) < abs($1.header.ptsUs - releasePts) }) else {
            return nil
        }
        let j = PoseJoints(pose)
        let arms: [(JointName, JointName)] = [(.rightElbow, .rightWrist), (.leftElbow, .leftWrist)]
        let candidates = arms.compactMap { (e, w) -> (Vec2, Vec2)? in
            guard let elbow = j[e], let wrist = j[w] else { return nil }
            return (elbow, wrist)
        }
        guard let (elbow, wrist) = candidates.min(by: { $0.1.distance(to: bag) < $1.1.distance(to: bag) }) else {
            return nil
        }
        let dx = (wrist.x - elbow.x) * frameWidth, dy = (wrist.y - elbow.y) * frameHeight
        guard dx != 0 || dy != 0 else { return nil }
        return atan2(-dy, abs(dx)) * 180 / .pi
    }
}

/// The confident joints of one pose by name.
public struct PoseJoints: Sendable {
    private var byName: [String: Vec2] = [:]

    public init(_ pose: PSPoseObservation, minConfidence: Double = GameConstants.jointConfidence) {
        for j in pose.joints where j.confidence >= minConfidence { byName[j.name] = Vec2(j.position) }
    }

    public subscript(_ name: JointName) -> Vec2? { byName[name.rawValue] }
}

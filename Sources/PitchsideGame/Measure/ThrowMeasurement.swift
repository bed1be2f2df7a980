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
/// wrist) against the horizontal, up positive, at the moment the bag left the
/// hand: the trajectory worker first sees the bag a few frames after release,
/// when the arm has already swung on (tens of degrees), so the release pose is
/// the one whose wrist lies nearest the bag's fitted path extrapolated back to
/// that pose's time, and the throwing arm is that wrist's.
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
        let release = fittedBag(t, at: t.releasePtsUs) != nil
            ? releasePose(poses: poses, flight: t, frameWidth: frameWidth, frameHeight: frameHeight)
                .flatMap { forearmAngle($0.pose, arm: $0.arm, frameWidth: frameWidth, frameHeight: frameHeight) }
            : releaseAngle(poses: poses, releasePts: t.releasePtsUs, bag: t.start,
                           frameWidth: frameWidth, frameHeight: frameHeight)
        return ThrowMeasurement(speedMps: speed, launchAngleDeg: launch, releaseAngleDeg: release)
    }

    /// Velocity at release in normalized units per second.
    static func releaseVelocity(_ t: AssembledThrow) -> (Double, Double) {
        let o = t.releaseFit
        if o.vx != 0 || o.vy != 0 {
            // A release carried back along the fit lies before the fit's first point.
            let tr = Double(t.releasePtsUs - o.timeRangeStartUs) / 1e6
            return (o.vx, o.vy + o.ay * (t.carriedBackRelease == nil ? max(0, tr) : tr))
        }
        // No time fit: finite differences over the first few points.
        let pts = t.points
        guard pts.count >= 2 else { return (0, 0) }
        let k = min(3, pts.count - 1)
        let dt = Double(pts[k].ptsUs - pts[0].ptsUs) / 1e6
        guard dt > 0 else { return (0, 0) }
        return ((pts[k].x - pts[0].x) / dt, (pts[k].y - pts[0].y) / dt)
    }

    /// The bag's position at `pts` on the release fragment's fit (normalized), extrapolated
    /// before its first point; nil without a time fit.
    static func fittedBag(_ t: AssembledThrow, at pts: Int64) -> Vec2? {
        let o = t.releaseFit
        guard o.vx != 0 || o.vy != 0 else { return nil }
        let s = Double(pts - o.timeRangeStartUs) / 1e6
        return Vec2(o.x0 + o.vx * s, o.y0 + o.vy * s + 0.5 * o.ay * s * s)
    }

    /// The arms as (elbow, wrist).
    static let arms: [(elbow: JointName, wrist: JointName)] = [(.rightElbow, .rightWrist), (.leftElbow, .leftWrist)]

    /// The pose in which the bag leaves the hand and the throwing arm (index in `arms`).
    /// The throwing arm: in the pose nearest the first detected point, the wrist nearest
    /// the bag. The moment: among that arm's poses from `windowUs` before the first detected
    /// point up to it, the one whose wrist is nearest (in pixels) the bag's fitted path at
    /// that pose's time. Nil without a time fit, or when the wrist never comes within a
    /// third of the person's height of the path (the person seen is not the thrower).
    public static func releasePose(poses: [PSPoseObservation], flight t: AssembledThrow, frameWidth: Double,
                                   frameHeight: Double, windowUs: Int64 = 300_000) -> (pose: PSPoseObservation, arm: Int)? {
        let first = t.releasePtsUs
        let candidates = poses.filter { $0.present && $0.header.ptsUs <= first && $0.header.ptsUs >= first - windowUs }
        guard let seen = candidates.last, fittedBag(t, at: first) != nil else { return nil }
        func pixels(_ a: Vec2, _ b: Vec2) -> Double { hypot((a.x - b.x) * frameWidth, (a.y - b.y) * frameHeight) }
        let seenJoints = PoseJoints(seen)
        let armsSeen = arms.indices.filter { seenJoints[arms[$0].elbow] != nil && seenJoints[arms[$0].wrist] != nil }
        guard let arm = armsSeen.min(by: { pixels(seenJoints[arms[$0].wrist]!, t.start) < pixels(seenJoints[arms[$1].wrist]!, t.start) })
        else { return nil }
        var best: (pose: PSPoseObservation, distance: Double)?
        for pose in candidates {
            let j = PoseJoints(pose)
            guard j[arms[arm].elbow] != nil, let wrist = j[arms[arm].wrist],
                  let bag = fittedBag(t, at: pose.header.ptsUs) else { continue }
            let d = pixels(wrist, bag)
            let height = pose.personBox.height > 0 ? pose.personBox.height * frameHeight : 0.1 * frameHeight
            guard d <= height / 3 else { continue }
            if best == nil || d < best!.distance { best = (pose, d) }
        }
        return best.map { ($0.pose, arm) }
    }

    /// The forearm (elbow → wrist) of `arm` against the horizontal, degrees, up positive.
    static func forearmAngle(_ pose: PSPoseObservation, arm: Int, frameWidth: Double, frameHeight: Double) -> Double? {
        let j = PoseJoints(pose)
        guard let elbow = j[arms[arm].elbow], let wrist = j[arms[arm].wrist] else { return nil }
        let dx = (wrist.x - elbow.x) * frameWidth, dy = (wrist.y - elbow.y) * frameHeight
        guard dx != 0 || dy != 0 else { return nil }
        return atan2(-dy, abs(dx)) * 180 / .pi
    }

    /// Forearm angle in the pose nearest `releasePts` on the arm whose wrist is nearest
    /// `bag` (without a time fit), degrees, up positive; nil without a usable pose.
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

import PitchsideCore

/// The learned throw-type model's input: a pose window (`PoseWindow.around`)
/// turned into numbers that do not depend on where the thrower stands, how big
/// they are in the picture or which way they face.
///
/// Every joint is taken relative to the hip centre of its own frame, in units
/// of the window's median torso length (neck to hip centre), x in picture
/// aspect (so a torso is as long lying as standing), y up, and x mirrored so
/// that the thrower faces +x (the nose is ahead of the ears). The throwing arm
/// is the one whose wrist moves most; the other arm and the two legs are
/// ordered by height, not by side, since the pose model may swap sides.
///
/// Then, at 12 instants from 34 frames before release to 10 after (linear
/// interpolation between the poses, by frame time): the higher and the lower
/// wrist (x, y) and elbow (y), whichever side the pose model calls them; the
/// throwing wrist and elbow (x, y); the higher knee (x, y) and lower knee (y);
/// the higher ankle (x, y); shoulder centre and nose (x, y); hip centre (x, y)
/// relative to its position at release. Plus pooled values over the whole
/// window: highest and lowest throwing wrist, wrist ranges, the highest knee
/// and ankle, lowest shoulder centre, furthest-forward shoulder centre, how far
/// the hips travel, the share of the window with a pose.
public enum WindowFeatures {
    /// Frames relative to release at which the sequence is sampled.
    public static let instants: [Double] = stride(from: -34.0, through: 10.0, by: 4.0).map { $0 }
    static let perInstant = [
        // The two wrists and elbows by height, whichever side the pose model calls them.
        "wrist_hi_x", "wrist_hi_y", "wrist_lo_x", "wrist_lo_y", "elbow_hi_y", "elbow_lo_y",
        // The arm whose wrist moves most.
        "wrist_x", "wrist_y", "elbow_x", "elbow_y",
        "knee_hi_x", "knee_hi_y", "knee_lo_y", "ankle_hi_x", "ankle_hi_y",
        "shoulder_x", "shoulder_y", "nose_x", "nose_y", "hip_dx", "hip_dy",
    ]
    static let pooled = [
        "wrist_max_y", "wrist_min_y", "wrist_range_x", "wrist_range_y", "other_wrist_range_y", "knee_max_y",
        "ankle_max_y", "shoulder_min_y", "shoulder_max_x", "hip_travel", "coverage",
    ]

    /// Names of the values, in order.
    public static let names: [String] = instants.flatMap { t in perInstant.map { "\($0)@\(Int(t))" } } + pooled

    public static var count: Int { names.count }

    /// Fewer poses than this in a window: nothing to classify.
    public static let minimumPoses = 5

    /// One pose in body coordinates (see the type's comment); nil joints are missing.
    struct BodyFrame {
        var t: Double  // frames from release
        var wrist: [Vec2?]  // right, left
        var elbow: [Vec2?]
        var knees: [Vec2]
        var ankles: [Vec2]
        var shoulder: Vec2
        var nose: Vec2?
        var hip: Vec2  // absolute, in aspect units
    }

    /// The features of a window, or nil when it has fewer than `minimumPoses` usable poses.
    public static func extract(_ poses: [PSPoseObservation], releasePtsUs: Int64?) -> [Double]? {
        guard let frames = bodyFrames(poses, releasePtsUs: releasePtsUs), frames.count >= minimumPoses else { return nil }
        // The throwing arm: the wrist with the larger range of motion.
        func range(_ arm: Int) -> Double {
            let ws = frames.compactMap { $0.wrist[arm] }
            guard let minX = ws.map(\.x).min(), let maxX = ws.map(\.x).max(),
                  let minY = ws.map(\.y).min(), let maxY = ws.map(\.y).max() else { return -1 }
            return (maxX - minX) + (maxY - minY)
        }
        let arm = range(0) >= range(1) ? 0 : 1
        let releaseHip = interpolate(frames, at: 0) { $0.hip } ?? Vec2(0, 0)
        var out: [Double] = []
        out.reserveCapacity(count)
        func higher(_ a: Vec2?, _ b: Vec2?) -> Vec2? {
            guard let a, let b else { return a ?? b }
            return a.y >= b.y ? a : b
        }
        func lower(_ a: Vec2?, _ b: Vec2?) -> Vec2? {
            guard let a, let b else { return a ?? b }
            return a.y < b.y ? a : b
        }
        for t in instants {
            let wrists = (0...1).map { k in interpolate(frames, at: t) { $0.wrist[k] } }
            let elbows = (0...1).map { k in interpolate(frames, at: t) { $0.elbow[k] } }
            let wristHigh = higher(wrists[0], wrists[1]), wristLow = lower(wrists[0], wrists[1])
            let elbowHigh = higher(elbows[0], elbows[1]), elbowLow = lower(elbows[0], elbows[1])
            let kneeHigh = interpolate(frames, at: t) { f in f.knees.max { a, b in a.y < b.y } }
            let kneeLow = interpolate(frames, at: t) { f in f.knees.min { a, b in a.y < b.y } }
            let ankleHigh = interpolate(frames, at: t) { f in f.ankles.max { a, b in a.y < b.y } }
            let shoulder = interpolate(frames, at: t) { $0.shoulder }
            let nose = interpolate(frames, at: t) { $0.nose }
            let hip = interpolate(frames, at: t) { $0.hip }
            out += [
                wristHigh?.x ?? 0, wristHigh?.y ?? 0, wristLow?.x ?? 0, wristLow?.y ?? 0, elbowHigh?.y ?? 0, elbowLow?.y ?? 0,
                wrists[arm]?.x ?? 0, wrists[arm]?.y ?? 0, elbows[arm]?.x ?? 0, elbows[arm]?.y ?? 0,
                kneeHigh?.x ?? 0, kneeHigh?.y ?? -1, kneeLow?.y ?? -1, ankleHigh?.x ?? 0, ankleHigh?.y ?? -2,
                shoulder?.x ?? 0, shoulder?.y ?? 1, nose?.x ?? 0, nose?.y ?? 1.4,
                (hip?.x ?? releaseHip.x) - releaseHip.x, (hip?.y ?? releaseHip.y) - releaseHip.y,
            ]
        }
        let wrists = frames.compactMap { $0.wrist[arm] }
        let others = frames.compactMap { $0.wrist[1 - arm] }
        let hips = frames.map(\.hip)
        func spread(_ v: [Double]) -> Double { (v.max() ?? 0) - (v.min() ?? 0) }
        out += [
            wrists.map(\.y).max() ?? 0, wrists.map(\.y).min() ?? 0, spread(wrists.map(\.x)), spread(wrists.map(\.y)),
            spread(others.map(\.y)), frames.flatMap { $0.knees.map(\.y) }.max() ?? -1,
            frames.flatMap { $0.ankles.map(\.y) }.max() ?? -2, frames.map(\.shoulder.y).min() ?? 1,
            frames.map(\.shoulder.x).max() ?? 0,
            spread(hips.map(\.x)) + spread(hips.map(\.y)),
            Double(frames.count) / Double(GameConstants.maxPoseObservations),
        ]
        return out
    }

    /// The window's usable poses in body coordinates, with time in frames from release.
    static func bodyFrames(_ poses: [PSPoseObservation], releasePtsUs: Int64?) -> [BodyFrame]? {
        let present = poses.filter(\.present).sorted { $0.header.ptsUs < $1.header.ptsUs }
        guard let last = present.last else { return nil }
        let release = releasePtsUs ?? last.header.ptsUs
        // Frame duration: the smallest gap between consecutive poses (poses may be missing).
        let gaps = zip(present.dropFirst(), present).map { $0.header.ptsUs - $1.header.ptsUs }.filter { $0 > 0 }
        let frameUs = Double(gaps.min() ?? 33_333)

        struct Raw {
            var pts: Int64
            var j: [JointName: Vec2]
        }
        var raws: [Raw] = []
        var torsos: [Double] = []
        var facing: [Double] = []
        for pose in present {
            let aspect = pose.header.frameHeight > 0 ? Double(pose.header.frameWidth) / Double(pose.header.frameHeight) : 16.0 / 9.0
            let joints = PoseJoints(pose, minConfidence: GameConstants.jointConfidence)
            var j: [JointName: Vec2] = [:]
            for name in JointName.allCases { if let p = joints[name] { j[name] = Vec2(p.x * aspect, p.y) } }
            guard let hip = mean([j[.rightHip], j[.leftHip]]),
                  let shoulder = mean([j[.rightShoulder], j[.leftShoulder]]) ?? j[.neck] else { continue }
            torsos.append((shoulder - hip).length)
            if let nose = j[.nose], let ears = mean([j[.rightEar], j[.leftEar]]) { facing.append(nose.x - ears.x) }
            raws.append(Raw(pts: pose.header.ptsUs, j: j))
        }
        guard !raws.isEmpty else { return nil }
        let torso = max(median(torsos), 1e-4)
        let sign: Double = median(facing) < 0 ? -1 : 1
        return raws.map { r in
            let hip = mean([r.j[.rightHip], r.j[.leftHip]])!
            let shoulder = mean([r.j[.rightShoulder], r.j[.leftShoulder]]) ?? r.j[.neck]!
            func body(_ p: Vec2?) -> Vec2? { p.map { Vec2(sign * ($0.x - hip.x) / torso, (hip.y - $0.y) / torso) } }
            return BodyFrame(
                t: Double(r.pts - release) / frameUs,
                wrist: [body(r.j[.rightWrist]), body(r.j[.leftWrist])],
                elbow: [body(r.j[.rightElbow]), body(r.j[.leftElbow])],
                knees: [r.j[.rightKnee], r.j[.leftKnee]].compactMap { body($0) },
                ankles: [r.j[.rightAnkle], r.j[.leftAnkle]].compactMap { body($0) },
                shoulder: body(shoulder)!,
                nose: body(r.j[.nose]),
                hip: Vec2(sign * hip.x / torso, -hip.y / torso))
        }
    }

    /// A joint's position at time `t` (frames from release): linear between the
    /// nearest frames that have it, the nearest one outside their span.
    static func interpolate(_ frames: [BodyFrame], at t: Double, _ joint: (BodyFrame) -> Vec2?) -> Vec2? {
        var before: (Double, Vec2)?, after: (Double, Vec2)?
        for f in frames {
            guard let p = joint(f) else { continue }
            if f.t <= t { before = (f.t, p) } else if after == nil { after = (f.t, p) }
        }
        switch (before, after) {
        case let ((t0, p0)?, (t1, p1)?):
            let k = (t - t0) / max(t1 - t0, 1e-9)
            return Vec2(p0.x + (p1.x - p0.x) * k, p0.y + (p1.y - p0.y) * k)
        case let ((_, p)?, nil), let (nil, (_, p)?):
            return p
        default:
            return nil
        }
    }

    static func mean(_ points: [Vec2?]) -> Vec2? {
        let p = points.compactMap { $0 }
        guard !p.isEmpty else { return nil }
        return Vec2(p.map(\.x).reduce(0, +) / Double(p.count), p.map(\.y).reduce(0, +) / Double(p.count))
    }

    static func median(_ v: [Double]) -> Double {
        guard !v.isEmpty else { return 0 }
        let s = v.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}

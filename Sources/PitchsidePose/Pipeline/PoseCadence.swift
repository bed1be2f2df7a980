import PitchsideCore

/// Which frames a pose worker analyses when it may skip some (`worker pose --every N`).
///
/// Pose is the costliest analysis of a frame. Between throws a body moves slowly enough that
/// every N-th frame, with the frames between interpolated by the game (`PoseGapFiller`), says
/// the same; a throw's swing does not, so while the wrists move fast every frame is analysed,
/// and for a while after (the follow-through and the first frames of flight are part of the
/// throw-type window). With nobody in view, every N-th frame is looked at.
///
/// ```swift
/// var cadence = PoseCadence(every: 2)
/// if cadence.shouldAnalyse(seq: frame.seq, ptsUs: frame.ptsUs) {
///     let people = estimator.processPeople(frame)
///     cadence.record(people: people, seq: frame.seq, ptsUs: frame.ptsUs)
/// }
/// ```
public struct PoseCadence: Sendable {
    /// Frames apart the analysed frames may be while the body is slow.
    public let every: Int
    /// Wrist speed, in torso lengths a second, from which every frame is analysed. Walking
    /// swings a wrist at about one torso a second; a throw's swing at several.
    public var fastWristSpeed = 4.0
    /// How long every frame stays analysed after the last fast motion.
    public var holdMicroseconds: Int64 = 400_000

    private var lastAnalysedSeq: UInt64?
    private var last: (ptsUs: Int64, bodies: [(wrists: [PosePoint?], torso: Float)?])?
    private var fastUntilPtsUs: Int64 = .min

    public init(every: Int) {
        self.every = max(1, every)
    }

    /// Whether to analyse frame `seq` (frames come in increasing `seq`).
    public func shouldAnalyse(seq: UInt64, ptsUs: Int64) -> Bool {
        guard every > 1, let previous = lastAnalysedSeq, seq > previous else { return true }
        return ptsUs <= fastUntilPtsUs || seq - previous >= UInt64(every)
    }

    /// What the analysed frame showed: everyone tracked, in the estimator's order (the same
    /// person keeps their place while tracked); anyone's fast wrist makes every frame count.
    public mutating func record(people: [PoseResult], seq: UInt64, ptsUs: Int64) {
        lastAnalysedSeq = seq
        let now = people.map(Self.body)
        if let before = last, ptsUs > before.ptsUs {
            let seconds = Double(ptsUs - before.ptsUs) / 1e6
            for (a, b) in zip(now, before.bodies) {
                guard let a, let b else { continue }
                let torso = Double(max(a.torso, b.torso, 1))
                let moved = zip(a.wrists, b.wrists).compactMap { p, q -> Double? in
                    guard let p, let q else { return nil }
                    return Double(p.distance(to: q))
                }.max() ?? 0
                if moved / torso / seconds >= fastWristSpeed { fastUntilPtsUs = ptsUs + holdMicroseconds }
            }
        }
        last = now.isEmpty ? nil : (ptsUs, now)
    }

    /// The wrists (nil when unsure) and the torso length, in pixels; nil without shoulders and hips.
    private static func body(_ pose: PoseResult) -> (wrists: [PosePoint?], torso: Float)? {
        func point(_ name: JointName) -> PosePoint? {
            let j = pose.joint(name)
            return j.confidence >= 0.3 ? j.position : nil
        }
        func mid(_ a: PosePoint?, _ b: PosePoint?) -> PosePoint? {
            if let a, let b { return .midpoint(a, b) }
            return a ?? b
        }
        guard let shoulder = mid(point(.rightShoulder), point(.leftShoulder)),
              let hip = mid(point(.rightHip), point(.leftHip)) else { return nil }
        return ([point(.rightWrist), point(.leftWrist)], shoulder.distance(to: hip))
    }
}

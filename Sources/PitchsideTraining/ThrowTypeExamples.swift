import Foundation
import PitchsideCore
import PitchsideGame
import PitchsideSynth

/// Labelled pose windows cut from a synthetic game's pose track with its truth.
///
/// Throw windows: around each throw's release, placed by `PoseWindow.around`
/// and narrowed to the thrower by `ThrowerPoses` exactly as the game does, at
/// the true release and at the later frames where the trajectory worker may
/// first see the bag (`releaseDelays`). The label is what the person picked is
/// doing: when the thrower was not tracked, the person picked may be the one
/// waiting, whose window is `none` whatever the other player throws.
///
/// `none` windows: the same placement at moments with no release near by:
/// negative actions (walking, bending to pick up a bag) densely, idle stretches
/// and everything else more sparsely.
public struct ThrowTypeExamples {
    /// Frames after the true release at which the game may place the window
    /// (the first trajectory point is a few frames after the bag leaves the hand).
    public var releaseDelays: [Int] = [0, 1, 2, 3, 4, 5]
    /// A `none` window every this many frames during negative actions ...
    public var negativeStride = 4
    /// ... and during idling and other stretches.
    public var idleStride = 12
    /// A `none` window keeps this far (seconds) from any release of the person seen:
    /// closer, it would show the throw.
    public var noneMinDistanceFromRelease = 1.6
    /// A pose is the player's when its joints are this close to the player's true joints
    /// (mean distance, in the player's height).
    public var maxMatchDistance = 0.25

    public init() {}

    public struct Example: Sendable {
        public var sample: ThrowTypeTrainer.Sample
        /// Seed of the game, for splits and reports.
        public var seed: UInt64
        /// Frame of the window's release point.
        public var frame: Int
        /// What the person seen is doing at that frame (truth action).
        public var action: String
        /// For throw windows: frames after the true release.
        public var delay: Int?
    }

    /// The examples of one game. `track` must be the pose track of `truth`'s video.
    public func examples(track: PoseTrack, truth: GroundTruth) -> [Example] {
        let fps = Double(truth.video.fps)
        let poses = track.observations()
        guard !poses.isEmpty else { return [] }
        let owner = poses.enumerated().map { i, p in i < truth.frames.count ? player(seenIn: p, frame: truth.frames[i], truth: truth) : nil }
        var out: [Example] = []

        // Throw windows, labelled by what the person seen at release does.
        var throwFrames: [Int: [Int]] = [:]  // player → release frames
        for t in truth.throwsTruth { throwFrames[t.playerIndex, default: []].append(t.releaseFrame) }
        for t in truth.throwsTruth {
            let releasePoint = Vec2(t.releasePixel[0] / Double(truth.video.width), t.releasePixel[1] / Double(truth.video.height))
            for delay in releaseDelays {
                let frame = t.releaseFrame + delay
                guard frame < poses.count else { continue }
                let release = poses[frame].header.ptsUs
                let window = ThrowerPoses.follow(PoseWindow.around(release: release, in: poses), release: release,
                                                 releasePoint: releasePoint)
                // Who the window shows: the person picked at the true release (or at the window's release).
                guard let picked = window.last(where: { $0.header.seq <= UInt64(t.releaseFrame) })
                        ?? window.last(where: { $0.header.ptsUs <= release }),
                      Int(picked.header.seq) < truth.frames.count,
                      let seen = player(seenIn: picked, frame: truth.frames[Int(picked.header.seq)], truth: truth) else { continue }
                let label: PSThrowType = seen == t.playerIndex ? Self.type(t.style) : .none
                if label == .none, nearRelease(frame, of: seen, throwFrames, fps: fps) { continue }
                out.append(example(window, release: release, frame: frame, label: label, truth: truth,
                                   action: truth.frames[t.releaseFrame].actions[seen], delay: delay))
            }
        }

        // None windows.
        var frame = GameConstants.maxPoseObservations
        var lastTaken = -1_000
        while frame < min(poses.count, truth.frames.count) {
            defer { frame += 1 }
            guard let seen = owner[frame] else { continue }
            let action = truth.frames[frame].actions[seen]
            let negative = action == PlayerAction.walking.rawValue || action == PlayerAction.pickingUp.rawValue
            guard frame - lastTaken >= (negative ? negativeStride : idleStride) else { continue }
            guard !nearRelease(frame, of: seen, throwFrames, fps: fps) else { continue }
            let release = poses[frame].header.ptsUs
            out.append(example(PoseWindow.around(release: release, in: poses), release: release, frame: frame,
                               label: .none, truth: truth, action: action))
            lastTaken = frame
        }
        return out
    }

    private func nearRelease(_ frame: Int, of player: Int, _ throwFrames: [Int: [Int]], fps: Double) -> Bool {
        let limit = Int((noneMinDistanceFromRelease * fps).rounded())
        return (throwFrames[player] ?? []).contains { abs($0 - frame) < limit }
    }

    private func example(_ window: [PSPoseObservation], release: Int64, frame: Int, label: PSThrowType,
                         truth: GroundTruth, action: String, delay: Int? = nil) -> Example {
        Example(sample: ThrowTypeTrainer.Sample(poses: window, releasePtsUs: release, label: label),
                seed: truth.seed, frame: frame, action: action, delay: delay)
    }

    /// Which player the pose shows: the one whose true joints are nearest, if near enough.
    func player(seenIn pose: PSPoseObservation, frame: FrameTruth, truth: GroundTruth) -> Int? {
        guard pose.present else { return nil }
        let height = max(truth.camera.throwerHeightFraction, 0.05)
        var best: (Int, Double)?
        for (k, joints) in frame.joints.enumerated() {
            var sum = 0.0, n = 0
            for (i, joint) in pose.joints.enumerated() where i < joints.count && joint.confidence >= 0.3 {
                sum += hypot(joint.position.x - joints[i][0], (joint.position.y - joints[i][1]) * Double(truth.video.height) / Double(truth.video.width))
                n += 1
            }
            guard n >= 6 else { continue }
            // In units of the player's height (height is a fraction of the frame height).
            let d = sum / Double(n) * Double(truth.video.width) / Double(truth.video.height) / height
            if best == nil || d < best!.1 { best = (k, d) }
        }
        guard let (k, d) = best, d <= maxMatchDistance else { return nil }
        return k
    }

    static func type(_ style: ThrowStyle) -> PSThrowType {
        switch style {
        case .overhand: return .overhand
        case .underhand: return .underhand
        case .underleg: return .underleg
        }
    }
}

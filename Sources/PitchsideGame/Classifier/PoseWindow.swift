import PitchsideCore

/// The poses the throw-type classifier looks at: the last 45 before release
/// plus at most 10 while the bag is in flight (Apple's window), in media-time order.
///
/// ```swift
/// var window = PoseWindow()
/// window.add(pose)                 // every pose, in pts order
/// window.markRelease(ptsUs)        // when a throw starts
/// let tensor = window.tensor()     // [45][3][18], zero-padded at the front
/// ```
public struct PoseWindow: Sendable {
    public private(set) var poses: [PSPoseObservation] = []
    public private(set) var releasePtsUs: Int64?

    public init(poses: [PSPoseObservation] = [], releasePtsUs: Int64? = nil) {
        self.poses = poses
        self.releasePtsUs = releasePtsUs
    }

    /// Stores a pose, unless the throw in flight already has its 10 in-flight poses.
    public mutating func add(_ pose: PSPoseObservation) {
        if let r = releasePtsUs {
            let inFlight = poses.filter { $0.header.ptsUs > r }.count
            if pose.header.ptsUs > r, inFlight >= GameConstants.maxInFlightPoseObservations { return }
        }
        let index = poses.lastIndex { $0.header.ptsUs <= pose.header.ptsUs }.map { $0 + 1 } ?? 0
        if index > 0, poses[index - 1].header.ptsUs == pose.header.ptsUs { return }  // one pose per frame
        poses.insert(pose, at: index)
        let limit = GameConstants.maxPoseObservations + GameConstants.maxInFlightPoseObservations
        if poses.count > limit { poses.removeFirst(poses.count - limit) }
    }

    /// The bag left the hand at `pts`: keep what is needed around it.
    public mutating func markRelease(_ pts: Int64) {
        releasePtsUs = pts
        let before = poses.filter { $0.header.ptsUs <= pts }.suffix(GameConstants.maxPoseObservations)
        let after = poses.filter { $0.header.ptsUs > pts }.prefix(GameConstants.maxInFlightPoseObservations)
        poses = Array(before) + Array(after)
    }

    /// The throw is over: start collecting for the next one.
    public mutating func reset() {
        releasePtsUs = nil
        if poses.count > GameConstants.maxPoseObservations {
            poses.removeFirst(poses.count - GameConstants.maxPoseObservations)
        }
    }

    /// The classifier's window: the 45 poses ending 10 in-flight poses after release.
    public var window: [PSPoseObservation] {
        guard let releasePtsUs else { return Array(poses.suffix(GameConstants.maxPoseObservations)) }
        return Self.around(release: releasePtsUs, in: poses)
    }

    /// The classifier's input for a release at `release` out of a stream of
    /// poses: the present poses at or before release and at most 10 after it,
    /// the last 45 of those, in media-time order. The game and the trainer
    /// (`pitchside train classifier`) both cut windows with this function, so
    /// what the model learns from is what it sees at run time.
    public static func around(release: Int64, in poses: [PSPoseObservation]) -> [PSPoseObservation] {
        let present = poses.filter(\.present).sorted { $0.header.ptsUs < $1.header.ptsUs }
        var unique: [PSPoseObservation] = []
        for p in present where unique.last?.header.ptsUs != p.header.ptsUs { unique.append(p) }  // one pose per frame
        let before = unique.filter { $0.header.ptsUs <= release }.suffix(GameConstants.maxPoseObservations)
        let after = unique.filter { $0.header.ptsUs > release }.prefix(GameConstants.maxInFlightPoseObservations)
        return Array((Array(before) + Array(after)).suffix(GameConstants.maxPoseObservations))
    }

    /// Apple's input layout: [45 frames][x, y, confidence][18 joints], zero-padded at the front.
    public func tensor() -> [[[Float]]] {
        Self.tensor(window)
    }

    public static func tensor(_ poses: [PSPoseObservation]) -> [[[Float]]] {
        let n = GameConstants.maxPoseObservations
        let names = JointName.allCases.map(\.rawValue)
        var out = [[[Float]]](repeating: [[Float]](repeating: [Float](repeating: 0, count: 18), count: 3), count: n)
        let recent = poses.suffix(n)
        for (i, pose) in recent.enumerated() where pose.present {
            let row = n - recent.count + i
            for joint in pose.joints {
                guard let k = names.firstIndex(of: joint.name) else { continue }
                out[row][0][k] = Float(joint.position.x)
                out[row][1][k] = Float(joint.position.y)
                out[row][2][k] = Float(joint.confidence)
            }
        }
        return out
    }
}

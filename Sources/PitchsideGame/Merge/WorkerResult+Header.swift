import PitchsideCore

extension PSWorkerResult {
    /// The header of whichever result this is; nil for heartbeats and empty messages.
    public var resultHeader: PSHeader? {
        switch result {
        case .board(let v): return v.header
        case .stability(let v): return v.header
        case .census(let v): return v.header
        case .pose(let v): return v.header
        case .trajectory(let v): return v.header
        case .frameDone(let v): return v.header
        case .heartbeat, .none: return nil
        }
    }

    /// A short name of the result's kind, for counters and duplicate keys.
    public var kindName: String {
        switch result {
        case .board: return "board"
        case .stability: return "stability"
        case .census: return "census"
        case .pose: return "pose"
        case .trajectory: return "trajectory"
        case .frameDone: return "frame_done"
        case .heartbeat: return "heartbeat"
        case .none: return "empty"
        }
    }
}

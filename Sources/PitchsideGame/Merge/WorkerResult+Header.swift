import PitchsideCore

extension PSWorkerResult {
    /// The header of whichever result this is; nil for heartbeats and empty messages. Setting
    /// it replaces that header (ignored for heartbeats and empty messages).
    public var resultHeader: PSHeader? {
        get {
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
        set {
            guard let header = newValue else { return }
            switch result {
            case .board(var v): v.header = header; result = .board(v)
            case .stability(var v): v.header = header; result = .stability(v)
            case .census(var v): v.header = header; result = .census(v)
            case .pose(var v): v.header = header; result = .pose(v)
            case .trajectory(var v): v.header = header; result = .trajectory(v)
            case .frameDone(var v): v.header = header; result = .frameDone(v)
            case .heartbeat, .none: break
            }
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

import Foundation
import PitchsideCore

/// Turns game events into the lines `pitchside scores` and `pitchside up` print.
public enum ScoreFormatter {
    /// One human-readable line per event.
    public static func line(_ event: PSGameEvent) -> String {
        let prefix = "[\(event.streamID) #\(event.eventSeq)]"
        switch event.event {
        case .stateChanged(let change):
            var text = "\(prefix) state \(name(change.from)) → \(name(change.to))"
            if !change.reason.isEmpty { text += " (\(change.reason))" }
            return text
        case .throwCompleted(let t):
            let outcome: String
            switch t.outcome {
            case .hole: outcome = "in the hole"
            case .board: outcome = "on the board"
            case .miss: outcome = "missed"
            default: outcome = "unknown"
            }
            return String(format: "%@ throw %d by %@: %@ %@, %+d · %.1f m/s (%.1f mph), launch %.0f°, release %.0f°",
                          prefix, t.throwIndex, t.player.isEmpty ? "?" : t.player, typeName(t.type), outcome,
                          t.points, t.releaseSpeedMps, t.releaseSpeedMph, t.launchAngleDeg, t.releaseAngleDeg)
        case .scoreUpdate(let s):
            let scores = s.scores.map { "\($0.player) \($0.score)" }.joined(separator: ", ")
            return "\(prefix) score after \(s.throwCount) throw(s)\(s.inning > 0 ? ", inning \(s.inning)" : ""): \(scores)"
        case .summary(let s):
            let scores = s.scores.map { "\($0.player) \($0.score)\(s.maxScore > 0 ? "/\(s.maxScore)" : "")" }.joined(separator: ", ")
            var text = "\(prefix) game over: \(scores)"
            if !s.winner.isEmpty { text += ", winner \(s.winner)" }
            text += String(format: " · average %.1f mph, release %.0f°, launch %.0f°", s.averageSpeedMph,
                           s.averageReleaseAngleDeg, s.averageLaunchAngleDeg)
            return text
        case nil:
            return "\(prefix) (empty event)"
        }
    }

    /// One JSON object per event (protobuf's JSON mapping), for machines.
    public static func json(_ event: PSGameEvent) -> String {
        (try? event.jsonString()) ?? "{}"
    }

    static func name(_ state: PSGameState) -> String {
        switch state {
        case .inactive: return "Inactive"
        case .setupCamera: return "SetupCamera"
        case .detectingBoard: return "DetectingBoard"
        case .detectedBoard: return "DetectedBoard"
        case .detectingPlayer: return "DetectingPlayer"
        case .detectedPlayer: return "DetectedPlayer"
        case .trackThrows: return "TrackThrows"
        case .throwCompleted: return "ThrowCompleted"
        case .showSummary: return "ShowSummary"
        default: return "Unknown"
        }
    }

    static func typeName(_ type: PSThrowType) -> String {
        switch type {
        case .overhand: return "overhand"
        case .underhand: return "underhand"
        case .underleg: return "underleg"
        case .none: return "no-throw-type"
        default: return "unclassified"
        }
    }
}

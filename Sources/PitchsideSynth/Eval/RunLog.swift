import Foundation
import PitchsideCore
import SwiftProtobuf

/// What a run produced, read from JSON lines: game events (`PSGameEvent` JSON) and worker results
/// (`PSWorkerResult` JSON: board, stability and census observations), told apart by their keys;
/// other lines are counted and skipped.
///
/// ```swift
/// let run = try RunLog.parse(String(contentsOfFile: "events.jsonl"))
/// ```
public struct RunLog: Sendable {
    /// Throws with the game they belong to, in order of arrival; a repeated (game, index) keeps the last.
    public var throwsCompleted: [PSThrowCompleted] = []
    public var scoreUpdates: [PSScoreUpdate] = []
    public var summaries: [PSGameSummary] = []
    public var boards: [PSBoardObservation] = []
    public var stabilities: [PSStabilityObservation] = []
    public var censuses: [PSBoardCensus] = []
    public var eventLines = 0
    public var resultLines = 0
    public var skippedLines = 0

    static let eventKeys: Set<String> = [
        "throwCompleted", "throw_completed", "scoreUpdate", "score_update", "summary", "stateChanged",
        "state_changed", "eventSeq", "event_seq", "gameIndex", "game_index",
    ]
    static let resultKeys: Set<String> = [
        "board", "stability", "census", "pose", "trajectory", "heartbeat", "frameDone", "frame_done",
    ]

    public init() {}

    public static func parse(_ text: String) throws -> RunLog {
        var log = RunLog()
        var options = JSONDecodingOptions()
        options.ignoreUnknownFields = true
        var seen: [String: Int] = [:]
        for (number, raw) in text.split(whereSeparator: \.isNewline).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
                throw EvalError.badLine(number + 1, "not a JSON object")
            }
            let keys = Set(object.keys)
            if !keys.isDisjoint(with: resultKeys) {
                let result: PSWorkerResult
                do { result = try PSWorkerResult(jsonString: line, options: options) } catch {
                    throw EvalError.badLine(number + 1, "not a WorkerResult: \(error)")
                }
                log.resultLines += 1
                log.add(result)
            } else if !keys.isDisjoint(with: eventKeys) {
                let event: PSGameEvent
                do { event = try PSGameEvent(jsonString: line, options: options) } catch {
                    throw EvalError.badLine(number + 1, "not a GameEvent: \(error)")
                }
                log.eventLines += 1
                switch event.event {
                case .throwCompleted(let t):
                    let key = "\(event.gameIndex)/\(t.throwIndex)"
                    if let i = seen[key] { log.throwsCompleted[i] = t } else {
                        seen[key] = log.throwsCompleted.count
                        log.throwsCompleted.append(t)
                    }
                case .scoreUpdate(let s): log.scoreUpdates.append(s)
                case .summary(let s): log.summaries.append(s)
                default: break
                }
            } else {
                log.skippedLines += 1
            }
        }
        return log
    }

    /// Keeps a worker result's board, stability or census observation.
    public mutating func add(_ result: PSWorkerResult) {
        switch result.result {
        case .board(let board)?: boards.append(board)
        case .stability(let stability)?: stabilities.append(stability)
        case .census(let census)?: censuses.append(census)
        default: break
        }
    }

    /// Final score per player name: the last summary, else the last score update, else the sum of
    /// the throws' points.
    public var finalScores: [String: Int] {
        if let s = summaries.last, !s.scores.isEmpty {
            return Dictionary(s.scores.map { ($0.player, Int($0.score)) }, uniquingKeysWith: { _, b in b })
        }
        if let u = scoreUpdates.last, !u.scores.isEmpty {
            return Dictionary(u.scores.map { ($0.player, Int($0.score)) }, uniquingKeysWith: { _, b in b })
        }
        var totals: [String: Int] = [:]
        for t in throwsCompleted { totals[t.player, default: 0] += Int(t.points) }
        return totals
    }
}

/// Why an evaluation could not run.
public enum EvalError: Error, CustomStringConvertible {
    case badLine(Int, String)

    public var description: String {
        switch self {
        case .badLine(let n, let why): return "line \(n): \(why)"
        }
    }
}

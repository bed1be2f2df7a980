/// Points of one throw: 3 through the hole, 1 on the board, 0 otherwise; ×5 underleg in Apple's
/// rules.
public func throwPoints(_ outcome: ThrowOutcomeKind, style: ThrowStyle, rules: ScoringRules) -> Int {
    let base: Int
    switch outcome {
    case .hole: base = 3
    case .board: base = 1
    case .miss: base = 0
    }
    return rules == .apple && style == .underleg ? base * 5 : base
}

/// One inning's points per player and what cancellation leaves.
public struct InningScore: Sendable, Codable, Equatable {
    public var inning: Int
    /// Raw points per player (index order).
    public var points: [Int]
    /// Points each player scores after cancellation.
    public var scored: [Int]
}

/// Game totals under the game's rules.
public struct GameTotals: Sendable, Codable, Equatable {
    public var rules: ScoringRules
    /// Final score per player (index order).
    public var scores: [Int]
    public var innings: [InningScore]
    /// Apple: 8 throws × 5; official: 21.
    public var maxScore: Int
    public var winner: String?

    /// Scores the throws: Apple's sum, or official innings with cancellation.
    public static func compute(throws list: [(player: Int, inning: Int, points: Int)], players: [String],
                               rules: ScoringRules, throwCount: Int) -> GameTotals {
        var scores = [Int](repeating: 0, count: players.count)
        var innings: [InningScore] = []
        switch rules {
        case .apple:
            for t in list { scores[t.player] += t.points }
            return GameTotals(rules: rules, scores: scores, innings: [], maxScore: throwCount * 5, winner: nil)
        case .official:
            let inningCount = list.map(\.inning).max() ?? 0
            var winner: String?
            if inningCount > 0 {
                for k in 1...inningCount {
                    var raw = [Int](repeating: 0, count: players.count)
                    for t in list where t.inning == k { raw[t.player] += t.points }
                    var scored = [Int](repeating: 0, count: players.count)
                    if players.count == 2 {
                        let d = raw[0] - raw[1]
                        if d > 0 { scored[0] = d } else if d < 0 { scored[1] = -d }
                    } else {
                        scored = raw
                    }
                    for i in scores.indices { scores[i] += scored[i] }
                    innings.append(InningScore(inning: k, points: raw, scored: scored))
                    if winner == nil, let best = scores.indices.max(by: { scores[$0] < scores[$1] }), scores[best] >= 21 {
                        winner = players[best]
                    }
                }
            }
            return GameTotals(rules: rules, scores: scores, innings: innings, maxScore: 21, winner: winner)
        }
    }
}

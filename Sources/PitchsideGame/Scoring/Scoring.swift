import PitchsideCore

/// Keeps score in Apple's mode or under the official rules.
///
/// Apple's mode: one player, 8 throws, hole 3, board 1, miss 0, ×5 when
/// underleg (so at most 40). Official mode: two players alternate, 4 bags each
/// per inning; at the end of an inning only the difference between the two
/// players' inning points is scored, by the one ahead (cancellation); the first
/// to reach or exceed 21 at the end of an inning wins (with `bust`, exactly 21
/// wins and going over falls back to `bustScore`). The side that scored throws
/// first in the next inning.
///
/// The state is rebuilt from the logged `ThrowCompleted` events alone, by
/// recording them again (`record` is deterministic), which is how a restored
/// game continues.
public struct Scoring: Sendable {
    public let configuration: GameConfiguration
    public private(set) var totals: [String: Int] = [:]
    public private(set) var throwsBy: [String: Int] = [:]
    public private(set) var throwCount = 0
    /// Innings from 1 (Apple's mode: always 1).
    public private(set) var inning = 1
    public private(set) var winner = ""
    public private(set) var isOver = false
    private var inningPoints: [String: Int] = [:]
    private var inningThrows = 0
    private var firstThrower = 0

    public init(configuration: GameConfiguration) {
        self.configuration = configuration
        for p in players { totals[p] = 0; throwsBy[p] = 0 }
    }

    public var players: [String] {
        let ps = configuration.players
        switch configuration.mode {
        case .apple: return [ps.first ?? "player"]
        case .official: return ps.count >= 2 ? Array(ps.prefix(2)) : ["player1", "player2"]
        }
    }

    /// Who throws next.
    public var nextPlayer: String {
        let ps = players
        return configuration.mode == .apple ? ps[0] : ps[(firstThrower + inningThrows) % 2]
    }

    /// Points a single bag earns in this mode.
    public func points(outcome: PSThrowOutcome, type: PSThrowType) -> Int {
        let base: Int
        switch outcome {
        case .hole: base = 3
        case .board: base = 1
        default: base = 0
        }
        if configuration.mode == .apple, type == .underleg { return base * GameConstants.underlegMultiplier }
        return base
    }

    /// Counts a completed throw (its `player` and `points` are taken as given).
    public mutating func record(_ t: PSThrowCompleted) {
        guard !isOver else { return }
        let player = t.player.isEmpty ? nextPlayer : t.player
        throwCount += 1
        throwsBy[player, default: 0] += 1
        switch configuration.mode {
        case .apple:
            totals[player, default: 0] += Int(t.points)
            if throwCount >= GameConstants.maxThrows {
                isOver = true
                winner = player
            }
        case .official:
            inningPoints[player, default: 0] += Int(t.points)
            inningThrows += 1
            if inningThrows >= 2 * configuration.bagsPerPlayer { endInning() }
        }
    }

    private mutating func endInning() {
        let ps = players
        let a = inningPoints[ps[0]] ?? 0, b = inningPoints[ps[1]] ?? 0
        if a != b {
            let scorer = a > b ? 0 : 1
            var total = (totals[ps[scorer]] ?? 0) + abs(a - b)
            if configuration.bust, total > configuration.targetScore { total = configuration.bustScore }
            totals[ps[scorer]] = total
            firstThrower = scorer
            let won = configuration.bust ? total == configuration.targetScore : total >= configuration.targetScore
            if won {
                isOver = true
                winner = ps[scorer]
            }
        }
        inningPoints = [:]
        inningThrows = 0
        if !isOver, configuration.maxInnings > 0, inning >= configuration.maxInnings {
            isOver = true
            let ta = totals[ps[0]] ?? 0, tb = totals[ps[1]] ?? 0
            winner = ta == tb ? "" : (ta > tb ? ps[0] : ps[1])
        }
        if !isOver { inning += 1 }
    }

    /// Scores as the wire reports them.
    public var playerScores: [PSPlayerScore] {
        players.map { p in
            var s = PSPlayerScore()
            s.player = p
            s.score = Int32(totals[p] ?? 0)
            s.`throws` = UInt32(throwsBy[p] ?? 0)
            return s
        }
    }

    public var scoreUpdate: PSScoreUpdate {
        var u = PSScoreUpdate()
        u.scores = playerScores
        u.throwCount = UInt32(throwCount)
        u.inning = UInt32(inning)
        u.mode = configuration.wireMode
        return u
    }

    /// Apple's summary: total, every throw, averages; the winner in official mode.
    public func summary(of throwList: [PSThrowCompleted]) -> PSGameSummary {
        var s = PSGameSummary()
        s.scores = playerScores
        s.`throws` = throwList
        s.mode = configuration.wireMode
        s.winner = winner
        s.maxScore = configuration.mode == .apple
            ? UInt32(GameConstants.maxThrows * GameConstants.underlegMultiplier) : UInt32(configuration.targetScore)
        if !throwList.isEmpty {
            let n = Double(throwList.count)
            s.averageSpeedMph = throwList.map(\.releaseSpeedMph).reduce(0, +) / n
            s.averageReleaseAngleDeg = throwList.map(\.releaseAngleDeg).reduce(0, +) / n
            s.averageLaunchAngleDeg = throwList.map(\.launchAngleDeg).reduce(0, +) / n
        }
        return s
    }
}

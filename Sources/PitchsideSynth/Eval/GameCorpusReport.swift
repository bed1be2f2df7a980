import Foundation

/// One game of a corpus, evaluated: its own report and what the corpus figures add to it.
public struct CorpusGameResult: Codable, Equatable, Sendable {
    public var name: String
    public var width: Int
    public var height: Int
    public var fps: Int
    public var players: Int
    public var rules: String
    public var report: EvalReport
    /// Walking and picking-up segments of the truth (actions that are not throws).
    public var negativeActions: Int
    /// Of those, the ones during which the run reported a throw.
    public var negativeActionsWithThrow: Int
    /// Every player's total exact.
    public var totalsExact: Bool

    public init(name: String, run: RunLog, truth: GroundTruth, evaluator: Evaluator = Evaluator()) {
        self.name = name
        width = truth.video.width
        height = truth.video.height
        fps = truth.video.fps
        players = truth.settings.players.count
        rules = truth.settings.rules.rawValue
        report = evaluator.evaluate(run: run, truth: truth)
        let negatives = truth.actions.filter { !$0.action.isThrow && $0.action != .idle }
        negativeActions = negatives.count
        let releases = run.throwsCompleted.map { Double($0.releasePtsUs) / 1e6 }
        negativeActionsWithThrow = negatives.filter { action in
            releases.contains { $0 >= action.startTime && $0 <= action.endTime }
        }.count
        let evaluated = report
        totalsExact = evaluated.truthTotals.allSatisfy { evaluated.runTotals[$0.key, default: 0] == $0.value }
    }
}

/// The figures of a whole corpus of games, pooled over every throw (not averaged per game).
///
/// Points and throw type count a missed throw as wrong: they are shares of the truth's throws,
/// so a perfect figure needs every throw found. Throw type "with negatives" also counts each
/// negative action (walking, picking up a bag) as right when no throw was reported during it.
public struct GameCorpusReport: Codable, Equatable, Sendable {
    public var games: [CorpusGameResult]
    public var truthThrows: Int
    public var runThrows: Int
    public var matchedThrows: Int
    public var recall: Double?
    public var precision: Double?
    public var pointsExact: Int
    public var pointsAccuracy: Double?
    public var outcomeAccuracy: Double?
    public var gamesWithExactTotals: Int
    public var gameTotalAccuracy: Double?
    public var typeCorrect: Int
    public var throwTypeAccuracy: Double?
    public var negativeActions: Int
    public var negativeActionsIgnored: Int
    public var throwTypeAccuracyWithNegatives: Double?
    public var confusion: [[Int]]
    public var confusionRows: [String]
    public var confusionColumns: [String]
    public var speedErrorPercent: ErrorStats
    public var launchAngleErrorDeg: ErrorStats
    public var releaseAngleErrorDeg: ErrorStats
    public var releaseTimeError: ErrorStats

    public init(games: [CorpusGameResult]) {
        self.games = games
        let reports = games.map(\.report)
        func sum(_ f: (EvalReport) -> Int) -> Int { reports.reduce(0) { $0 + f($1) } }
        func ratio(_ k: Int, _ n: Int) -> Double? { n > 0 ? Double(k) / Double(n) : nil }
        truthThrows = sum(\.truthThrows)
        runThrows = sum(\.runThrows)
        matchedThrows = sum(\.matchedThrows)
        recall = ratio(matchedThrows, truthThrows)
        precision = ratio(matchedThrows, runThrows)
        let matches = reports.flatMap(\.matches)
        pointsExact = matches.filter { $0.truthPoints == $0.runPoints }.count
        pointsAccuracy = ratio(pointsExact, truthThrows)
        outcomeAccuracy = ratio(matches.filter { $0.truthOutcome == $0.runOutcome }.count, truthThrows)
        gamesWithExactTotals = games.filter(\.totalsExact).count
        gameTotalAccuracy = ratio(gamesWithExactTotals, games.count)
        typeCorrect = matches.filter { $0.truthType == $0.runType }.count
        throwTypeAccuracy = ratio(typeCorrect, truthThrows)
        negativeActions = games.reduce(0) { $0 + $1.negativeActions }
        negativeActionsIgnored = negativeActions - games.reduce(0) { $0 + $1.negativeActionsWithThrow }
        throwTypeAccuracyWithNegatives = ratio(typeCorrect + negativeActionsIgnored, truthThrows + negativeActions)
        confusionRows = Evaluator.typeRows
        confusionColumns = Evaluator.typeColumns
        confusion = Array(repeating: Array(repeating: 0, count: confusionColumns.count), count: confusionRows.count)
        for r in reports {
            for (i, row) in r.confusion.enumerated() where i < confusion.count {
                for (j, v) in row.enumerated() where j < confusion[i].count { confusion[i][j] += v }
            }
        }
        speedErrorPercent = ErrorStats(matches.compactMap(\.speedErrorPercent))
        launchAngleErrorDeg = ErrorStats(matches.compactMap(\.launchAngleErrorDeg))
        releaseAngleErrorDeg = ErrorStats(matches.compactMap(\.releaseAngleErrorDeg))
        releaseTimeError = ErrorStats(matches.map(\.releaseErrorSeconds))
    }

    /// A Markdown report: the summary against the targets, then one line per game.
    public func markdown() -> String {
        func pct(_ v: Double?) -> String { v.map { String(format: "%.1f %%", $0 * 100) } ?? "–" }
        func num(_ v: Double?, _ unit: String) -> String { v.map { String(format: "%.2f%@", $0, unit) } ?? "–" }
        var lines: [String] = []
        lines.append("| figure | value | target |")
        lines.append("|---|---:|---:|")
        lines.append("| throw recall | \(pct(recall)) (\(matchedThrows) of \(truthThrows)) | 100 % |")
        lines.append("| throw precision | \(pct(precision)) (\(matchedThrows) of \(runThrows) reported) | 100 % |")
        lines.append("| points exact, of all throws | \(pct(pointsAccuracy)) (\(pointsExact) of \(truthThrows)) | ≥ 97 % |")
        lines.append("| game totals exact | \(pct(gameTotalAccuracy)) (\(gamesWithExactTotals) of \(games.count) games) | ≥ 90 % |")
        lines.append("| release speed, median error | \(num(speedErrorPercent.median, " %")) (p90 \(num(speedErrorPercent.p90, " %")), \(speedErrorPercent.count) throws) | ≤ 5 % |")
        lines.append("| throw type, negative actions included | \(pct(throwTypeAccuracyWithNegatives)) (\(typeCorrect) of \(truthThrows) throws, \(negativeActionsIgnored) of \(negativeActions) negative actions with no throw) | ≥ 90 % |")
        lines.append("| throw type, throws only | \(pct(throwTypeAccuracy)) | |")
        lines.append("| outcome (hole / board / miss), of all throws | \(pct(outcomeAccuracy)) | |")
        lines.append("| launch angle, median error | \(num(launchAngleErrorDeg.median, "°")) | |")
        lines.append("| release angle, median error | \(num(releaseAngleErrorDeg.median, "°")) | |")
        lines.append("")
        lines.append("Throw type (rows: truth; columns: reported):")
        lines.append("")
        lines.append("| | " + confusionColumns.joined(separator: " | ") + " |")
        lines.append("|---|" + confusionColumns.map { _ in "---:" }.joined(separator: "|") + "|")
        for (i, row) in confusion.enumerated() {
            lines.append("| \(confusionRows[i]) | " + row.map(String.init).joined(separator: " | ") + " |")
        }
        lines.append("")
        lines.append("| game | picture | players | rules | throws found / reported / true | points exact | totals (run / truth) | type right | negatives with a throw |")
        lines.append("|---|---|---:|---|---|---:|---|---:|---:|")
        for g in games {
            let r = g.report
            let names = r.truthTotals.keys.sorted()
            let totals = names.map { "\(r.runTotals[$0, default: 0])/\(r.truthTotals[$0]!)" }.joined(separator: ", ")
            let points = r.matches.filter { $0.truthPoints == $0.runPoints }.count
            let types = r.matches.filter { $0.truthType == $0.runType }.count
            lines.append("| \(g.name) | \(g.width)×\(g.height)@\(g.fps) | \(g.players) | \(g.rules) | \(r.matchedThrows) / \(r.runThrows) / \(r.truthThrows) | \(points) | \(totals)\(g.totalsExact ? "" : " ✗") | \(types) | \(g.negativeActionsWithThrow) of \(g.negativeActions) |")
        }
        let wrong = games.flatMap(Self.wrongThrowRows)
        if !wrong.isEmpty {
            lines.append("")
            lines.append("Throws whose outcome or points are wrong, or that were not found (outcome, type, points):")
            lines.append("")
            lines.append("| game | throw | truth | reported |")
            lines.append("|---|---:|---|---|")
            lines.append(contentsOf: wrong)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// One table row per throw of `game` that cost points or was scored in the wrong place (a
    /// type wrong alone, with the points right, is in the type table), and per truth throw the run
    /// did not report: where to look first when a total is wrong.
    static func wrongThrowRows(of game: CorpusGameResult) -> [String] {
        let matches = game.report.matches
        var rows = matches.filter { $0.truthOutcome != $0.runOutcome || $0.truthPoints != $0.runPoints }
            .sorted { $0.truthIndex < $1.truthIndex }
            .map { m in
                "| \(game.name) | \(m.truthIndex) | \(m.truthOutcome), \(m.truthType), \(m.truthPoints) | \(m.runOutcome), \(m.runType), \(m.runPoints) |"
            }
        let matched = Set(matches.map(\.truthIndex))
        if game.report.truthThrows > 0 {
            rows += (1...game.report.truthThrows).filter { !matched.contains($0) }.map { "| \(game.name) | \($0) | – | not found |" }
        }
        return rows
    }
}

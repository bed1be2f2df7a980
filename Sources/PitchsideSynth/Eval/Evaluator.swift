import Foundation
import PitchsideCore

/// Matches a run's throws to the truth by release time and measures everything `EvalReport` holds.
///
/// ```swift
/// let report = Evaluator(releaseTolerance: 0.5).evaluate(run: run, truth: truth)
/// ```
public struct Evaluator: Sendable {
    /// Largest release-time difference for a run throw to match a truth throw, seconds.
    public var releaseTolerance: Double

    public init(releaseTolerance: Double = 0.5) { self.releaseTolerance = releaseTolerance }

    static let typeRows = ["overhand", "underhand", "underleg"]
    static let typeColumns = ["overhand", "underhand", "underleg", "none", "unspecified"]

    static func name(_ type: PSThrowType) -> String {
        switch type {
        case .overhand: return "overhand"
        case .underhand: return "underhand"
        case .underleg: return "underleg"
        case .none: return "none"
        default: return "unspecified"
        }
    }

    static func name(_ outcome: PSThrowOutcome) -> String {
        switch outcome {
        case .hole: return "hole"
        case .board: return "board"
        case .miss: return "miss"
        default: return "unspecified"
        }
    }

    /// Pairs (truth, run) by closest release time, one to one, within the tolerance.
    public func match(truth: [ThrowTruth], run: [PSThrowCompleted]) -> [(Int, Int)] {
        var candidates: [(Double, Int, Int)] = []
        for (i, t) in truth.enumerated() {
            for (j, r) in run.enumerated() {
                let d = abs(Double(r.releasePtsUs) / 1e6 - t.releaseTime)
                if d <= releaseTolerance { candidates.append((d, i, j)) }
            }
        }
        candidates.sort { ($0.0, $0.1, $0.2) < ($1.0, $1.1, $1.2) }
        var usedTruth = Set<Int>(), usedRun = Set<Int>()
        var pairs: [(Int, Int)] = []
        for (_, i, j) in candidates where !usedTruth.contains(i) && !usedRun.contains(j) {
            usedTruth.insert(i)
            usedRun.insert(j)
            pairs.append((i, j))
        }
        return pairs.sorted { $0.0 < $1.0 }
    }

    /// A line's angle against the horizontal, folded into [0, 90] degrees.
    static func foldedAngle(_ degrees: Double) -> Double {
        var a = degrees.truncatingRemainder(dividingBy: 360)
        if a < 0 { a += 360 }
        if a > 180 { a -= 180 }
        return a > 90 ? 180 - a : a
    }

    public func evaluate(run: RunLog, truth: GroundTruth) -> EvalReport {
        let truthThrows = truth.throwsTruth
        let runThrows = run.throwsCompleted
        let pairs = match(truth: truthThrows, run: runThrows)
        var confusion = Array(repeating: Array(repeating: 0, count: Self.typeColumns.count), count: Self.typeRows.count)
        var outcomeRight = 0, pointsRight = 0, typeRight = 0
        var releaseErrors: [Double] = [], speedErrors: [Double] = [], speedPercent: [Double] = []
        var launchErrors: [Double] = [], releaseAngleErrors: [Double] = []
        var matches: [ThrowMatch] = []
        for (i, j) in pairs {
            let t = truthThrows[i], r = runThrows[j]
            let outcome = Self.name(r.outcome), type = Self.name(r.type)
            if outcome == t.outcome.rawValue { outcomeRight += 1 }
            if Int(r.points) == t.points { pointsRight += 1 }
            if type == t.style.rawValue { typeRight += 1 }
            if let row = Self.typeRows.firstIndex(of: t.style.rawValue), let col = Self.typeColumns.firstIndex(of: type) {
                confusion[row][col] += 1
            }
            releaseErrors.append(abs(Double(r.releasePtsUs) / 1e6 - t.releaseTime))
            var speedError: Double?
            if r.releaseSpeedMps > 0 {
                speedError = abs(r.releaseSpeedMps - t.releaseSpeedMps)
                speedErrors.append(speedError!)
                speedPercent.append(speedError! / t.releaseSpeedMps * 100)
            }
            var launchError: Double?, releaseAngleError: Double?
            if r.launchAngleDeg != 0 {
                launchError = abs(r.launchAngleDeg - t.launchAngleDeg)
                launchErrors.append(launchError!)
            }
            if r.releaseAngleDeg != 0 {
                releaseAngleError = abs(Self.foldedAngle(r.releaseAngleDeg) - Self.foldedAngle(t.releaseAngleDeg))
                releaseAngleErrors.append(releaseAngleError!)
            }
            matches.append(ThrowMatch(
                truthIndex: t.index, runIndex: Int(r.throwIndex), releaseErrorSeconds: releaseErrors.last!,
                truthOutcome: t.outcome.rawValue, runOutcome: outcome, truthPoints: t.points, runPoints: Int(r.points),
                truthType: t.style.rawValue, runType: type, speedErrorMps: speedError,
                speedErrorPercent: speedError.map { $0 / t.releaseSpeedMps * 100 },
                launchAngleErrorDeg: launchError, releaseAngleErrorDeg: releaseAngleError))
        }
        let n = Double(pairs.count)
        func ratio(_ k: Int, _ d: Double) -> Double? { d > 0 ? Double(k) / d : nil }

        // Game totals by player name.
        var truthTotals: [String: Int] = [:]
        for (k, p) in truth.settings.players.enumerated() { truthTotals[p.name] = truth.totals.scores[k] }
        let runTotals = run.finalScores
        var exact = 0, absError = 0
        for (name, score) in truthTotals {
            let got = runTotals[name] ?? 0
            if got == score { exact += 1 }
            absError += abs(got - score)
        }

        // Board and hole localisation, per observation against its frame's truth.
        let w = Double(truth.video.width), h = Double(truth.video.height)
        var cornerErrors: [Double] = [], holeErrors: [Double] = [], mppErrors: [Double] = []
        var found = 0
        for board in run.boards where board.found {
            found += 1
            let frame = board.header.seq > 0 || board.header.ptsUs == 0
                ? Int(board.header.seq)
                : Int((Double(board.header.ptsUs) * Double(truth.video.fps) / 1e6).rounded())
            guard frame >= 0, frame < truth.frames.count else { continue }
            let f = truth.frames[frame]
            if board.corners.count == 4 {
                var sum = 0.0
                for (c, tc) in zip(board.corners, f.boardCorners) {
                    sum += hypot((c.x - tc[0]) * w, (c.y - tc[1]) * h)
                }
                cornerErrors.append(sum / 4)
            }
            if board.hasHole {
                holeErrors.append(hypot((board.hole.center.x - f.hole.cx) * w, (board.hole.center.y - f.hole.cy) * h))
            }
            if board.metresPerPixel > 0 {
                mppErrors.append(abs(board.metresPerPixel - f.metresPerPixel) / f.metresPerPixel * 100)
            }
        }

        return EvalReport(
            truthThrows: truthThrows.count, runThrows: runThrows.count, matchedThrows: pairs.count,
            recall: ratio(pairs.count, Double(truthThrows.count)), precision: ratio(pairs.count, Double(runThrows.count)),
            outcomeAccuracy: ratio(outcomeRight, n), pointsAccuracy: ratio(pointsRight, n),
            throwTypeAccuracy: ratio(typeRight, n), confusion: confusion, confusionRows: Self.typeRows,
            confusionColumns: Self.typeColumns, truthTotals: truthTotals, runTotals: runTotals,
            gameTotalAccuracy: ratio(exact, Double(truthTotals.count)), gameTotalAbsoluteError: absError,
            releaseTimeError: ErrorStats(releaseErrors), speedErrorMps: ErrorStats(speedErrors),
            speedErrorPercent: ErrorStats(speedPercent), launchAngleErrorDeg: ErrorStats(launchErrors),
            releaseAngleErrorDeg: ErrorStats(releaseAngleErrors), boardCornerErrorPixels: ErrorStats(cornerErrors),
            holeCentreErrorPixels: ErrorStats(holeErrors), metresPerPixelErrorPercent: ErrorStats(mppErrors),
            boardObservations: run.boards.count, boardFound: found, matches: matches)
    }
}

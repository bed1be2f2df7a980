import Foundation

extension EvalReport {
    /// The report as a human-readable table.
    public var text: String {
        func pct(_ v: Double?) -> String { v.map { String(format: "%5.1f%%", $0 * 100) } ?? "    –" }
        func stats(_ s: ErrorStats, _ unit: String) -> String {
            guard let m = s.median, let p = s.p90 else { return "– (n=0)" }
            return String(format: "median %.3f %@, p90 %.3f %@ (n=%d)", m, unit, p, unit, s.count)
        }
        var lines: [String] = []
        lines.append("throws: truth \(truthThrows), run \(runThrows), matched \(matchedThrows)")
        lines.append("  recall            \(pct(recall))")
        lines.append("  precision         \(pct(precision))")
        lines.append("  outcome accuracy  \(pct(outcomeAccuracy))")
        lines.append("  points accuracy   \(pct(pointsAccuracy))")
        lines.append("  throw-type acc.   \(pct(throwTypeAccuracy))")
        let names = truthTotals.keys.sorted()
        lines.append("game totals: truth " + names.map { "\($0) \(truthTotals[$0]!)" }.joined(separator: ", ")
            + "; run " + names.map { "\($0) \(runTotals[$0] ?? 0)" }.joined(separator: ", ")
            + "  → accuracy \(pct(gameTotalAccuracy)), |error| \(gameTotalAbsoluteError)")
        lines.append("release time error  \(stats(releaseTimeError, "s"))")
        lines.append("speed error         \(stats(speedErrorMps, "m/s")); relative \(stats(speedErrorPercent, "%"))")
        lines.append("launch angle error  \(stats(launchAngleErrorDeg, "°"))")
        lines.append("release angle error \(stats(releaseAngleErrorDeg, "°"))")
        lines.append("board: \(boardFound)/\(boardObservations) observations found")
        lines.append("  corner error      \(stats(boardCornerErrorPixels, "px"))")
        lines.append("  hole centre error \(stats(holeCentreErrorPixels, "px"))")
        lines.append("  metres/pixel err. \(stats(metresPerPixelErrorPercent, "%"))")
        lines.append("throw type confusion (rows truth, columns run):")
        lines.append("  " + "".padding(toLength: 10, withPad: " ", startingAt: 0)
            + confusionColumns.map { $0.prefix(9).padding(toLength: 11, withPad: " ", startingAt: 0) }.joined())
        for (i, row) in confusionRows.enumerated() {
            lines.append("  " + row.padding(toLength: 10, withPad: " ", startingAt: 0)
                + confusion[i].map { String($0).padding(toLength: 11, withPad: " ", startingAt: 0) }.joined())
        }
        return lines.joined(separator: "\n")
    }
}

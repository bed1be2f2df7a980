/// Figures a run must reach; `check` lists every one it falls short of.
public struct EvalThresholds: Sendable {
    public var minRecall: Double?
    public var minPrecision: Double?
    public var minOutcomeAccuracy: Double?
    public var minPointsAccuracy: Double?
    public var minTypeAccuracy: Double?
    public var minGameTotalAccuracy: Double?
    /// Median absolute speed error, m/s.
    public var maxSpeedError: Double?
    public var maxLaunchAngleError: Double?
    public var maxReleaseAngleError: Double?
    /// Median board corner error, pixels.
    public var maxBoardError: Double?
    public var maxHoleError: Double?

    public init() {}

    public func check(_ r: EvalReport) -> [String] {
        var failures: [String] = []
        func atLeast(_ name: String, _ value: Double?, _ limit: Double?) {
            guard let limit else { return }
            guard let value else { return failures.append("\(name): no value (needs ≥ \(limit))") }
            if value < limit { failures.append("\(name) \(fmt(value)) < \(limit)") }
        }
        func atMost(_ name: String, _ value: Double?, _ limit: Double?) {
            guard let limit else { return }
            guard let value else { return failures.append("\(name): no value (needs ≤ \(limit))") }
            if value > limit { failures.append("\(name) \(fmt(value)) > \(limit)") }
        }
        atLeast("recall", r.recall, minRecall)
        atLeast("precision", r.precision, minPrecision)
        atLeast("outcome accuracy", r.outcomeAccuracy, minOutcomeAccuracy)
        atLeast("points accuracy", r.pointsAccuracy, minPointsAccuracy)
        atLeast("throw-type accuracy", r.throwTypeAccuracy, minTypeAccuracy)
        atLeast("game-total accuracy", r.gameTotalAccuracy, minGameTotalAccuracy)
        atMost("median speed error (m/s)", r.speedErrorMps.median, maxSpeedError)
        atMost("median launch angle error (°)", r.launchAngleErrorDeg.median, maxLaunchAngleError)
        atMost("median release angle error (°)", r.releaseAngleErrorDeg.median, maxReleaseAngleError)
        atMost("median board corner error (px)", r.boardCornerErrorPixels.median, maxBoardError)
        atMost("median hole error (px)", r.holeCentreErrorPixels.median, maxHoleError)
        return failures
    }
}

func fmt(_ v: Double) -> String {
    let scaled = (v * 1000).rounded() / 1000
    return "\(scaled)"
}

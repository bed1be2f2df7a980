/// Median and 90th percentile of absolute errors, with how many values they summarise.
public struct ErrorStats: Codable, Equatable, Sendable {
    public var count: Int
    public var median: Double?
    public var p90: Double?
    public var mean: Double?

    public init(_ values: [Double]) {
        count = values.count
        guard !values.isEmpty else { return }
        let sorted = values.sorted()
        median = Self.quantile(sorted, 0.5)
        p90 = Self.quantile(sorted, 0.9)
        mean = values.reduce(0, +) / Double(values.count)
    }

    /// Linear interpolation between closest ranks.
    static func quantile(_ sorted: [Double], _ q: Double) -> Double {
        let position = q * Double(sorted.count - 1)
        let i = Int(position)
        let f = position - Double(i)
        return i + 1 < sorted.count ? sorted[i] + (sorted[i + 1] - sorted[i]) * f : sorted[i]
    }
}

/// One truth throw and the run's throw it was matched with.
public struct ThrowMatch: Codable, Equatable, Sendable {
    public var truthIndex: Int
    public var runIndex: Int
    public var releaseErrorSeconds: Double
    public var truthOutcome: String
    public var runOutcome: String
    public var truthPoints: Int
    public var runPoints: Int
    public var truthType: String
    public var runType: String
    public var speedErrorMps: Double?
    public var speedErrorPercent: Double?
    public var launchAngleErrorDeg: Double?
    public var releaseAngleErrorDeg: Double?
}

/// The figures `pitchside eval` prints: how a run compares with a synthetic game's truth.
public struct EvalReport: Codable, Equatable, Sendable {
    public var truthThrows: Int
    public var runThrows: Int
    public var matchedThrows: Int
    public var recall: Double?
    public var precision: Double?
    public var outcomeAccuracy: Double?
    public var pointsAccuracy: Double?
    public var throwTypeAccuracy: Double?
    /// Rows: truth type (overhand, underhand, underleg); columns: run type (overhand, underhand,
    /// underleg, none, unspecified).
    public var confusion: [[Int]]
    public var confusionRows: [String]
    public var confusionColumns: [String]
    public var truthTotals: [String: Int]
    public var runTotals: [String: Int]
    /// Fraction of players whose final score is exactly right.
    public var gameTotalAccuracy: Double?
    public var gameTotalAbsoluteError: Int
    public var releaseTimeError: ErrorStats
    public var speedErrorMps: ErrorStats
    /// Relative speed error, percent.
    public var speedErrorPercent: ErrorStats
    public var launchAngleErrorDeg: ErrorStats
    public var releaseAngleErrorDeg: ErrorStats
    /// Board observations compared with the truth of their frame: mean corner distance, pixels.
    public var boardCornerErrorPixels: ErrorStats
    public var holeCentreErrorPixels: ErrorStats
    /// Relative error of metres per pixel, percent.
    public var metresPerPixelErrorPercent: ErrorStats
    public var boardObservations: Int
    public var boardFound: Int
    public var matches: [ThrowMatch]
}

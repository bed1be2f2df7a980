import Foundation

/// A trajectory as a detector reported it last (its most refined version), in pixels and
/// frame indices of the game.
public struct ObservedTrajectory: Sendable, Equatable {
    public struct Point: Sendable, Equatable {
        public var frame: Int
        public var x: Double
        public var y: Double

        public init(frame: Int, x: Double, y: Double) {
            self.frame = frame
            self.x = x
            self.y = y
        }
    }

    public var points: [Point]
    public var confidence: Double

    public init(points: [Point], confidence: Double) {
        self.points = points
        self.confidence = confidence
    }
}

/// Scores a trajectory detector's observations against a game's moving things (`KnownPath`):
/// which flights were found, how far the detected points lie from the true bag centre, and
/// what every observation followed (a bag, a shadow, a bird, a far person, or nothing known).
///
/// ```swift
/// var report = TrajectoryReport()
/// report.add(try TrajectoryEvaluator.evaluate(observed, truth: truth, game: "dev-0003"))
/// print(report.text)
/// ```
///
/// An observation follows the path that holds most of its points (a point is on a path when it
/// lies within the path's reach in the same frame); it counts as that path's kind when that is
/// at least half of its points, else as "other". A flight is found when a bag observation has at
/// least `minimumMatchedPoints` points on it between release and first contact. Point errors are
/// the distances of bag observations' points from the true centre in the flight's frames,
/// scaled to a 720-line picture (× 720 / height).
public enum TrajectoryEvaluator {
    /// Points an observation must share with a flight to count as finding it.
    public static let minimumMatchedPoints = 5
    /// Observations longer than this that follow nothing known are what the issue forbids.
    public static let longObservationPoints = 10

    /// Evaluates one game. Throws `MissingPathsError` when the truth lacks shadow or distractor paths.
    public static func evaluate(_ observed: [ObservedTrajectory], truth: GroundTruth, game: String) throws -> TrajectoryReport {
        try evaluate(observed, paths: truth.knownPaths(), height: truth.video.height, game: game)
    }

    /// Evaluates observations against any set of known paths in a picture `height` pixels tall.
    public static func evaluate(_ observed: [ObservedTrajectory], paths: [KnownPath], height: Int, game: String) -> TrajectoryReport {
        var report = TrajectoryReport()
        report.games = 1
        let flights = paths.indices.filter { paths[$0].kind == .bag }
        report.flights = flights.count
        let scale = 720 / Double(max(height, 1))
        var best: [Int: (matched: Int, confidence: Double, coverage: Double)] = [:]    // per flight path index
        for o in observed {
            let n = o.points.count
            var top: (path: Int, matched: Int)? = nil
            for (k, path) in paths.enumerated() {
                var matched = 0
                for p in o.points where path.contains(SIMD2(p.x, p.y), frame: p.frame) { matched += 1 }
                if matched > (top?.matched ?? 0) || (matched == top?.matched && path.kind == .bag) { top = (k, matched) }
            }
            guard let top, top.matched > 0, top.matched * 2 >= n else {
                let long = n > longObservationPoints
                report.count(long ? "other_long" : "other_short", confidence: o.confidence)
                if long { report.otherLong.append(.init(game: game, o)) }
                continue
            }
            let path = paths[top.path]
            report.count(path.kind.rawValue, confidence: o.confidence)
            guard path.kind == .bag, let frames = path.flightFrames else { continue }
            var inFlight = 0
            for p in o.points where frames.contains(p.frame) {
                guard let c = path.points[p.frame] else { continue }
                let d = SIMD2(p.x, p.y) - c
                report.pointErrors.append((d.x * d.x + d.y * d.y).squareRoot() * scale)
                if path.contains(SIMD2(p.x, p.y), frame: p.frame) { inFlight += 1 }
            }
            let coverage = Double(inFlight) / Double(frames.count)
            if inFlight >= minimumMatchedPoints, inFlight > (best[top.path]?.matched ?? 0) {
                best[top.path] = (inFlight, o.confidence, coverage)
            }
        }
        for k in flights {
            if let b = best[k] {
                report.found += 1
                report.flightConfidences.append(b.confidence)
                report.flightCoverages.append(b.coverage)
            } else {
                let frames = paths[k].flightFrames.map { "frames \($0.lowerBound)–\($0.upperBound)" } ?? ""
                report.missed.append("\(game) throw \(paths[k].throwIndex ?? 0) \(frames)")
            }
        }
        return report
    }
}

/// What `TrajectoryEvaluator` measures, over one game or added up over a corpus.
public struct TrajectoryReport: Sendable {
    /// A long observation that follows nothing known, for finding out what it is.
    public struct Unexplained: Codable, Sendable, Equatable {
        public var game: String
        public var firstFrame: Int
        public var lastFrame: Int
        public var points: Int
        public var confidence: Double
        /// First and last detected point, pixels.
        public var from: [Double]
        public var to: [Double]

        init(game: String, _ o: ObservedTrajectory) {
            self.game = game
            firstFrame = o.points.first?.frame ?? 0
            lastFrame = o.points.last?.frame ?? 0
            points = o.points.count
            confidence = o.confidence
            from = o.points.first.map { [($0.x * 10).rounded() / 10, ($0.y * 10).rounded() / 10] } ?? []
            to = o.points.last.map { [($0.x * 10).rounded() / 10, ($0.y * 10).rounded() / 10] } ?? []
        }
    }

    public var games = 0
    public var flights = 0
    public var found = 0
    /// Flights no observation found: "game throw k frames a–b".
    public var missed: [String] = []
    /// Point distances from the true bag centre, pixels scaled to 720 lines.
    public var pointErrors: [Double] = []
    /// Observations by what they follow: bag, shadow, bird, far_person, other_long, other_short.
    public var observations: [String: Int] = [:]
    /// Confidences of the observations, by the same classes.
    public var confidences: [String: [Double]] = [:]
    /// Per found flight: the confidence of the observation that follows it longest.
    public var flightConfidences: [Double] = []
    /// Per found flight: the fraction of its frames that observation covers.
    public var flightCoverages: [Double] = []
    public var otherLong: [Unexplained] = []

    public init() {}

    public var recall: Double { flights == 0 ? 1 : Double(found) / Double(flights) }
    public var otherLongCount: Int { observations["other_long", default: 0] }

    mutating func count(_ kind: String, confidence: Double) {
        observations[kind, default: 0] += 1
        confidences[kind, default: []].append(confidence)
    }

    public mutating func add(_ other: TrajectoryReport) {
        games += other.games
        flights += other.flights
        found += other.found
        missed += other.missed
        pointErrors += other.pointErrors
        observations.merge(other.observations, uniquingKeysWith: +)
        confidences.merge(other.confidences, uniquingKeysWith: +)
        flightConfidences += other.flightConfidences
        flightCoverages += other.flightCoverages
        otherLong += other.otherLong
    }
}

/// Minimum, quantiles and maximum of a set of values.
public struct Spread: Codable, Equatable, Sendable {
    public var count: Int
    public var min: Double?
    public var p10: Double?
    public var median: Double?
    public var p90: Double?
    public var max: Double?

    public init(_ values: [Double]) {
        count = values.count
        guard !values.isEmpty else { return }
        let s = values.sorted()
        min = s.first
        p10 = ErrorStats.quantile(s, 0.1)
        median = ErrorStats.quantile(s, 0.5)
        p90 = ErrorStats.quantile(s, 0.9)
        max = s.last
    }
}

extension TrajectoryReport: Encodable {
    enum CodingKeys: String, CodingKey {
        case games, flights, found, recall, missed, pointError720, observations, confidence, flightConfidence,
             flightCoverage, otherLong
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(games, forKey: .games)
        try c.encode(flights, forKey: .flights)
        try c.encode(found, forKey: .found)
        try c.encode(recall, forKey: .recall)
        try c.encode(missed, forKey: .missed)
        try c.encode(Spread(pointErrors), forKey: .pointError720)
        try c.encode(observations, forKey: .observations)
        try c.encode(confidences.mapValues(Spread.init), forKey: .confidence)
        try c.encode(Spread(flightConfidences), forKey: .flightConfidence)
        try c.encode(Spread(flightCoverages), forKey: .flightCoverage)
        try c.encode(otherLong, forKey: .otherLong)
    }
}

extension TrajectoryReport {
    /// One line of figures (for a game, or the corpus total).
    public func line(_ name: String) -> String {
        let e = Spread(pointErrors), fc = Spread(flightConfidences)
        let kinds = ["bag", "shadow", "bird", "far_person", "other_long", "other_short"]
        return String(format: "%@: flights %d found %d (recall %.1f%%)  error@720p median %.2f p90 %.2f px (n %d)  "
                      + "flight confidence min %.3f median %.3f  obs %@",
                      name, flights, found, 100 * recall, e.median ?? .nan, e.p90 ?? .nan, e.count,
                      fc.min ?? .nan, fc.median ?? .nan,
                      kinds.map { "\($0) \(observations[$0, default: 0])" }.joined(separator: ", "))
    }

    /// The corpus summary: totals, misses, confidences by class, and the unexplained long observations.
    public var text: String {
        var lines = [line("TOTAL (\(games) games)")]
        for m in missed { lines.append("  missed: \(m)") }
        for kind in confidences.keys.sorted() {
            let s = Spread(confidences[kind]!)
            lines.append(String(format: "  confidence of %@ observations: min %.3f p10 %.3f median %.3f p90 %.3f max %.3f (n %d)",
                                kind, s.min!, s.p10!, s.median!, s.p90!, s.max!, s.count))
        }
        let cov = Spread(flightCoverages)
        if let m = cov.median, let lo = cov.min {
            lines.append(String(format: "  flight coverage (frames of a flight its observation holds): min %.2f median %.2f", lo, m))
        }
        for u in otherLong {
            lines.append(String(format: "  unexplained: %@ frames %d–%d, %d points, confidence %.3f, (%.1f, %.1f) → (%.1f, %.1f)",
                                u.game, u.firstFrame, u.lastFrame, u.points, u.confidence,
                                u.from.first ?? 0, u.from.last ?? 0, u.to.first ?? 0, u.to.last ?? 0))
        }
        return lines.joined(separator: "\n")
    }
}

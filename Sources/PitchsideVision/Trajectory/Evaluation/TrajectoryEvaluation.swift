import Foundation

/// Scores trajectory observations against the true flights of a game: how many throws
/// were found, how far detected points lie from the true bag centre, and which long
/// observations are neither a bag nor a straight path (a shadow, a bird).
///
/// ```swift
/// let flights = [TrajectoryEvaluation.Flight(points: [12: SIMD2(100, 200), 13: SIMD2(130, 190)], bagPixels: 14)]
/// let report = TrajectoryEvaluation.evaluate(finals, flights: flights, width: 1280, height: 720) { pts in frameIndex[pts] }
/// print(report.recall, report.medianError)
/// ```
public enum TrajectoryEvaluation {
    /// One thrown bag in flight: its true centre (pixels) per frame index, and its size in pixels.
    public struct Flight: Sendable {
        public var points: [Int: SIMD2<Double>]
        public var bagPixels: Double

        public init(points: [Int: SIMD2<Double>], bagPixels: Double) {
            self.points = points
            self.bagPixels = bagPixels
        }
    }

    public struct Report: Sendable, Codable {
        public var flights = 0
        /// Flights with an observation that follows them for at least `minimumMatchedPoints` frames.
        public var found = 0
        public var recall: Double { flights == 0 ? 1 : Double(found) / Double(flights) }
        /// Distance from every point of a bag observation to the true centre in the same frame, pixels.
        public var pointErrors: [Double] = []
        public var medianError: Double { Self.quantile(pointErrors, 0.5) }
        public var p90Error: Double { Self.quantile(pointErrors, 0.9) }
        /// Observations assigned to a flight.
        public var bagObservations = 0
        /// Observations on a straight path (|ay| small): shadows, birds, other distractors.
        public var straightObservations = 0
        /// Observations with more than 10 points that are neither.
        public var otherLongObservations = 0
        /// Observations with at most 10 points that are neither.
        public var otherShortObservations = 0

        public init() {}

        public mutating func add(_ other: Report) {
            flights += other.flights
            found += other.found
            pointErrors += other.pointErrors
            bagObservations += other.bagObservations
            straightObservations += other.straightObservations
            otherLongObservations += other.otherLongObservations
            otherShortObservations += other.otherShortObservations
        }

        static func quantile(_ values: [Double], _ q: Double) -> Double {
            guard !values.isEmpty else { return .nan }
            let s = values.sorted()
            return s[min(s.count - 1, Int((Double(s.count - 1) * q).rounded()))]
        }
    }

    /// Points an observation must share with a flight (within one bag size) to count as finding it.
    public static let minimumMatchedPoints = 5

    /// Evaluates the final (most refined) observation of each trajectory; `frameOf` maps a
    /// point's `ptsUs` to the frame index the flights use.
    public static func evaluate(
        _ observations: [TrajectoryObservation], flights: [Flight], width: Int, height: Int,
        frameOf: (Int64) -> Int?
    ) -> Report {
        var report = Report()
        report.flights = flights.count
        var foundFlights = Set<Int>()
        for o in observations {
            // The flight this observation follows best: most points within one bag size.
            var best: (flight: Int, matched: Int, errors: [Double])? = nil
            for (k, flight) in flights.enumerated() {
                var errors: [Double] = []
                var matched = 0
                for p in o.detectedPoints {
                    guard let f = frameOf(p.ptsUs), let truth = flight.points[f] else { continue }
                    let dx = p.x * Double(width) - truth.x, dy = p.y * Double(height) - truth.y
                    let d = (dx * dx + dy * dy).squareRoot()
                    errors.append(d)
                    if d <= max(4, flight.bagPixels) { matched += 1 }
                }
                if matched > (best?.matched ?? 0) { best = (k, matched, errors) }
            }
            if let best, best.matched >= minimumMatchedPoints,
               best.matched * 2 >= best.errors.count {
                report.bagObservations += 1
                foundFlights.insert(best.flight)
                report.pointErrors += best.errors
            } else if abs(o.ay) * Double(height) < 60 {     // px/s²: gravity gives hundreds or more
                report.straightObservations += 1
            } else if o.detectedPoints.count > 10 {
                report.otherLongObservations += 1
            } else {
                report.otherShortObservations += 1
            }
        }
        report.found = foundFlights.count
        return report
    }
}

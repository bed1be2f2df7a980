import Foundation

/// Whether a track's points are the path of a thrown object, which of them are, and how
/// sure that is: the judgement behind an observation.
///
/// 1. The ends farther than a tenth of the object's size from one projectile's image are
///    trimmed: a bag still swinging in the thrower's hand before release, sliding or bouncing
///    after it lands. The model is the exact perspective image of a projectile
///    (`PerspectiveFit`), or quadratics in time below 10 points.
/// 2. What remains must be a physical path: at least `minimumPoints` points, moving at least two
///    object sizes at `minimumSpeed` on average, never accelerating upward (a hand swinging through
///    the bottom of its arc does), never turning back horizontally (a walking player's hand does).
/// 3. Confidence is how well the points fit (the residual of the closest nine tenths against a
///    quarter of the object's size, what a tumbling, blurred, compressed bag's centroid wanders
///    by) times how clearly the path
///    bends under gravity: a straight path (a bird, a shadow on the ground) scores near 0, but is
///    still reported so that callers can see it.
struct PathAssessment {
    /// The points on the path, as indices into the track.
    var range: Range<Int>
    /// Root-mean-square distance of the kept points from the fitted path, pixels.
    var rms: Double
    /// How far the fitted path bows above its chord at mid-time, pixels (negative: below).
    var bow: Double
    var confidence: Double

    /// Ends farther than this from the path are trimmed (pixels, for an object `size` across).
    static func trimDistance(size: Double) -> Double { max(0.75, 0.1 * size) }
    /// The fit tolerance behind the confidence.
    static func tolerance(size: Double) -> Double { max(1.0, 0.25 * size) }
    /// A bow this large (pixels) makes the curvature factor 0.6; larger bows make it near 1.
    static func bowScale(size: Double) -> Double { max(0.5, 0.1 * size) }

    /// Judges the points (t in seconds, x and y in pixels) of an object `size` pixels across in a
    /// picture `width` pixels wide; nil when they are not (or not yet) a projectile's path.
    static func assess(
        t: [Double], x: [Double], y: [Double], size: Double, width: Double, minimumPoints: Int, minimumSpeed: Double
    ) -> PathAssessment? {
        if let plain = assessEnds(t: t, x: x, y: y, size: size, width: width, minimumPoints: minimumPoints, minimumSpeed: minimumSpeed) {
            return plain
        }
        return withoutStrays(t: t, x: x, y: y, size: size, width: width, minimumPoints: minimumPoints, minimumSpeed: minimumSpeed)
            ?? latestPart(t: t, x: x, y: y, size: size, width: width, minimumPoints: minimumPoints, minimumSpeed: minimumSpeed)
    }

    /// Stray centroids in mid-flight (the bag's blob joined something it crossed) pull the fit
    /// off, and trimming the ends alone never brings them within reach of it: the path of the
    /// points left once the worst interior ones, up to a fifth, are dropped.
    private static func withoutStrays(
        t: [Double], x: [Double], y: [Double], size: Double, width: Double, minimumPoints: Int, minimumSpeed: Double
    ) -> PathAssessment? {
        let n = t.count
        guard n > minimumPoints, let (_, speed) = travel(t: t, x: x, y: y, from: 0, to: n - 1),
              speed >= minimumSpeed * width else { return nil }
        var kept = Array(0..<n)
        let stray = 3 * trimDistance(size: size)
        var r = residuals(t: t, x: x, y: y, range: 0..<n)
        for _ in 0..<(n / 5) {
            guard let worst = (1..<(kept.count - 1)).max(by: { r[$0] < r[$1] }), r[worst] > stray else { break }
            kept.remove(at: worst)
            guard kept.count >= minimumPoints else { return nil }
            let (kt, kx, ky) = (kept.map { t[$0] }, kept.map { x[$0] }, kept.map { y[$0] })
            if let a = assessEnds(t: kt, x: kx, y: ky, size: size, width: width, minimumPoints: minimumPoints, minimumSpeed: minimumSpeed) {
                return PathAssessment(range: kept[a.range.lowerBound]..<(kept[a.range.upperBound - 1] + 1), rms: a.rms, bow: a.bow,
                                      confidence: a.confidence)
            }
            r = residuals(t: kt, x: kx, y: ky, range: 0..<kept.count)
        }
        return nil
    }

    /// A long stretch before the path (the bag swinging in the thrower's hand for a second,
    /// followed by the same track through the release) can outweigh the flight in the fit, so
    /// that trimming the worse end eats into the flight instead: the longest later part of the
    /// track, starting an eighth of it later each time, that is a path.
    private static func latestPart(
        t: [Double], x: [Double], y: [Double], size: Double, width: Double, minimumPoints: Int, minimumSpeed: Double
    ) -> PathAssessment? {
        let n = t.count
        guard n >= 2 * minimumPoints else { return nil }
        let step = max(1, n / 8)
        var start = step
        while n - start >= minimumPoints {
            let part = start..<n
            if let a = assessEnds(t: Array(t[part]), x: Array(x[part]), y: Array(y[part]), size: size, width: width,
                                  minimumPoints: minimumPoints, minimumSpeed: minimumSpeed) {
                return PathAssessment(range: (a.range.lowerBound + start)..<(a.range.upperBound + start), rms: a.rms, bow: a.bow,
                                      confidence: a.confidence)
            }
            start += step
        }
        return nil
    }

    /// Straight-line distance (pixels) from point `i` to point `j` and the mean speed over it
    /// (pixels a second); nil when no time passed.
    private static func travel(t: [Double], x: [Double], y: [Double], from i: Int, to j: Int) -> (distance: Double, speed: Double)? {
        let dx = x[j] - x[i], dy = y[j] - y[i], duration = t[j] - t[i]
        guard duration > 0 else { return nil }
        let distance = (dx * dx + dy * dy).squareRoot()
        return (distance, distance / duration)
    }

    private static func assessEnds(
        t: [Double], x: [Double], y: [Double], size: Double, width: Double, minimumPoints: Int, minimumSpeed: Double
    ) -> PathAssessment? {
        var lo = 0, hi = t.count
        guard hi - lo >= minimumPoints else { return nil }
        let trim = trimDistance(size: size)
        var residuals: [Double] = []
        while true {
            residuals = Self.residuals(t: t, x: x, y: y, range: lo..<hi)
            let first = residuals[0], last = residuals[residuals.count - 1]
            if max(first, last) <= trim { break }
            if first >= last { lo += 1 } else { hi -= 1 }
            if hi - lo < minimumPoints { return nil }
        }
        let n = hi - lo
        guard let (distance, speed) = travel(t: t, x: x, y: y, from: lo, to: hi - 1),
              distance >= 2 * size, speed >= minimumSpeed * width else { return nil }

        // Quadratics in time over the kept points: the bow and the turning of x.
        let (qx, qy) = t.withUnsafeBufferPointer { tb in
            x.withUnsafeBufferPointer { xb in
                y.withUnsafeBufferPointer { yb in
                    let r = lo..<hi
                    let ts = UnsafeBufferPointer(rebasing: tb[r])
                    return (PolynomialFit.quadratic(ts, UnsafeBufferPointer(rebasing: xb[r])),
                            PolynomialFit.quadratic(ts, UnsafeBufferPointer(rebasing: yb[r])))
                }
            }
        }
        func at(_ q: (Double, Double, Double), _ s: Double) -> Double { (q.2 * s + q.1) * s + q.0 }
        let t0 = t[lo], t1 = t[hi - 1], tm = (t0 + t1) / 2
        let a = (x: at(qx, t0), y: at(qy, t0)), b = (x: at(qx, t1), y: at(qy, t1)), m = (x: at(qx, tm), y: at(qy, tm))
        // Signed distance of the mid-time point from the chord a→b, positive when it lies above
        // (smaller y): where gravity puts a thrown object's path.
        let cx = b.x - a.x, cy = b.y - a.y
        let chord = max((cx * cx + cy * cy).squareRoot(), 1e-9)
        var bow = ((m.x - a.x) * cy - (m.y - a.y) * cx) / chord
        if cx < 0 { bow = -bow }
        let significant = max(1.0, 0.1 * size)
        // Accelerating upward: a hand through the bottom of a swing, not a free flight.
        guard bow > -significant else { return nil }
        // Turning back horizontally within the track.
        if qx.2 != 0 {
            let turn = -qx.1 / (2 * qx.2)
            if turn > t0, turn < t1 {
                let xt = at(qx, turn)
                if min(abs(xt - a.x), abs(xt - b.x)) > significant { return nil }
            }
        }

        var sum = 0.0
        for r in residuals { sum += r * r }
        let rms = (sum / Double(n)).squareRoot()
        // The fit is judged on the closest nine tenths of the points: a few centroids pulled
        // aside where the bag crosses something of its own brightness do not make a flight
        // less of a flight.
        let sorted = residuals.sorted()
        let kept = max(1, Int((0.9 * Double(n)).rounded(.up)))
        var keptSum = 0.0
        for r in sorted.prefix(kept) { keptSum += r * r }
        let robust = (keptSum / Double(kept)).squareRoot()
        let tolerance = tolerance(size: size)
        // Below fit quality 0.1 the points do not follow a projectile at all.
        guard robust <= 2.15 * tolerance else { return nil }
        let fit = exp(-0.5 * (robust / tolerance) * (robust / tolerance))
        let scale = bowScale(size: size)
        let curved = 1 - exp(-0.5 * (max(bow, 0) / scale) * (max(bow, 0) / scale))
        return PathAssessment(range: lo..<hi, rms: rms, bow: bow, confidence: fit * curved)
    }

    /// Distances (pixels) of the points in `range` from the projectile fitted to them.
    static func residuals(t: [Double], x: [Double], y: [Double], range: Range<Int>) -> [Double] {
        t.withUnsafeBufferPointer { tb in
            x.withUnsafeBufferPointer { xb in
                y.withUnsafeBufferPointer { yb in
                    let ts = UnsafeBufferPointer(rebasing: tb[range])
                    let xs = UnsafeBufferPointer(rebasing: xb[range]), ys = UnsafeBufferPointer(rebasing: yb[range])
                    if let f = PerspectiveFit.fit(t: ts, x: xs, y: ys) {
                        return (0..<ts.count).map { i in
                            guard let p = f.position(at: ts[i]) else { return .infinity }
                            let dx = p.x - xs[i], dy = p.y - ys[i]
                            return (dx * dx + dy * dy).squareRoot()
                        }
                    }
                    let qx = PolynomialFit.quadratic(ts, xs), qy = PolynomialFit.quadratic(ts, ys)
                    return (0..<ts.count).map { i in
                        let s = ts[i]
                        let dx = (qx.2 * s + qx.1) * s + qx.0 - xs[i], dy = (qy.2 * s + qy.1) * s + qy.0 - ys[i]
                        return (dx * dx + dy * dy).squareRoot()
                    }
                }
            }
        }
    }
}

import Foundation

/// Carries a lost flight on to where it comes down.
///
/// The trajectory worker loses a bag against a background of its own colour, or when it
/// slows down over the board, often a few frames before it lands. The last points of the
/// path are fitted with x(t) linear and y(t) quadratic (a projectile seen from the side) and
/// followed forward in small time steps until the path comes down through the board's
/// centre line (the long axis through the hole): a bag thrown at the board lands near that
/// line, and the picture of the point where it lands is where the path crosses it. Crossing
/// the board's quadrilateral alone says nothing: a bag above the top is inside it, in the
/// picture, well before it lands.
enum FlightExtrapolation {
    /// Points from the end of the path used for the fit.
    static let fitPoints = 12
    /// Longest time followed past the last point, seconds.
    static let horizon = 1.0
    static let step = 1.0 / 480

    /// Where the carried-on path comes down through the board's centre line, extended past
    /// both ends; nil without a usable fit or when it does not come down within the horizon.
    static func landing(_ points: [TimedPoint], board: BoardGeometry) -> Vec2? {
        let tail = Array(points.suffix(fitPoints))
        guard tail.count >= 5, let fit = ProjectileFit(tail), board.longAxis != nil else { return nil }
        func below(_ p: Vec2) -> Double { belowCentreLine(p, board: board) ?? 0 }
        var t = fit.end
        var previous = fit.point(at: t)
        guard below(previous) < 0 else { return nil }  // already under the line: nothing to carry on
        while t <= fit.end + horizon {
            t += step
            let p = fit.point(at: t)
            if below(p) >= 0 {
                // Between the two samples, linearly.
                let a = below(previous), b = below(p)
                let f = a / (a - b)
                return Vec2(previous.x + (p.x - previous.x) * f, previous.y + (p.y - previous.y) * f)
            }
            previous = p
        }
        return nil
    }
}

extension FlightExtrapolation {
    /// Signed distance of `p` below the board's centre line (positive under it in the picture);
    /// nil when the board has no long axis.
    static func belowCentreLine(_ p: Vec2, board: BoardGeometry) -> Double? {
        guard let axis = board.longAxis else { return nil }
        let d = p - board.holeCenter
        let cross = axis.x * d.y - axis.y * d.x
        return axis.x >= 0 ? cross : -cross
    }
}

/// x(t) = x0 + vx·t and y(t) = y0 + vy·t + ay·t², least squares, t in seconds from the first point.
struct ProjectileFit {
    let x0, vx, y0, vy0, ay: Double
    let end: Double

    init?(_ points: [TimedPoint]) {
        guard let first = points.first, let last = points.last, last.ptsUs > first.ptsUs else { return nil }
        let t = points.map { Double($0.ptsUs - first.ptsUs) / 1e6 }
        end = t.last!
        guard let line = Self.solve(t.map { [1, $0] }, points.map(\.x)),
              let curve = Self.solve(t.map { [1, $0, $0 * $0] }, points.map(\.y)) else { return nil }
        (x0, vx) = (line[0], line[1])
        (y0, vy0, ay) = (curve[0], curve[1], curve[2])
    }

    func point(at t: Double) -> Vec2 { Vec2(x0 + vx * t, y0 + vy0 * t + ay * t * t) }

    /// Normal equations, solved by Gaussian elimination with partial pivoting.
    static func solve(_ rows: [[Double]], _ values: [Double]) -> [Double]? {
        let n = rows.first?.count ?? 0
        guard n > 0, rows.count >= n else { return nil }
        var a = Array(repeating: Array(repeating: 0.0, count: n + 1), count: n)
        for (row, v) in zip(rows, values) {
            for i in 0..<n {
                for j in 0..<n { a[i][j] += row[i] * row[j] }
                a[i][n] += row[i] * v
            }
        }
        for c in 0..<n {
            guard let p = (c..<n).max(by: { abs(a[$0][c]) < abs(a[$1][c]) }), abs(a[p][c]) > 1e-12 else { return nil }
            a.swapAt(c, p)
            for r in 0..<n where r != c {
                let f = a[r][c] / a[c][c]
                for k in c...n { a[r][k] -= f * a[c][k] }
            }
        }
        return (0..<n).map { a[$0][n] / a[$0][$0] }
    }
}

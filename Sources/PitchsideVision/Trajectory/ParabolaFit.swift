/// Least-squares polynomial fits of degree 1 and 2, centred on the mean abscissa
/// for conditioning and returned in the original variable.
enum PolynomialFit {
    /// Coefficients (c0, c1, c2) of y = c0 + c1·u + c2·u² minimizing the squared error.
    /// With fewer than three distinct abscissae the fit degrades to a line or a constant.
    static func quadratic(_ u: UnsafeBufferPointer<Double>, _ v: UnsafeBufferPointer<Double>) -> (Double, Double, Double) {
        let n = Double(u.count)
        guard u.count > 0 else { return (0, 0, 0) }
        var mean = 0.0
        for x in u { mean += x }
        mean /= n
        var s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0, t0 = 0.0, t1 = 0.0, t2 = 0.0
        for i in 0..<u.count {
            let x = u[i] - mean, y = v[i], x2 = x * x
            s1 += x; s2 += x2; s3 += x2 * x; s4 += x2 * x2
            t0 += y; t1 += x * y; t2 += x2 * y
        }
        // Normal equations [n s1 s2; s1 s2 s3; s2 s3 s4] · (k0 k1 k2) = (t0 t1 t2), by Cramer's rule.
        let det = n * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
        let scale = max(n * s2 * s4, 1e-300)
        let k0: Double, k1: Double, k2: Double
        if u.count >= 3, abs(det) > 1e-12 * scale {
            k0 = (t0 * (s2 * s4 - s3 * s3) - s1 * (t1 * s4 - s3 * t2) + s2 * (t1 * s3 - s2 * t2)) / det
            k1 = (n * (t1 * s4 - s3 * t2) - t0 * (s1 * s4 - s3 * s2) + s2 * (s1 * t2 - t1 * s2)) / det
            k2 = (n * (s2 * t2 - s3 * t1) - s1 * (s1 * t2 - t1 * s2) + t0 * (s1 * s3 - s2 * s2)) / det
        } else {
            let line = linear(centredAt: mean, u, v)
            return (line.0, line.1, 0)
        }
        // Back from x − mean to x.
        let c2 = k2
        let c1 = k1 - 2 * k2 * mean
        let c0 = k0 - k1 * mean + k2 * mean * mean
        return (c0, c1, c2)
    }

    /// Coefficients (c0, c1) of y = c0 + c1·u.
    static func linear(_ u: UnsafeBufferPointer<Double>, _ v: UnsafeBufferPointer<Double>) -> (Double, Double) {
        guard u.count > 0 else { return (0, 0) }
        var mean = 0.0
        for x in u { mean += x }
        return linear(centredAt: mean / Double(u.count), u, v)
    }

    private static func linear(centredAt mean: Double, _ u: UnsafeBufferPointer<Double>, _ v: UnsafeBufferPointer<Double>) -> (Double, Double) {
        var sxx = 0.0, sxy = 0.0, sy = 0.0
        for i in 0..<u.count {
            let x = u[i] - mean
            sxx += x * x
            sxy += x * v[i]
            sy += v[i]
        }
        let my = sy / Double(u.count)
        guard sxx > 1e-18 else { return (my, 0) }
        let slope = sxy / sxx
        return (my - slope * mean, slope)
    }
}

/// A projectile fit of a track in pixels: x(t) linear, y(t) quadratic, t in seconds
/// since the track's first point; the model of a bag in flight (no drag).
struct ProjectileFit {
    var x0 = 0.0, vx = 0.0
    var y0 = 0.0, vy = 0.0, ay = 0.0
    /// Root-mean-square distance of the points from the fit, pixels.
    var rms = 0.0

    func position(at t: Double) -> (x: Double, y: Double) {
        (x0 + vx * t, y0 + vy * t + 0.5 * ay * t * t)
    }

    static func fit(t: UnsafeBufferPointer<Double>, x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>) -> ProjectileFit {
        var f = ProjectileFit()
        let lx = PolynomialFit.linear(t, x)
        let qy = PolynomialFit.quadratic(t, y)
        f.x0 = lx.0; f.vx = lx.1
        f.y0 = qy.0; f.vy = qy.1; f.ay = 2 * qy.2
        var sum = 0.0
        for i in 0..<t.count {
            let p = f.position(at: t[i])
            let dx = p.x - x[i], dy = p.y - y[i]
            sum += dx * dx + dy * dy
        }
        f.rms = t.count > 0 ? (sum / Double(t.count)).squareRoot() : 0
        return f
    }
}

/// The exact image of a projectile seen by a pinhole camera: the bag's world position is
/// quadratic in time, so its picture is a ratio of quadratics with a common denominator (the
/// depth, also quadratic in time):
///
///     x(t) = (p0 + p1·s + p2·s²) / (1 + q1·s + q2·s²),   y(t) = (r0 + r1·s + r2·s²) / (1 + q1·s + q2·s²)
///
/// with s = (t − centre) / halfSpan. Quadratics in t for x and y (the denominator 1) are only
/// its approximation: seen from an elevated camera 9–15 m away, the true centres of synthetic
/// flights lie 0.1–0.2 bag sizes from their best quadratics, but within 0.001 of this model.
/// Fitted by linear least squares on x·den − num (then reweighted by 1 / den², which makes the
/// error geometric); nil when the points are too few, or the fit needs a depth that changes by
/// more than a factor of three across them (not a camera looking at one throw).
struct PerspectiveFit {
    var p = (0.0, 0.0, 0.0), r = (0.0, 0.0, 0.0), q = (0.0, 0.0)
    var centre = 0.0, halfSpan = 1.0
    var originX = 0.0, originY = 0.0, unit = 1.0
    /// Root-mean-square distance of the points from the fit, pixels.
    var rms = 0.0

    /// Points below this are fitted by nothing better than quadratics.
    static let minimumPoints = 10

    func position(at t: Double) -> (x: Double, y: Double)? {
        let s = (t - centre) / halfSpan
        let den = 1 + q.0 * s + q.1 * s * s
        guard den > 0.2 else { return nil }
        return (originX + unit * (p.0 + p.1 * s + p.2 * s * s) / den, originY + unit * (r.0 + r.1 * s + r.2 * s * s) / den)
    }

    static func fit(t: UnsafeBufferPointer<Double>, x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>) -> PerspectiveFit? {
        let n = t.count
        guard n >= minimumPoints, let first = t.first, let last = t.last, last > first else { return nil }
        var f = PerspectiveFit()
        f.centre = (first + last) / 2
        f.halfSpan = (last - first) / 2
        var mx = 0.0, my = 0.0
        for i in 0..<n { mx += x[i]; my += y[i] }
        f.originX = mx / Double(n)
        f.originY = my / Double(n)
        var extent = 1.0
        for i in 0..<n { extent = max(extent, abs(x[i] - f.originX), abs(y[i] - f.originY)) }
        f.unit = extent
        var weights = [Double](repeating: 1, count: n)
        var m = [Double](repeating: 0, count: 8 * 9)
        for _ in 0..<2 {
            // Normal equations of the 8 unknowns (p0 p1 p2 r0 r1 r2 q1 q2), two rows per point:
            // [1 s s² 0 0 0 −s·u −s²·u | u] and [0 0 0 1 s s² −s·v −s²·v | v].
            for k in m.indices { m[k] = 0 }
            for i in 0..<n {
                let s = (t[i] - f.centre) / f.halfSpan
                let u = (x[i] - f.originX) / f.unit, v = (y[i] - f.originY) / f.unit
                let w = weights[i]
                let b = SIMD3<Double>(1, s, s * s)
                for a in 0..<3 {
                    for c in 0..<3 {
                        m[a * 9 + c] += w * b[a] * b[c]
                        m[(a + 3) * 9 + c + 3] += w * b[a] * b[c]
                    }
                    for c in 0..<2 {
                        m[a * 9 + 6 + c] -= w * b[a] * b[c + 1] * u
                        m[(a + 3) * 9 + 6 + c] -= w * b[a] * b[c + 1] * v
                    }
                    m[a * 9 + 8] += w * b[a] * u
                    m[(a + 3) * 9 + 8] += w * b[a] * v
                }
                let uv2 = u * u + v * v
                for a in 0..<2 {
                    for c in 0..<3 {
                        m[(6 + a) * 9 + c] -= w * b[a + 1] * b[c] * u
                        m[(6 + a) * 9 + 3 + c] -= w * b[a + 1] * b[c] * v
                    }
                    for c in 0..<2 { m[(6 + a) * 9 + 6 + c] += w * b[a + 1] * b[c + 1] * uv2 }
                    m[(6 + a) * 9 + 8] -= w * b[a + 1] * uv2
                }
            }
            guard let k = solve8(&m) else { return nil }
            f.p = (k[0], k[1], k[2])
            f.r = (k[3], k[4], k[5])
            f.q = (k[6], k[7])
            for i in 0..<n {
                let s = (t[i] - f.centre) / f.halfSpan
                let den = 1 + f.q.0 * s + f.q.1 * s * s
                guard den > 1.0 / 3, den < 3 else { return nil }
                weights[i] = 1 / (den * den)
            }
        }
        var sum = 0.0
        for i in 0..<n {
            guard let pos = f.position(at: t[i]) else { return nil }
            let dx = pos.x - x[i], dy = pos.y - y[i]
            sum += dx * dx + dy * dy
        }
        f.rms = (sum / Double(n)).squareRoot()
        return f
    }

    /// Solves the 8 × 8 system held as an augmented 8 × 9 row-major matrix (Gaussian elimination,
    /// partial pivoting); nil when it is singular.
    private static func solve8(_ m: inout [Double]) -> [Double]? {
        let n = 8, w = 9
        var scale = 0.0
        for a in 0..<n { scale = max(scale, abs(m[a * w + a])) }
        guard scale > 0 else { return nil }
        for col in 0..<n {
            var pivot = col
            for row in col + 1..<n where abs(m[row * w + col]) > abs(m[pivot * w + col]) { pivot = row }
            guard abs(m[pivot * w + col]) > 1e-12 * scale else { return nil }
            if pivot != col { for b in 0..<w { m.swapAt(col * w + b, pivot * w + b) } }
            let d = m[col * w + col]
            for row in col + 1..<n {
                let factor = m[row * w + col] / d
                guard factor != 0 else { continue }
                for b in col..<w { m[row * w + b] -= factor * m[col * w + b] }
            }
        }
        var k = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var s = m[row * w + 8]
            for b in row + 1..<n { s -= m[row * w + b] * k[b] }
            k[row] = s / m[row * w + row]
        }
        return k
    }
}

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

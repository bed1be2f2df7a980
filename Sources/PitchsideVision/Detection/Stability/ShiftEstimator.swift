/// Translational registration of two gray pyramids by a coarse-to-fine search.
///
/// An exhaustive search of the mean absolute difference on the coarsest level, ±1 pixel
/// refinements on the finer ones (±2: a half-pixel rounding at one level
/// can become more than a pixel at the next), and a parabola through the sum of squared differences around
/// the finest minimum for the sub-pixel part. Returns how far the content moved from `previous`
/// to `current`, in source pixels.
enum ShiftEstimator {
    /// Coarsest-level search radius, pixels of that level.
    static let coarseRadius = 6

    static func shift(from previous: GrayPyramid, to current: GrayPyramid) -> (tx: Double, ty: Double) {
        let n = min(previous.levels.count, current.levels.count)
        var dx = 0, dy = 0
        for level in stride(from: n - 1, through: 0, by: -1) {
            let a = previous.levels[level], b = current.levels[level]
            let radius = level == n - 1 ? coarseRadius : 2
            let margin = level == n - 1 ? coarseRadius + 1 : abs(dx) + abs(dy) + 3
            var best = (dx, dy), bestCost = UInt64.max
            for sy in (dy - radius)...(dy + radius) {
                for sx in (dx - radius)...(dx + radius) {
                    let c = cost(a, b, sx, sy, margin: max(margin, abs(sx) + 1, abs(sy) + 1), squared: false)
                    if c < bestCost { bestCost = c; best = (sx, sy) }
                }
            }
            dx = best.0
            dy = best.1
            if level > 0 { dx *= 2; dy *= 2 }
        }
        // Sub-pixel: a quadratic surface through the 3 × 3 squared-difference costs around the
        // integer minimum (a full 2-D fit: oriented texture makes the valley diagonal, and
        // separate 1-D parabolas would then be biased).
        let f = previous.levels[0], g = current.levels[0]
        let m = abs(dx) + abs(dy) + 4
        var c = [[Double]](repeating: [0, 0, 0], count: 3)
        for j in -1...1 { for i in -1...1 { c[j + 1][i + 1] = Double(cost(f, g, dx + i, dy + j, margin: m, squared: true)) } }
        var gx = 0.0, gy = 0.0, hxx = 0.0, hyy = 0.0
        for k in 0..<3 {
            gx += c[k][2] - c[k][0]
            gy += c[2][k] - c[0][k]
            hxx += c[k][2] + c[k][0] - 2 * c[k][1]
            hyy += c[2][k] + c[0][k] - 2 * c[1][k]
        }
        gx /= 6; gy /= 6; hxx /= 3; hyy /= 3
        let hxy = (c[2][2] - c[0][2] - c[2][0] + c[0][0]) / 4
        let det = hxx * hyy - hxy * hxy
        var ox = 0.0, oy = 0.0
        if det > 0, hxx > 0 {
            ox = (-gx * hyy + gy * hxy) / det
            oy = (-gy * hxx + gx * hxy) / det
        } else {
            if hxx > 0 { ox = -gx / hxx }
            if hyy > 0 { oy = -gy / hyy }
        }
        ox = max(-0.75, min(0.75, ox))
        oy = max(-0.75, min(0.75, oy))
        let k = Double(previous.factor)
        return ((Double(dx) + ox) * k, (Double(dy) + oy) * k)
    }

    /// Sum of |a(x, y) − b(x + sx, y + sy)| (or its square) over the interior that stays
    /// `margin` pixels clear of both images' edges.
    private static func cost(_ a: GrayPyramid.Level, _ b: GrayPyramid.Level, _ sx: Int, _ sy: Int, margin: Int, squared: Bool) -> UInt64 {
        let w = a.width, h = a.height
        guard w - 2 * margin > 0, h - 2 * margin > 0 else { return UInt64.max }
        var total: UInt64 = 0
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                for y in margin..<(h - margin) {
                    let ra = y * w, rb = (y + sy) * w + sx
                    var row: UInt32 = 0
                    if squared {
                        var r64: UInt64 = 0
                        for x in margin..<(w - margin) {
                            let d = Int32(pa[ra + x]) - Int32(pb[rb + x])
                            r64 &+= UInt64(d * d)
                        }
                        total &+= r64
                    } else {
                        for x in margin..<(w - margin) {
                            let d = Int16(pa[ra + x]) - Int16(pb[rb + x])
                            row &+= UInt32(d < 0 ? -d : d)
                        }
                        total &+= UInt64(row)
                    }
                }
            }
        }
        return total
    }
}

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
        // Sub-pixel: parabolas through the squared-difference costs around the integer minimum.
        let f = previous.levels[0], g = current.levels[0]
        let m = abs(dx) + abs(dy) + 4
        let c0 = Double(cost(f, g, dx, dy, margin: m, squared: true))
        let cxm = Double(cost(f, g, dx - 1, dy, margin: m, squared: true)), cxp = Double(cost(f, g, dx + 1, dy, margin: m, squared: true))
        let cym = Double(cost(f, g, dx, dy - 1, margin: m, squared: true)), cyp = Double(cost(f, g, dx, dy + 1, margin: m, squared: true))
        func vertex(_ m: Double, _ z: Double, _ p: Double) -> Double {
            let den = m - 2 * z + p
            return den > 0 ? max(-0.5, min(0.5, 0.5 * (m - p) / den)) : 0
        }
        let k = Double(previous.factor)
        return ((Double(dx) + vertex(cxm, c0, cxp)) * k, (Double(dy) + vertex(cym, c0, cyp)) * k)
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

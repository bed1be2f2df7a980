/// Translational registration of two gray pyramids by a coarse-to-fine search.
///
/// An exhaustive search of the mean absolute difference on the coarsest level, ±1 pixel
/// refinements on the finer ones (±2: a half-pixel rounding at one level
/// can become more than a pixel at the next), and quadratic fits to the sum of squared differences
/// around the finest minimum, tile by tile, for the sub-pixel part. Returns how far the content
/// moved from `previous` to `current`, in source pixels.
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
                    let c = absoluteCost(a, b, sx, sy, margin: max(margin, abs(sx) + 1, abs(sy) + 1))
                    if c < bestCost { bestCost = c; best = (sx, sy) }
                }
            }
            dx = best.0
            dy = best.1
            if level > 0 { dx *= 2; dy *= 2 }
        }
        // Sub-pixel: a quadratic surface through the 3 × 3 squared-difference costs around the
        // integer minimum (a full 2-D fit: oriented texture makes the valley diagonal, and
        // separate 1-D parabolas would then be biased), fitted per tile of the finest level.
        // The answer is the median over the tiles with texture, weighted by their curvature, so
        // a player walking across part of the picture moves a few tiles' estimates and not the
        // camera's.
        let f = previous.levels[0], g = current.levels[0]
        let m = abs(dx) + abs(dy) + 4
        let k = Double(previous.factor)
        guard f.width - 2 * m >= tileColumns, f.height - 2 * m >= tileRows else { return (Double(dx) * k, Double(dy) * k) }
        var total = [[Double]](repeating: [0, 0, 0], count: 3)
        var xs: [(value: Double, weight: Double)] = [], ys: [(value: Double, weight: Double)] = []
        for row in 0..<tileRows {
            for column in 0..<tileColumns {
                let rect = (x0: m + (f.width - 2 * m) * column / tileColumns, x1: m + (f.width - 2 * m) * (column + 1) / tileColumns,
                            y0: m + (f.height - 2 * m) * row / tileRows, y1: m + (f.height - 2 * m) * (row + 1) / tileRows)
                var c = [[Double]](repeating: [0, 0, 0], count: 3)
                for j in -1...1 {
                    for i in -1...1 {
                        c[j + 1][i + 1] = Double(squaredCost(f, g, dx + i, dy + j, rect))
                        total[j + 1][i + 1] += c[j + 1][i + 1]
                    }
                }
                let pixels = Double((rect.x1 - rect.x0) * (rect.y1 - rect.y0))
                guard let fit = quadraticMinimum(c), fit.hxx >= minimumCurvature * pixels || fit.hyy >= minimumCurvature * pixels else { continue }
                if fit.hxx >= minimumCurvature * pixels { xs.append((fit.ox, fit.hxx)) }
                if fit.hyy >= minimumCurvature * pixels { ys.append((fit.oy, fit.hyy)) }
            }
        }
        let whole = quadraticMinimum(total)
        let ox = weightedMedian(xs) ?? whole?.ox ?? 0
        let oy = weightedMedian(ys) ?? whole?.oy ?? 0
        return ((Double(dx) + ox) * k, (Double(dy) + oy) * k)
    }

    /// Tiles of the finest level for the sub-pixel step.
    static let tileColumns = 4
    static let tileRows = 3
    /// Curvature of a tile's cost surface, per pixel, below which it has too little texture to say.
    static let minimumCurvature = 0.5

    /// The minimum of the quadratic through a 3 × 3 cost grid (rows: y − 1…y + 1), clamped to
    /// ±0.75 pixel, with the curvatures along x and y; nil when the surface is not a valley.
    static func quadraticMinimum(_ c: [[Double]]) -> (ox: Double, oy: Double, hxx: Double, hyy: Double)? {
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
            guard hxx > 0 || hyy > 0 else { return nil }
            if hxx > 0 { ox = -gx / hxx }
            if hyy > 0 { oy = -gy / hyy }
        }
        return (max(-0.75, min(0.75, ox)), max(-0.75, min(0.75, oy)), max(0, hxx), max(0, hyy))
    }

    static func weightedMedian(_ v: [(value: Double, weight: Double)]) -> Double? {
        guard !v.isEmpty else { return nil }
        let sorted = v.sorted { $0.value < $1.value }
        let half = sorted.reduce(0) { $0 + $1.weight } / 2
        var run = 0.0
        for e in sorted {
            run += e.weight
            if run >= half { return e.value }
        }
        return sorted.last?.value
    }

    /// Sum of (a(x, y) − b(x + sx, y + sy))² over `rect` of `a`.
    private static func squaredCost(_ a: GrayPyramid.Level, _ b: GrayPyramid.Level, _ sx: Int, _ sy: Int,
                                    _ rect: (x0: Int, x1: Int, y0: Int, y1: Int)) -> UInt64 {
        let w = a.width
        var total: UInt64 = 0
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                for y in rect.y0..<rect.y1 {
                    let ra = y * w, rb = (y + sy) * w + sx
                    var r64: UInt64 = 0
                    for x in rect.x0..<rect.x1 {
                        let d = Int32(pa[ra + x]) - Int32(pb[rb + x])
                        r64 &+= UInt64(d * d)
                    }
                    total &+= r64
                }
            }
        }
        return total
    }

    /// Sum of |a(x, y) − b(x + sx, y + sy)| over the interior that stays `margin` pixels clear of
    /// both images' edges.
    private static func absoluteCost(_ a: GrayPyramid.Level, _ b: GrayPyramid.Level, _ sx: Int, _ sy: Int, margin: Int) -> UInt64 {
        let w = a.width, h = a.height
        guard w - 2 * margin > 0, h - 2 * margin > 0 else { return UInt64.max }
        var total: UInt64 = 0
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                for y in margin..<(h - margin) {
                    let ra = y * w, rb = (y + sy) * w + sx
                    var row: UInt32 = 0
                    for x in margin..<(w - margin) {
                        let d = Int16(pa[ra + x]) - Int16(pb[rb + x])
                        row &+= UInt32(d < 0 ? -d : d)
                    }
                    total &+= UInt64(row)
                }
            }
        }
        return total
    }
}

/// Translational registration of two gray pyramids by a coarse-to-fine search.
///
/// Each level is cut into 4 × 3 tiles; each tile finds the whole-pixel shift with the least
/// absolute difference (±6 pixels on the coarsest level, ±2 on the finer ones: a half-pixel
/// rounding at one level can become more than a pixel at the next), and the level's answer is
/// the shift most tiles chose. On the finest level, quadratic fits to each agreeing tile's squared
/// differences give the fractions, and their median the sub-pixel answer. Returns how far the
/// content moved from `previous` to `current`, in source pixels.
enum ShiftEstimator {
    /// Coarsest-level search radius, pixels of that level.
    static let coarseRadius = 6

    static func shift(from previous: GrayPyramid, to current: GrayPyramid) -> (tx: Double, ty: Double) {
        let n = min(previous.levels.count, current.levels.count)
        // Coarse to fine, each level's whole-pixel shift voted by tiles: a player walking across
        // part of the picture carries the tiles he covers, not the picture.
        var dx = 0, dy = 0
        var finest: [(x: Int, y: Int, rect: Rect)] = []
        for level in stride(from: n - 1, through: 0, by: -1) {
            let a = previous.levels[level], b = current.levels[level]
            let radius = level == n - 1 ? coarseRadius : 2
            let votes = tileMinima(a, b, around: (dx, dy), radius: radius)
            guard let winner = mostVoted(votes.map { ($0.x, $0.y) }) else { break }
            dx = winner.0
            dy = winner.1
            if level > 0 {
                dx *= 2
                dy *= 2
            } else {
                finest = votes
            }
        }
        // The fraction, per tile that agrees with the whole-pixel answer: a quadratic surface
        // through the 3 × 3 squared-difference costs around its minimum (a full 2-D fit:
        // oriented texture makes the valley diagonal, and separate 1-D parabolas would then be
        // biased); the median over the tiles with texture.
        let f = previous.levels[0], g = current.levels[0]
        let k = Double(previous.factor)
        var xs: [Double] = [], ys: [Double] = []
        for vote in finest where abs(vote.x - dx) <= 1 && abs(vote.y - dy) <= 1 {
            var c = [[Double]](repeating: [0, 0, 0], count: 3)
            for j in -1...1 {
                for i in -1...1 { c[j + 1][i + 1] = Double(cost(f, g, vote.x + i, vote.y + j, vote.rect, squared: true)) }
            }
            let pixels = Double((vote.rect.x1 - vote.rect.x0) * (vote.rect.y1 - vote.rect.y0))
            guard let fit = quadraticMinimum(c) else { continue }
            if fit.hxx >= minimumCurvature * pixels { xs.append(Double(vote.x) + fit.ox) }
            if fit.hyy >= minimumCurvature * pixels { ys.append(Double(vote.y) + fit.oy) }
        }
        return ((median(xs) ?? Double(dx)) * k, (median(ys) ?? Double(dy)) * k)
    }

    typealias Rect = (x0: Int, x1: Int, y0: Int, y1: Int)

    /// For each tile of the level, the whole-pixel shift within `radius` of `around` with the
    /// least absolute difference (the tiles cover the interior that every shift keeps inside
    /// both pictures, with a pixel to spare for the sub-pixel step).
    private static func tileMinima(_ a: GrayPyramid.Level, _ b: GrayPyramid.Level, around: (Int, Int), radius: Int)
        -> [(x: Int, y: Int, rect: Rect)] {
        let m = max(abs(around.0), abs(around.1)) + radius + 2
        guard a.width - 2 * m >= 4 * tileColumns, a.height - 2 * m >= 4 * tileRows else { return [] }
        var out: [(x: Int, y: Int, rect: Rect)] = []
        for row in 0..<tileRows {
            for column in 0..<tileColumns {
                let rect = (x0: m + (a.width - 2 * m) * column / tileColumns, x1: m + (a.width - 2 * m) * (column + 1) / tileColumns,
                            y0: m + (a.height - 2 * m) * row / tileRows, y1: m + (a.height - 2 * m) * (row + 1) / tileRows)
                var best = around, bestCost = UInt64.max
                for sy in (around.1 - radius)...(around.1 + radius) {
                    for sx in (around.0 - radius)...(around.0 + radius) {
                        let c = cost(a, b, sx, sy, rect, squared: false)
                        if c < bestCost { bestCost = c; best = (sx, sy) }
                    }
                }
                out.append((best.0, best.1, rect))
            }
        }
        return out
    }

    /// The shift most tiles chose; a tie goes to the one with more votes next to it, then to
    /// the smaller.
    static func mostVoted(_ votes: [(Int, Int)]) -> (Int, Int)? {
        var counts: [Int: Int] = [:]
        func key(_ v: (Int, Int)) -> Int { (v.0 + 1024) * 4096 + (v.1 + 1024) }
        for v in votes { counts[key(v), default: 0] += 1 }
        func score(_ v: (Int, Int)) -> (Int, Int, Int) {
            var near = 0
            for j in -1...1 { for i in -1...1 where i != 0 || j != 0 { near += counts[key((v.0 + i, v.1 + j))] ?? 0 } }
            return (counts[key(v)] ?? 0, near, -(abs(v.0) + abs(v.1)))
        }
        return votes.max { score($0) < score($1) }
    }

    static func median(_ v: [Double]) -> Double? {
        guard !v.isEmpty else { return nil }
        let s = v.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
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

    /// Sum of |a(x, y) − b(x + sx, y + sy)| (or its square) over `rect` of `a`.
    private static func cost(_ a: GrayPyramid.Level, _ b: GrayPyramid.Level, _ sx: Int, _ sy: Int,
                             _ rect: (x0: Int, x1: Int, y0: Int, y1: Int), squared: Bool) -> UInt64 {
        let w = a.width
        var total: UInt64 = 0
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                for y in rect.y0..<rect.y1 {
                    let ra = y * w, rb = (y + sy) * w + sx
                    if squared {
                        var r64: UInt64 = 0
                        for x in rect.x0..<rect.x1 {
                            let d = Int32(pa[ra + x]) - Int32(pb[rb + x])
                            r64 &+= UInt64(d * d)
                        }
                        total &+= r64
                    } else {
                        var row: UInt32 = 0
                        for x in rect.x0..<rect.x1 {
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

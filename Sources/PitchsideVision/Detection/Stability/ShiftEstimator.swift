/// Translational registration of two gray pyramids by a coarse-to-fine search.
///
/// Each level is cut into 4 × 3 tiles; each tile finds the whole-pixel shift with the least
/// absolute difference after the two patches' mean brightness is evened out (a key frame of a
/// compressed video, or a change of exposure, brightens flat areas a little; on a sky's
/// gradient that would look like a shift) (±6 pixels on the coarsest level, ±2 on the finer ones: a half-pixel
/// rounding at one level can become more than a pixel at the next), and the level's answer is,
/// along each axis, the shift most tiles chose (on the coarsest level, among those whose choice
/// along that axis is distinct: `TileVote`). On the finest level, quadratic fits to each agreeing tile's squared
/// differences give the fractions, and their median the sub-pixel answer. Returns how far the
/// content moved from `previous` to `current`, in source pixels.
enum ShiftEstimator {
    /// Coarsest-level search radius, pixels of that level.
    static let coarseRadius = 6

    /// Radius of the first, cheap search on the coarsest level around the expected shift.
    static let predictedRadius = 2

    /// `expected`: the shift the caller expects (the previous frame's), in source pixels. The
    /// coarsest level looks ±2 pixels around it first, and searches the full ±6 only when the
    /// tiles there do not agree on a shift inside that window (a still or steadily moving
    /// camera needs 25 positions instead of 169).
    static func shift(from previous: GrayPyramid, to current: GrayPyramid,
                      expected: (tx: Double, ty: Double) = (0, 0)) -> (tx: Double, ty: Double) {
        let n = min(previous.levels.count, current.levels.count)
        // Coarse to fine, each level's whole-pixel shift voted by tiles: a player walking across
        // part of the picture carries the tiles he covers, not the picture.
        var dx = 0, dy = 0
        var finest: [TileVote] = []
        for level in stride(from: n - 1, through: 0, by: -1) {
            let a = previous.levels[level], b = current.levels[level]
            var votes: [TileVote]
            var around = (dx, dy)
            if level == n - 1 {
                let scale = Double(previous.factor << level)
                around = (Int((expected.tx / scale).rounded()), Int((expected.ty / scale).rounded()))
                votes = tileMinima(a, b, around: around, radius: predictedRadius, judgingDistinctness: true)
                if !settlesInside(votes, around: around, radius: predictedRadius) {
                    around = (0, 0)
                    votes = tileMinima(a, b, around: around, radius: coarseRadius, judgingDistinctness: true)
                }
            } else {
                votes = tileMinima(a, b, around: around, radius: 2, judgingDistinctness: false)
            }
            guard !votes.isEmpty else { break }
            // On the coarsest level only tiles that can tell along an axis vote on it (an axis
            // none can tell keeps the shift it was searched around); the finer levels only
            // refine that answer by a pixel or two, and there every tile votes (`tileMinima`
            // does not judge them): fresh noise hides smooth texture at full detail, and a
            // textured walker's tiles would stand out.
            dx = mostVoted(votes.filter(\.distinctX).map(\.x)) ?? around.0
            dy = mostVoted(votes.filter(\.distinctY).map(\.y)) ?? around.1
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

    /// One tile's least-cost shift, and along which axes that choice is distinct.
    ///
    /// A tile without texture along an axis (flat sky or ground; a horizon, flat along x)
    /// costs about the same at every shift along it, and its minimum lies where the noise puts
    /// it. Between the predicted frames of a compressed video that noise is frozen and still
    /// points home, but on a key frame it is drawn anew, and the textureless tiles of a plain
    /// scene voted together for a shift of tens of pixels (dev game 1013: a camera "move" at
    /// every key frame). Such a tile does not vote along that axis on the coarsest level.
    struct TileVote {
        var x: Int, y: Int
        var rect: Rect
        var distinctX: Bool, distinctY: Bool
    }

    /// Largest ratio of a tile's least cost to the median cost two or more pixels away along an
    /// axis (through the minimum) for its choice along that axis to count: on dev game 1013's
    /// key frames, textured tiles lie at 0.1–0.35, a flat sky at 0.5–0.95.
    static let maximumDistinctCostRatio = 0.75

    /// Least rise of that median cost over the least, in gray levels per pixel of the tile: a
    /// flat sky's ratio can look distinct while the whole valley is a fraction of a gray level
    /// deep (0.06 on dev game 1013's key frames; textured tiles rise 0.8 or more).
    static let minimumDistinctContrast = 0.25

    /// Whether the tiles agree, along each axis they can tell, on a shift strictly inside the
    /// window searched (more than half of them); with no tile able to tell, they do not.
    private static func settlesInside(_ votes: [TileVote], around: (Int, Int), radius: Int) -> Bool {
        func inside(_ values: [Int], _ centre: Int) -> Bool {
            guard let w = mostVoted(values) else { return true }
            return abs(w - centre) < radius && values.filter { $0 == w }.count * 2 > values.count
        }
        let xs = votes.filter(\.distinctX).map(\.x), ys = votes.filter(\.distinctY).map(\.y)
        guard !xs.isEmpty || !ys.isEmpty else { return false }
        return inside(xs, around.0) && inside(ys, around.1)
    }

    /// For each tile of the level, the whole-pixel shift within `radius` of `around` with the
    /// least absolute difference (the tiles cover the interior that every shift keeps inside
    /// both pictures, with a pixel to spare for the sub-pixel step). Without
    /// `judgingDistinctness` every choice counts as distinct.
    private static func tileMinima(_ a: GrayPyramid.Level, _ b: GrayPyramid.Level, around: (Int, Int), radius: Int,
                                   judgingDistinctness: Bool) -> [TileVote] {
        let m = max(abs(around.0), abs(around.1)) + radius + 2
        guard a.width - 2 * m >= 4 * tileColumns, a.height - 2 * m >= 4 * tileRows else { return [] }
        let side = 2 * radius + 1
        var costs = [UInt64](repeating: 0, count: side * side)
        var out: [TileVote] = []
        for row in 0..<tileRows {
            for column in 0..<tileColumns {
                let rect = (x0: m + (a.width - 2 * m) * column / tileColumns, x1: m + (a.width - 2 * m) * (column + 1) / tileColumns,
                            y0: m + (a.height - 2 * m) * row / tileRows, y1: m + (a.height - 2 * m) * (row + 1) / tileRows)
                var best = around, bestCost = UInt64.max
                for sy in (around.1 - radius)...(around.1 + radius) {
                    for sx in (around.0 - radius)...(around.0 + radius) {
                        let c = cost(a, b, sx, sy, rect, squared: false)
                        costs[(sy - around.1 + radius) * side + sx - around.0 + radius] = c
                        if c < bestCost { bestCost = c; best = (sx, sy) }
                    }
                }
                // Along each axis through the minimum, the median cost two or more pixels from
                // it: a true shift halfway between two whole pixels costs about the same at both,
                // so the next-door cost says nothing about texture.
                let bx = best.0 - around.0 + radius, by = best.1 - around.1 + radius
                let pixels = Double((rect.x1 - rect.x0) * (rect.y1 - rect.y0))
                func distinct(_ index: Int, _ cost: (Int) -> UInt64) -> Bool {
                    guard judgingDistinctness else { return true }
                    let far = (0..<side).filter { abs($0 - index) >= 2 }.map { Double(cost($0)) }
                    guard let reference = median(far) else { return false }
                    return Double(bestCost) <= maximumDistinctCostRatio * reference
                        && reference - Double(bestCost) >= minimumDistinctContrast * pixels
                }
                out.append(TileVote(x: best.0, y: best.1, rect: rect,
                                    distinctX: distinct(bx) { costs[by * side + $0] },
                                    distinctY: distinct(by) { costs[$0 * side + bx] }))
            }
        }
        return out
    }

    /// The shift along one axis most tiles chose; a tie goes to the one with more votes next
    /// to it, then to the smaller.
    static func mostVoted(_ votes: [Int]) -> Int? {
        var counts: [Int: Int] = [:]
        for v in votes { counts[v, default: 0] += 1 }
        func score(_ v: Int) -> (Int, Int, Int) {
            ((counts[v] ?? 0), (counts[v - 1] ?? 0) + (counts[v + 1] ?? 0), -abs(v))
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
    /// Largest fraction a quadratic fit gives (its result is clamped there).
    static let fractionClamp = 0.75
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
        return (max(-fractionClamp, min(fractionClamp, ox)), max(-fractionClamp, min(fractionClamp, oy)), max(0, hxx), max(0, hyy))
    }

    /// Sum of |a(x, y) − b(x + sx, y + sy) − d| (or its square) over `rect` of `a`, where d is
    /// the difference of the two patches' means (rounded).
    ///
    /// Plain loops over raw pointers with 32-bit arithmetic, which LLVM turns into vector code.
    private static func cost(_ a: GrayPyramid.Level, _ b: GrayPyramid.Level, _ sx: Int, _ sy: Int,
                             _ rect: (x0: Int, x1: Int, y0: Int, y1: Int), squared: Bool) -> UInt64 {
        let w = a.width, n = rect.x1 - rect.x0
        let count = n * (rect.y1 - rect.y0)
        guard count > 0 else { return 0 }
        let sumA = a.sum(x0: rect.x0, x1: rect.x1, y0: rect.y0, y1: rect.y1)
        let sumB = b.sum(x0: rect.x0 + sx, x1: rect.x1 + sx, y0: rect.y0 + sy, y1: rect.y1 + sy)
        let d = Int32(((Double(sumA - sumB)) / Double(count)).rounded())
        var total: UInt64 = 0
        a.pixels.withUnsafeBufferPointer { ba in
            b.pixels.withUnsafeBufferPointer { bb in
                guard let baseA = ba.baseAddress, let baseB = bb.baseAddress else { return }
                for y in rect.y0..<rect.y1 {
                    let pa = baseA + y * w + rect.x0, pb = baseB + (y + sy) * w + sx + rect.x0
                    if squared {
                        var row: UInt32 = 0
                        for x in 0..<n {
                            let t = Int32(pa[x]) &- Int32(pb[x]) &- d
                            row &+= UInt32(bitPattern: t &* t)
                        }
                        total &+= UInt64(row)
                    } else {
                        var row: UInt32 = 0
                        for x in 0..<n {
                            let t = Int32(pa[x]) &- Int32(pb[x]) &- d
                            row &+= UInt32(bitPattern: t < 0 ? 0 &- t : t)
                        }
                        total &+= UInt64(row)
                    }
                }
            }
        }
        return total
    }
}

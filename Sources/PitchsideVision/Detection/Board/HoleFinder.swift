import Foundation

/// Finds the hole on a board outline: a round patch of "not board" surrounded by board.
///
/// A matched filter in board coordinates: for candidate centres near the regulation position
/// (9 in from the back, at either end), it compares how much of a hole-sized disc is not board
/// colour with how much of the ring around it is. Bags lying on the board are not round holes
/// of the right size, and a bag partly over the hole moves the best centre little.
struct HoleFinder {
    struct Found {
        var backEdgeStart: Int
        var along: Double
        var across: Double
        /// Inside minus ring, 0…1.
        var contrast: Double
        /// Share of the not-board samples inside the hole that the top encloses (1 for a hole
        /// through the top; low for a gap open to the outside, such as between a person's legs).
        var enclosed = 1.0

        /// How much the hole makes the outline a board, 0…1: clear contrast and enclosed by the top.
        var strength: Double { clamp((contrast - 0.35) / 0.4) * clamp((enclosed - 0.5) / 0.3) }

        /// How near the regulation place (9 in from the back, on the centre line) the hole lies
        /// on the outline, 0…1 (`placeSpread`). The search reaches 10 cm either way for outlines
        /// with an end misplaced; a dark bag lying there also passes for a hole at 640×360
        /// (held10-0003: an olive bag taken for it 11 cm off outranked the right top, found with
        /// its hole 3 cm off).
        var nearRegulationPlace: Double {
            let off = (along - BoardGeometry.holeFromBack, across)
            return exp(-(off.0 * off.0 + off.1 * off.1) / (2 * Self.placeSpread * Self.placeSpread))
        }

        /// The spread of `nearRegulationPlace`, metres: a Gaussian of 5 cm.
        static let placeSpread = 0.05
    }

    let labels: [Int32]
    let image: WorkImage
    /// Labels of the top's colour (its main region and same-paint fragments).
    let boardLabels: Set<Int32>
    /// The top with its enclosed holes filled.
    let mask: RegionMask
    /// Mean colour of the board region: pixels of the region far from it in chroma are not board
    /// (region growing can creep into a shaded hole).
    let boardColour: ColourFeature
    var chromaTolerance = 35.0
    /// Inside this outline the top's paint is board whatever colour region it fell in (`find`'s
    /// `paintInsideOutline`)...
    var paintOutline: [PlanePoint]? = nil
    /// ... lit or in shade: its chroma at this share of its brightness. The hole's shadow and
    /// bags are darker (dev3-0010 and -0015 were found with any lower bound from 0.5 to 0.9; from
    /// 0.3 the hole itself passed for paint, from 1.0 the top's shaded part did not).
    var paintShades = 0.6...1.35

    var width: Int { image.width }
    var height: Int { image.height }

    /// `paintInsideOutline`: the top's paint inside `corners` counts as top when judging the hole
    /// enclosed (`enclosure`; side views long enough to show the hole over several pixels).
    /// Then, inside the outline, the top's paint is board in whichever colour region it fell
    /// (`notBoard`).
    func find(corners: [PlanePoint], lengthAlongFirstEdge: Bool, paintInsideOutline: Bool = false) -> Found? {
        var finder = self
        if paintInsideOutline { finder.paintOutline = corners }
        return finder.bestHole(corners: corners, lengthAlongFirstEdge: lengthAlongFirstEdge)
    }

    private func bestHole(corners: [PlanePoint], lengthAlongFirstEdge: Bool) -> Found? {
        let ends = lengthAlongFirstEdge ? [3, 1] : [0, 2]
        var best: Found?
        for end in ends {
            guard let plane = BoardPlane(corners: corners, lengthAlongFirstEdge: lengthAlongFirstEdge, backEdgeStart: end)
            else { continue }
            // Coarse grid around the regulation position.
            var local: Found?
            for a in stride(from: BoardGeometry.holeFromBack - 0.10, through: BoardGeometry.holeFromBack + 0.10, by: 0.01) {
                for c in stride(from: -0.06, through: 0.06, by: 0.01) {
                    let s = score(plane, along: a, across: c)
                    if s > (local?.contrast ?? -2) { local = Found(backEdgeStart: end, along: a, across: c, contrast: s) }
                }
            }
            // Fine grid around the best; a real hole larger than the model gives a plateau, so
            // take the middle of the near-best positions rather than its first corner.
            if let coarse = local {
                var samples: [(Double, Double, Double)] = []
                for a in stride(from: coarse.along - 0.02, through: coarse.along + 0.02, by: 0.004) {
                    for c in stride(from: coarse.across - 0.02, through: coarse.across + 0.02, by: 0.004) {
                        samples.append((a, c, score(plane, along: a, across: c)))
                    }
                }
                let top = samples.map(\.2).max() ?? coarse.contrast
                let near = samples.filter { $0.2 >= top - 0.03 }
                let n = Double(near.count)
                local = Found(backEdgeStart: end, along: near.map(\.0).reduce(0, +) / n,
                              across: near.map(\.1).reduce(0, +) / n, contrast: top)
            }
            if let l = local, l.contrast > (best?.contrast ?? -2) { best = l }
        }
        if var found = best, let plane = BoardPlane(corners: corners, lengthAlongFirstEdge: lengthAlongFirstEdge, backEdgeStart: found.backEdgeStart) {
            found.enclosed = enclosure(plane, along: found.along, across: found.across, paintInside: paintOutline)
            best = found
        }
        return best
    }

    /// Share of the not-board points inside the hole's disc that the top encloses.
    ///
    /// The top is closed by about a third of the hole's radius first: a bag lying over the
    /// board's edge next to the hole leaves only a thin channel from the hole to the outside,
    /// while a gap open to the outside (between a person's legs) is as wide as the "hole".
    /// `paintInside`: an outline inside which the top's paint counts as top even where it is no
    /// part of the colour region (`paintedTop`; side views, where the hole lies a few pixels from
    /// the back end).
    private func enclosure(_ plane: BoardPlane, along: Double, across: Double, paintInside corners: [PlanePoint]?) -> Double {
        let r = BoardGeometry.holeRadius
        let centre = plane.point(along: along, across: across)
        let rim = (0..<12).map { j -> Double in
            let a = Double(j) * 2 * Double.pi / 12
            return plane.point(along: along + r * cos(a), across: across + r * sin(a)).distance(to: centre)
        }
        let k = max(1, Int(0.35 * (rim.min() ?? 0)))
        let top = corners.map { paintedTop($0, farSideSealedBy: 2 * k + 1) }
            ?? (region: mask.region, originX: mask.originX, originY: mask.originY, width: mask.width, height: mask.height)
        let closed = RegionMask.outsideAfterClosing(top.region, width: top.width, height: top.height, radius: k)
        /// Inside the closed top: no outside pixel within k (the closing's erosion half).
        func enclosed(_ p: PlanePoint) -> Bool {
            let cx = Int(p.x) - top.originX + closed.pad, cy = Int(p.y) - top.originY + closed.pad
            let rows = closed.outside.count / closed.width
            guard cx - k >= 0, cy - k >= 0, cx + k < closed.width, cy + k < rows else { return false }
            for y in (cy - k)...(cy + k) {
                for x in (cx - k)...(cx + k) where closed.outside[y * closed.width + x] == 1 { return false }
            }
            return true
        }
        var hole = 0, inside = 0
        for f in [0.0, 0.3, 0.55, 0.8] {
            for j in 0..<(f == 0 ? 1 : 12) {
                let a = Double(j) * 2 * Double.pi / 12
                let p = plane.point(along: along + f * r * cos(a), across: across + f * r * sin(a))
                guard notBoard(p) == 1 else { continue }
                hole += 1
                if enclosed(p) { inside += 1 }
            }
        }
        return hole == 0 ? 0 : Double(inside) / Double(hole)
    }

    /// The top's region, and inside the outline every pixel of the top's paint as well, over the
    /// box holding both (padded by a pixel). A painted ring around the hole, or a border, cuts
    /// the strip of top between the hole and a side view's back end off the region, and the hole
    /// then opened to the outside (dev3-0012 at 1920×1080, searched at 1280: its board was never
    /// found while the quadrilateral and the hole were right).
    ///
    /// A band `seal` pixels wide just beyond the far side (a side view's first side,
    /// `BoardDetector.ordered`) counts as top too: a gap open to the outside through the far side is no gap
    /// between a person's legs, and at 640×360 the strip of top between the hole and the far
    /// side is a pixel, which blur and the codec open (dev6-0000: the hole read as open, 1 of 31
    /// samples enclosed, and its board was never found).
    private func paintedTop(_ corners: [PlanePoint], farSideSealedBy seal: Int) -> (region: [UInt8], originX: Int, originY: Int, width: Int, height: Int) {
        let low = corners.reduce(PlanePoint(.infinity, .infinity)) { PlanePoint(min($0.x, $1.x), min($0.y, $1.y)) }
        let high = corners.reduce(PlanePoint(-.infinity, -.infinity)) { PlanePoint(max($0.x, $1.x), max($0.y, $1.y)) }
        let margin = seal + 1
        let x0 = max(0, min(mask.originX, Int(low.x.rounded(.down)) - margin))
        let y0 = max(0, min(mask.originY, Int(low.y.rounded(.down)) - margin))
        let x1 = min(width - 1, max(mask.originX + mask.width - 1, Int(high.x.rounded(.up)) + margin))
        let y1 = min(height - 1, max(mask.originY + mask.height - 1, Int(high.y.rounded(.up)) + margin))
        let far = (corners[0], corners[1])
        let farLength = max(1e-9, far.0.distance(to: far.1))
        let centre = corners.reduce(PlanePoint(0, 0), +) * 0.25
        /// Distance beyond the far side (positive away from the outline's centre) and how far
        /// along it, 0…1.
        func beyondFarSide(_ p: PlanePoint) -> (distance: Double, along: Double) {
            let d = far.1 - far.0, q = p - far.0, c = centre - far.0
            let cross = (d.x * q.y - d.y * q.x) / farLength, centreSide = d.x * c.y - d.y * c.x
            return (centreSide > 0 ? -cross : cross, (d.x * q.x + d.y * q.y) / (farLength * farLength))
        }
        let w = x1 - x0 + 1, h = y1 - y0 + 1
        var region = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let mx = x0 + x - mask.originX, my = y0 + y - mask.originY
                if mx >= 0, my >= 0, mx < mask.width, my < mask.height, mask.region[my * mask.width + mx] == 1 {
                    region[y * w + x] = 1
                    continue
                }
                let p = PlanePoint(Double(x0 + x) + 0.5, Double(y0 + y) + 0.5)
                let beyond = beyondFarSide(p)
                if beyond.distance >= 0, beyond.distance <= Double(seal), (0...1).contains(beyond.along) {
                    region[y * w + x] = 1
                    continue
                }
                guard polygonContains(corners, p) else { continue }
                let c = image.pixel(x0 + x, y0 + y)
                if ColourFeature(c.0, c.1, c.2).distance(to: boardColour) <= chromaTolerance { region[y * w + x] = 1 }
            }
        }
        return (region, x0, y0, w, h)
    }

    private func notBoard(_ p: PlanePoint) -> Double? {
        let x = Int(p.x), y = Int(p.y)
        guard x >= 0, y >= 0, x < width, y < height else { return nil }
        // A side view's top can be two colour regions (lit, and in shade merged with the rail):
        // inside the outline its paint is board in either (dev3-0010: the part around the hole
        // counted as not board, and the hole's contrast came out 0). Judged as paint in shade,
        // not by colour distance, which lets a dark hole of the paint's hue pass for board.
        let inRegion = boardLabels.contains(labels[y * width + x])
        if !inRegion, !(paintOutline.map { polygonContains($0, p) } ?? false) { return 1 }
        let c = image.pixel(x, y)
        let colour = ColourFeature(c.0, c.1, c.2)
        if inRegion { return colour.distance(to: boardColour) > chromaTolerance ? 1 : 0 }
        let shade = colour.asShade(of: boardColour)
        return paintShades.contains(shade.share) && shade.chromaOff < 0.6 * chromaTolerance ? 0 : 1
    }

    private func score(_ plane: BoardPlane, along: Double, across: Double) -> Double {
        let r = BoardGeometry.holeRadius
        var inside = 0.0, nIn = 0.0, ring = 0.0, nRing = 0.0
        for (k, f) in [0.0, 0.3, 0.55, 0.8].enumerated() {
            let count = k == 0 ? 1 : 12
            for j in 0..<count {
                let a = Double(j) * 2 * Double.pi / Double(count) + Double(k) * 0.3
                if let v = notBoard(plane.point(along: along + f * r * cos(a), across: across + f * r * sin(a))) {
                    inside += v; nIn += 1
                }
            }
        }
        for f in [1.3, 1.6, 1.9] {
            for j in 0..<16 {
                let a = Double(j) * 2 * Double.pi / 16 + f
                if let v = notBoard(plane.point(along: along + f * r * cos(a), across: across + f * r * sin(a))) {
                    ring += v; nRing += 1
                }
            }
        }
        guard nIn > 0, nRing > 0 else { return -1 }
        return inside / nIn - ring / nRing
    }
}

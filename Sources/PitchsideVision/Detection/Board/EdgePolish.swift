import Foundation

/// Moves each side of a fitted quadrilateral onto the picture's edge next to it, to a fraction of
/// a pixel.
///
/// The region outline a quadrilateral is fitted to is whole pixels of a blurred picture; a
/// side-on board 60 pixels long needs its corners within about a pixel. Across each side, at
/// points spread along it, the colour profile is sampled (bilinear, unblurred): the edge is where,
/// coming in from outside, the colour first comes nearer the top's (measured well inside) than
/// the outside's. A line through those edge points, refitted without the points far from
/// it (a bag over the edge, a leg), replaces the side; the corners are the new sides' crossings.
enum EdgePolish {
    /// `sideOn`: the quadrilateral is a foreshortened top lying across the picture (its first and
    /// third sides, or second and fourth, are the long ones).
    /// `paint`: the top's colour as its region found it (the mean of the region), to tell the
    /// paint from bags among the colours sampled inside an end.
    static func polish(_ corners: [PlanePoint], image: WorkImage, sideOn: Bool, paint: (Double, Double, Double)? = nil) -> [PlanePoint] {
        guard corners.count == 4 else { return corners }
        let centre = corners.reduce(PlanePoint(0, 0), +) * 0.25
        let e = (0..<4).map { corners[$0].distance(to: corners[($0 + 1) % 4]) }
        guard e.allSatisfy({ $0 >= 3 }) else { return corners }
        let longPairStart = e[0] + e[2] >= e[1] + e[3] ? 0 : 1
        let area = abs(polygonArea(corners))
        var lines: [(PlanePoint, PlanePoint)] = []
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4]
            let d = (b - a) * (1 / e[i])
            var n = PlanePoint(d.y, -d.x)
            let mid = (a + b) * 0.5
            if (mid.x - centre.x) * n.x + (mid.y - centre.y) * n.y < 0 { n = n * -1 }
            // Extent of the quadrilateral across this side: how far in the top's colour lies.
            let across = area / e[i]
            // An end may have lost a painted border band to the region outline, so it is looked
            // for farther out than a long side.
            let isEnd = i % 2 != longPairStart
            let reach = isEnd ? max(4, 0.08 * across) : min(max(1.5, 0.25 * across), 4)
            let inside = min(across / 2, reach + 1)
            var found: [SideSample] = []
            for t in samples(length: e[i]) {
                let p = a + d * (t * e[i])
                if let edge = edgeOffset(at: p, normal: n, reach: reach, topAt: inside...inside, image: image) {
                    found.append((t, p + n * edge.offset, edge))
                }
            }
            let points = withoutForeignColours(found).map(\.point)
            lines.append(points.count >= 4 ? (robustLine(points) ?? (a, b)) : (a, b))
        }
        if sideOn {
            // A side-on board's ends slant into the distance and are a few pixels long: each is
            // found by scanning along the long sides, on lines spread between them, for where the
            // top stops.
            let length = (e[longPairStart] + e[longPairStart + 2]) / 2
            for end in [(longPairStart + 1) % 4, (longPairStart + 3) % 4] {
                if let line = endLine(end, corners: corners, lines: lines, length: length, paint: paint, image: image) { lines[end] = line }
            }
        }
        var out: [PlanePoint] = []
        for i in 0..<4 {
            let prev = lines[(i + 3) % 4], cur = lines[i]
            // A corner that moves by more than a quarter of its shorter side (or, at a side-on
            // board's slanting end, an eighth of its longer one) means a side went astray.
            let shorter = min(e[i], e[(i + 3) % 4]), longer = max(e[i], e[(i + 3) % 4])
            guard let p = lineIntersection(prev.0, prev.1, cur.0, cur.1),
                  p.distance(to: corners[i]) <= max(0.25 * shorter, sideOn ? 0.12 * longer : 0) + 2 else { return corners }
            out.append(p)
        }
        return out
    }

    /// Positions along a side (fractions of its length) where its edge is measured.
    private static func samples(length: Double) -> [Double] {
        let count = max(6, min(48, Int(length)))
        return (0..<count).map { 0.15 + 0.7 * Double($0) / Double(count - 1) }
    }

    /// The line of end side `i` (from corner i to i + 1, between the two long sides), found along
    /// lines parallel to the long sides; nil when too few of them meet an edge.
    private static func endLine(_ i: Int, corners: [PlanePoint], lines: [(PlanePoint, PlanePoint)], length: Double,
                                paint: (Double, Double, Double)?, image: WorkImage) -> (PlanePoint, PlanePoint)? {
        let before = lines[(i + 3) % 4], after = lines[(i + 1) % 4]
        let a = corners[i], b = corners[(i + 1) % 4]
        guard let pa = lineIntersection(before.0, before.1, a, b), let pb = lineIntersection(after.0, after.1, a, b) else { return nil }
        // Outward along the long sides: from the far corners toward this end.
        func unit(_ v: PlanePoint) -> PlanePoint { v * (1 / max(1e-9, v.distance(to: PlanePoint(0, 0)))) }
        let u = unit(unit(a - corners[(i + 3) % 4]) + unit(b - corners[(i + 2) % 4]))
        let reach = max(4, 0.12 * length)
        // The top's own colour is the commonest along 0.3 to 0.6 of the length in: past the hole
        // and its ring at the back end, short of the middle. Taken at one point, a third of the
        // length in, it was a bag's where one lay there, and the front face beyond the end (the
        // paint in shade) came nearer that bag's colour than the ground's: the end ran out over
        // the face (dev3-0007: a corner 10 % of the length off for the whole game). Where bags
        // cover most of that stretch, the commonest colour there is theirs, far from the region's
        // paint: then the group nearest the paint is taken (dev7-0019 at 640×360: an olive bag
        // covered five of nine samples, and the front end ran 5 px out over its face).
        let inside = (0.3 * length)...(0.6 * length)
        // The lines cross the slanting end obliquely (at about 30° in a side view), so every width
        // across the end (the edge line, how far out an outline is looked for) is that much longer
        // along them.
        let endDirection = (pb - pa) * (1 / max(1e-9, pb.distance(to: pa)))
        let stretch = 1 / max(0.25, abs(endDirection.x * u.y - endDirection.y * u.x))
        var points: [PlanePoint] = []
        for f in stride(from: 0.2, through: 0.8, by: 0.1) {
            let q = pa + (pb - pa) * f
            if let edge = edgeOffset(at: q, normal: u, reach: reach, topAt: inside, paint: paint, stretch: stretch, image: image) {
                points.append(q + u * edge.offset)
            }
        }
        guard points.count >= 4 else { return nil }
        return robustLine(points)
    }

    /// Half the width, in the source picture's pixels, of the darker line along a top's edge (a
    /// painted outline, a rounded arris in shade). The line is centred on the edge, so where no
    /// line darker than the outside shows the edge itself, the top's own colour begins half its
    /// width inside: at 640×360, where a board is 56 pixels long, measuring to that colour
    /// shortened the board by a pixel and made the scale 2 % too large.
    static let edgeLineHalfWidth = 0.5
    /// How much farther in, in the source picture's pixels, the top's colour begins in a picture
    /// doubled to be searched (`BoardDetector`): the interpolation blurs the line along the edge
    /// into the top. Measured on the development games' frames 30 to 105 (552 searches): at
    /// 640×360 the sides lay 0.13–0.31 pixels inside their edges on average and the board was
    /// 1.1 % short, at 960×540 and larger, searched undoubled, within 0.2 pixels and 0.4 % long.
    static let doubledBlurShift = 0.2

    /// How far outside the first top-coloured point an outline is looked for, in pixels of the
    /// picture searched.
    static let outlineSearch = 2.0
    /// How much farther from the top's colour than the outside an outline must be.
    static let outlineContrast = 1.2

    /// One measurement of an edge: how far out along the normal it lies, and the colours of the
    /// top and of the outside it was told apart from.
    struct EdgeSample {
        let offset: Double
        let top: (Double, Double, Double)
        let outside: (Double, Double, Double)
    }

    /// An edge sample of a side: where along it (a fraction of its length), the edge point found.
    typealias SideSample = (along: Double, point: PlanePoint, edge: EdgeSample)

    /// The edge samples of a side whose top and outside colours are the side's commonest:
    /// where a bag lies on the top by the edge (its colour taken for the top's) or stands over it
    /// (taken for the outside), the edge found is the bag's, up to a couple of pixels off, and
    /// a third of a side so measured tilted the line through it (held31-0010, held31-0011: a
    /// corner 2.6–4.3 % of the length off). All are kept when fewer than four would be left, or
    /// when those left do not reach both ends of the side (within a fifth of the samples' span):
    /// a line drawn through part of a side and carried on to its corner missed it by more than
    /// the bags' samples did (held32-0018 at 640×360: bags along the far side's left third, and
    /// the corner there 6 % off instead of 2.3 %).
    static func withoutForeignColours(_ found: [SideSample]) -> [SideSample] {
        guard found.count >= 4, let first = found.first?.along, let last = found.last?.along else { return found }
        let top = commonColour(found.map(\.edge.top)), outside = commonColour(found.map(\.edge.outside))
        let kept = found.filter {
            distance($0.edge.top, top) <= foreignDistance && distance($0.edge.outside, outside) <= foreignDistance
        }
        let slack = 0.2 * (last - first)
        guard kept.count >= 4, let keptFirst = kept.first?.along, let keptLast = kept.last?.along,
              keptFirst - first <= slack, last - keptLast <= slack else { return found }
        return kept
    }

    /// Offset along `normal` (outward) of the edge near `p`, or nil when there is no clear edge.
    ///
    /// Coming in from outside, the top's colour begins where the colour first comes closer to
    /// the top's (measured well inside: at `topAt`, or the commonest along it, `commonColour`)
    /// than to what lies outside: the outer boundary, whatever graphics (a border stripe) lie
    /// just inside it, and wherever the ground's texture strays from its own average. The edge
    /// lies half an edge line outside where the top begins, or, where an outline darker than the
    /// outside runs just outside that point, at the outline's darkest point.
    ///
    /// `stretch`: how much longer a width across the edge is along `normal` (1 when `normal` is
    /// perpendicular to the edge).
    private static func edgeOffset(at p: PlanePoint, normal n: PlanePoint, reach: Double, topAt inside: ClosedRange<Double>,
                                   paint: (Double, Double, Double)? = nil, stretch: Double = 1, image: WorkImage) -> EdgeSample? {
        func colour(_ s: Double) -> (Double, Double, Double) { image.sample(p.x + n.x * s, p.y + n.y * s) }
        let top = inside.lowerBound == inside.upperBound ? colour(-inside.lowerBound)
            : commonColour((0..<9).map { colour(-(inside.lowerBound + (inside.upperBound - inside.lowerBound) * Double($0) / 8)) },
                           near: paint)
        let outside = colour(reach + 0.5)
        guard distance(outside, top) >= 30 else { return nil }
        // Positive while nearer the outside colour than the top's.
        func side(_ s: Double) -> Double {
            let c = colour(s)
            return distance(c, top) - distance(c, outside)
        }
        let step = 0.25
        // Where an outline darker than both sides lies just outside `crossing`: the edge is the
        // outline's darkest point, which it straddles. Against a rail or a front face only a
        // little darker than the top, "nearer the top's colour than the outside's" is reached
        // high on the outline's inner flank, short of the edge; half-way up that flank and half
        // a line width out still lay 0.3–0.5 pixels inside the near side at every size, the
        // blurred line being wider than the painted one.
        func outlineCentre(outsideOf crossing: Double) -> Double? {
            let outsideContrast = distance(outside, top)
            var peak = outsideContrast, peakAt = crossing
            var t = crossing
            while t <= min(reach, crossing + outlineSearch * stretch) {
                let d = distance(colour(t), top)
                if d > peak { peak = d; peakAt = t }
                t += step
            }
            guard peak >= outlineContrast * outsideContrast else { return nil }
            // A parabola through the darkest sample and its neighbours places it between samples.
            let before = distance(colour(peakAt - step), top), after = distance(colour(peakAt + step), top)
            let curvature = before - 2 * peak + after
            guard curvature < 0 else { return peakAt }
            return peakAt + step * min(0.5, max(-0.5, 0.5 * (before - after) / curvature))
        }
        var s = reach
        var previous = side(s)
        guard previous > 0 else { return nil }
        while s > -reach {
            let next = s - step
            let value = side(next)
            if value <= 0 {
                // Linear interpolation between the two samples around the crossing.
                let f = previous / max(1e-9, previous - value)
                let crossing = s - f * step
                if let centre = outlineCentre(outsideOf: crossing) { return EdgeSample(offset: centre, top: top, outside: outside) }
                let halfLine = edgeLineHalfWidth + (image.scale < 1 ? doubledBlurShift : 0)
                return EdgeSample(offset: crossing + halfLine * stretch / image.scale, top: top, outside: outside)
            }
            previous = value
            s = next
        }
        return nil
    }

    /// City-block distance between two colours.
    private static func distance(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
        abs(a.0 - b.0) + abs(a.1 - b.1) + abs(a.2 - b.2)
    }

    /// The commonest of some colours: the mean of the largest group within a colour distance of
    /// 45 of one of them (a bag or the hole's ring among samples of a top's paint is outvoted).
    /// Given the colour looked for (`near`, the top region's mean: it takes in the paint in shade
    /// too, so it is only a guide), a largest group far from it (more than `foreignDistance`, and
    /// twice as far as another group) is bags outnumbering the paint: the group nearest it is
    /// taken instead.
    static func commonColour(_ samples: [(Double, Double, Double)], near wanted: (Double, Double, Double)? = nil) -> (Double, Double, Double) {
        func mean(_ group: [(Double, Double, Double)]) -> (Double, Double, Double) {
            let n = Double(max(1, group.count))
            return (group.map(\.0).reduce(0, +) / n, group.map(\.1).reduce(0, +) / n, group.map(\.2).reduce(0, +) / n)
        }
        let groups = samples.map { a in samples.filter { distance($0, a) <= 45 } }
        guard let largest = groups.max(by: { $0.count < $1.count }).map(mean) else { return (0, 0, 0) }
        guard let wanted, let nearest = groups.map(mean).min(by: { distance($0, wanted) < distance($1, wanted) }) else { return largest }
        let far = distance(largest, wanted)
        return far > foreignDistance && far > 2 * distance(nearest, wanted) ? nearest : largest
    }

    /// City-block colour distance from the top region's mean beyond which the commonest colour
    /// inside an end may be bags' rather than the paint's (`commonColour`): the lit paint and
    /// the paint in shade lie within about 50 of the mean, a bag on a yellow top 200 away.
    static let foreignDistance = 60.0

    /// Total-least-squares line through the points, refitted once without those more than a
    /// pixel (or two median residuals) away.
    static func robustLine(_ points: [PlanePoint]) -> (PlanePoint, PlanePoint)? {
        func fit(_ pts: [PlanePoint]) -> (PlanePoint, PlanePoint)? {
            guard pts.count >= 2 else { return nil }
            let n = Double(pts.count)
            let mx = pts.map(\.x).reduce(0, +) / n, my = pts.map(\.y).reduce(0, +) / n
            var cxx = 0.0, cyy = 0.0, cxy = 0.0
            for p in pts { cxx += (p.x - mx) * (p.x - mx); cyy += (p.y - my) * (p.y - my); cxy += (p.x - mx) * (p.y - my) }
            let angle = 0.5 * atan2(2 * cxy, cxx - cyy)
            let m = PlanePoint(mx, my)
            return (m, m + PlanePoint(cos(angle), sin(angle)))
        }
        guard let first = fit(points) else { return nil }
        let d = first.1 - first.0
        func residual(_ p: PlanePoint) -> Double { abs((p.x - first.0.x) * d.y - (p.y - first.0.y) * d.x) }
        let residuals = points.map(residual).sorted()
        let limit = max(1.0, 2 * residuals[residuals.count / 2])
        let kept = points.filter { residual($0) <= limit }
        return kept.count >= 4 ? fit(kept) : first
    }
}

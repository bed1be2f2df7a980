import Foundation

/// Cuts the near rail off a side-on top whose colour region ran down into it.
///
/// A side view shows the board's near rail as a band of the top's own paint in shade, about
/// three quarters as bright. Where the outline between them blurs away, region growing joins
/// the two, and the fitted quadrilateral's near side lies on the rail's bottom edge (dev games
/// 1006, 1015, 1016: near corners 5–9 % of the board's length out). Across the quadrilateral,
/// coming in from its near side, such a band has the top's chroma at 45–90 % of its brightness
/// and runs up to where the top's own colour begins. Where most lines across show one, the near
/// side moves up to that line; the edge polish then places it to a fraction of a pixel.
enum RailSplit {
    /// Brightness, as a share of the lit top's, below which a pixel is the top's paint in shade.
    static let shadeBelow = 0.9
    /// ... and above which it is something darker than the rail (a gap, a shadow, the hole).
    static let shadeAbove = 0.45
    /// Chroma distance from the top's (scaled to the pixel's brightness) within which a pixel
    /// is the top's paint.
    static let chromaTolerance = 20.0
    /// Share of the lines across that must show a rail for the near side to move.
    static let agreement = 0.6
    /// Narrowest rail that counts, as a share of the quadrilateral's extent across: the top's
    /// outline alone is one or two pixels.
    static let minimumShare = 0.15

    /// The corners with the near long side (the third, from corner 2 to corner 3, of a side-on
    /// quadrilateral ordered as `BoardDetector` orders it) moved up to the top's edge, or nil
    /// when no rail lies inside the quadrilateral.
    static func split(_ corners: [PlanePoint], image: WorkImage) -> [PlanePoint]? {
        guard corners.count == 4 else { return nil }
        let e = (0..<4).map { corners[$0].distance(to: corners[($0 + 1) % 4]) }
        guard e[0] + e[2] > e[1] + e[3], e.allSatisfy({ $0 >= 2 }) else { return nil }
        let count = max(8, min(40, Int(e[2])))
        let lines: [(far: PlanePoint, unit: PlanePoint, across: Double)] = (0..<count).map { j in
            let f = 0.15 + 0.7 * Double(j) / Double(count - 1)
            let far = corners[0] + (corners[1] - corners[0]) * f
            let near = corners[3] + (corners[2] - corners[3]) * f
            let across = far.distance(to: near)
            return (far, (near - far) * (1 / max(1e-9, across)), across)
        }
        func colour(_ line: (far: PlanePoint, unit: PlanePoint, across: Double), _ s: Double) -> ColourFeature {
            let c = image.sample(line.far.x + line.unit.x * s, line.far.y + line.unit.y * s)
            return ColourFeature(Int(c.0), Int(c.1), Int(c.2))
        }
        // The top's own colour: the median over the far part of every line, which a rail (at
        // most about half the extent across) never reaches.
        var samples: [ColourFeature] = []
        for line in lines {
            for s in stride(from: 0.15 * line.across, through: 0.45 * line.across, by: 0.5) { samples.append(colour(line, s)) }
        }
        guard samples.count >= 8 else { return nil }
        let top = ColourFeature.median(of: samples)
        guard top.luma > 20 else { return nil }
        func share(_ c: ColourFeature) -> Double? {
            let shade = c.asShade(of: top)
            return shade.chromaOff <= chromaTolerance ? shade.share : nil
        }
        func isTop(_ c: ColourFeature) -> Bool { share(c).map { $0 >= shadeBelow && $0 <= 1.15 } ?? false }
        func isShade(_ c: ColourFeature) -> Bool { share(c).map { $0 >= shadeAbove && $0 < shadeBelow } ?? false }

        var edges: [PlanePoint] = []
        let step = 0.5
        for line in lines {
            // Coming in from the near side: past the blurred seam with the ground, through the
            // rail, to the first two samples of the top's colour.
            var s = line.across - step
            var seam = 0.0
            while s > 0, !isShade(colour(line, s)), !isTop(colour(line, s)), seam < 1.5 { s -= step; seam += step }
            let bandStart = s
            var shade = 0, total = 0
            var edge: Double?
            while s > 0.3 * line.across {
                let c = colour(line, s)
                if isTop(c), isTop(colour(line, s - step)) { edge = s; break }
                total += 1
                if isShade(c) { shade += 1 }
                s -= step
            }
            guard let found = edge, bandStart - found >= max(2, minimumShare * line.across),
                  Double(shade) >= 0.7 * Double(total) else { continue }
            edges.append(line.far + line.unit * (found + step / 2))
        }
        guard Double(edges.count) >= agreement * Double(count), let near = EdgePolish.robustLine(edges),
              let c2 = lineIntersection(near.0, near.1, corners[1], corners[2]),
              let c3 = lineIntersection(near.0, near.1, corners[3], corners[0]) else { return nil }
        // The new near corners lie on the ends, between the old near and far corners.
        guard c2.distance(to: corners[1]) < e[1], c2.distance(to: corners[2]) < e[1],
              c3.distance(to: corners[0]) < e[3], c3.distance(to: corners[3]) < e[3] else { return nil }
        return [corners[0], corners[1], c2, c3]
    }
}


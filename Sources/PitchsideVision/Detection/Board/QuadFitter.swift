import Foundation

/// Fits a quadrilateral to the outline of a filled region.
///
/// The convex hull is cut down to four sides by repeatedly dropping the side whose removal
/// (extending its neighbours to meet) adds the least area; then each side is re-fitted by least
/// squares to the outline samples along its middle, which removes the rounding of corners.
enum QuadFitter {
    /// Four corners, clockwise on screen; nil when the outline is degenerate.
    static func fit(boundary: [PlanePoint]) -> [PlanePoint]? {
        var poly = convexHull(boundary)
        guard poly.count >= 4 else { return nil }
        while poly.count > 4 {
            let n = poly.count
            var bestIndex = -1, bestCost = Double.infinity, bestPoint = PlanePoint(0, 0)
            for i in 0..<n {
                let a0 = poly[(i - 1 + n) % n], a1 = poly[i], b0 = poly[(i + 1) % n], b1 = poly[(i + 2) % n]
                guard let p = lineIntersection(a0, a1, b0, b1) else { continue }
                // The new corner must lie beyond the dropped side, not behind it.
                let added = polygonArea([a1, p, b0])
                guard added >= -1e-9 else { continue }
                if added < bestCost { bestCost = added; bestIndex = i; bestPoint = p }
            }
            if bestIndex < 0 {
                // No side can be dropped cleanly: remove the vertex of least turn instead.
                var k = 0, least = Double.infinity
                for i in 0..<n {
                    let a = abs(polygonArea([poly[(i - 1 + n) % n], poly[i], poly[(i + 1) % n]]))
                    if a < least { least = a; k = i }
                }
                poly.remove(at: k)
                continue
            }
            let j = (bestIndex + 1) % n
            poly[bestIndex] = bestPoint
            poly.remove(at: j)
        }
        return refine(poly, boundary: boundary)
    }

    private static func refine(_ quad: [PlanePoint], boundary: [PlanePoint]) -> [PlanePoint] {
        var lines: [(PlanePoint, PlanePoint)] = []
        for i in 0..<4 {
            let a = quad[i], b = quad[(i + 1) % 4]
            let len = a.distance(to: b)
            guard len > 1e-6 else { return quad }
            let d = (b - a) * (1 / len)
            let tolerance = max(1.5, 0.04 * len)
            var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0, n = 0.0
            for p in boundary {
                let v = p - a
                let t = v.x * d.x + v.y * d.y
                let off = abs(v.x * d.y - v.y * d.x)
                guard t > 0.12 * len, t < 0.88 * len, off <= tolerance else { continue }
                sx += p.x; sy += p.y; sxx += p.x * p.x; syy += p.y * p.y; sxy += p.x * p.y; n += 1
            }
            guard n >= 4 else { lines.append((a, b)); continue }
            let mx = sx / n, my = sy / n
            let cxx = sxx / n - mx * mx, cyy = syy / n - my * my, cxy = sxy / n - mx * my
            // Principal direction of the samples (total least squares).
            let angle = 0.5 * atan2(2 * cxy, cxx - cyy)
            let dir = PlanePoint(cos(angle), sin(angle))
            let m = PlanePoint(mx, my)
            lines.append((m, m + dir))
        }
        var out: [PlanePoint] = []
        for i in 0..<4 {
            let prev = lines[(i + 3) % 4], cur = lines[i]
            guard let p = lineIntersection(prev.0, prev.1, cur.0, cur.1) else { return quad }
            // A re-fitted corner far from the hull's corner means a side fit went wrong.
            if p.distance(to: quad[i]) > 0.25 * min(quad[i].distance(to: quad[(i + 1) % 4]),
                                                     quad[i].distance(to: quad[(i + 3) % 4])) {
                return quad
            }
            out.append(p)
        }
        return out
    }
}

/// A point in pixels (or any plane units); the detection module's small geometry vocabulary.
public struct PlanePoint: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    static func + (a: PlanePoint, b: PlanePoint) -> PlanePoint { PlanePoint(a.x + b.x, a.y + b.y) }
    static func - (a: PlanePoint, b: PlanePoint) -> PlanePoint { PlanePoint(a.x - b.x, a.y - b.y) }
    static func * (a: PlanePoint, k: Double) -> PlanePoint { PlanePoint(a.x * k, a.y * k) }

    func distance(to p: PlanePoint) -> Double { ((x - p.x) * (x - p.x) + (y - p.y) * (y - p.y)).squareRoot() }
}

/// Signed area of a polygon (positive when clockwise in y-down image coordinates).
func polygonArea(_ p: [PlanePoint]) -> Double {
    var s = 0.0
    for i in 0..<p.count {
        let a = p[i], b = p[(i + 1) % p.count]
        s += a.x * b.y - b.x * a.y
    }
    return s / 2
}

/// Whether `q` lies inside polygon `p` (even-odd rule).
func polygonContains(_ p: [PlanePoint], _ q: PlanePoint) -> Bool {
    var inside = false
    var j = p.count - 1
    for i in 0..<p.count {
        let a = p[i], b = p[j]
        if (a.y > q.y) != (b.y > q.y), q.x < (b.x - a.x) * (q.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
        j = i
    }
    return inside
}

/// Distance from `q` to the boundary of polygon `p`, negative inside.
func polygonSignedDistance(_ p: [PlanePoint], _ q: PlanePoint) -> Double {
    var best = Double.infinity
    for i in 0..<p.count {
        let a = p[i], b = p[(i + 1) % p.count]
        let ab = b - a, aq = q - a
        let t = max(0, min(1, (aq.x * ab.x + aq.y * ab.y) / max(1e-12, ab.x * ab.x + ab.y * ab.y)))
        best = min(best, q.distance(to: a + ab * t))
    }
    return polygonContains(p, q) ? -best : best
}

/// Intersection of the infinite lines through (a1, a2) and (b1, b2); nil when parallel.
func lineIntersection(_ a1: PlanePoint, _ a2: PlanePoint, _ b1: PlanePoint, _ b2: PlanePoint) -> PlanePoint? {
    let d1 = a2 - a1, d2 = b2 - b1
    let den = d1.x * d2.y - d1.y * d2.x
    guard abs(den) > 1e-12 else { return nil }
    let t = ((b1.x - a1.x) * d2.y - (b1.y - a1.y) * d2.x) / den
    return a1 + d1 * t
}

/// Convex hull (Andrew's monotone chain), clockwise in image coordinates (y down).
func convexHull(_ points: [PlanePoint]) -> [PlanePoint] {
    let pts = points.sorted { $0.x == $1.x ? $0.y < $1.y : $0.x < $1.x }
    guard pts.count > 2 else { return pts }
    func cross(_ o: PlanePoint, _ a: PlanePoint, _ b: PlanePoint) -> Double {
        (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    }
    var lower: [PlanePoint] = []
    for p in pts {
        while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
        lower.append(p)
    }
    var upper: [PlanePoint] = []
    for p in pts.reversed() {
        while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
        upper.append(p)
    }
    lower.removeLast()
    upper.removeLast()
    let hull = lower + upper
    // Positive area means clockwise as seen on screen (y down).
    return polygonArea(hull) >= 0 ? hull : hull.reversed()
}

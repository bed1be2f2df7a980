/// A plane-to-plane projective map, fixed by four point pairs.
struct Homography {
    /// Row-major 3 × 3, h[8] == 1.
    var h: [Double]

    /// The map taking the unit square (0,0), (1,0), (1,1), (0,1) to `corners` in that order.
    init?(unitSquareTo corners: [PlanePoint]) {
        precondition(corners.count == 4)
        let src = [PlanePoint(0, 0), PlanePoint(1, 0), PlanePoint(1, 1), PlanePoint(0, 1)]
        var a = [[Double]](repeating: [Double](repeating: 0, count: 9), count: 8)
        for i in 0..<4 {
            let (x, y) = (src[i].x, src[i].y), (u, v) = (corners[i].x, corners[i].y)
            a[2 * i] = [x, y, 1, 0, 0, 0, -u * x, -u * y, u]
            a[2 * i + 1] = [0, 0, 0, x, y, 1, -v * x, -v * y, v]
        }
        guard let s = Homography.solve(&a) else { return nil }
        h = s + [1]
    }

    func apply(_ p: PlanePoint) -> PlanePoint {
        let w = h[6] * p.x + h[7] * p.y + h[8]
        return PlanePoint((h[0] * p.x + h[1] * p.y + h[2]) / w, (h[3] * p.x + h[4] * p.y + h[5]) / w)
    }

    /// The inverse map; nil when singular.
    func inverted() -> Homography? {
        let m = h
        let a = m[4] * m[8] - m[5] * m[7], b = m[5] * m[6] - m[3] * m[8], c = m[3] * m[7] - m[4] * m[6]
        let det = m[0] * a + m[1] * b + m[2] * c
        guard abs(det) > 1e-12 else { return nil }
        let inv = [a, m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
                   b, m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
                   c, m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3]].map { $0 / det }
        return Homography(raw: inv.map { $0 / inv[8] })
    }

    private init(raw: [Double]) { h = raw }

    /// Gaussian elimination with partial pivoting on an n × (n+1) augmented matrix.
    private static func solve(_ a: inout [[Double]]) -> [Double]? {
        let n = a.count
        for c in 0..<n {
            var p = c
            for r in c + 1..<n where abs(a[r][c]) > abs(a[p][c]) { p = r }
            guard abs(a[p][c]) > 1e-12 else { return nil }
            a.swapAt(c, p)
            for r in 0..<n where r != c {
                let f = a[r][c] / a[c][c]
                if f != 0 { for k in c...n { a[r][k] -= f * a[c][k] } }
            }
        }
        return (0..<n).map { a[$0][n] / a[$0][$0] }
    }
}

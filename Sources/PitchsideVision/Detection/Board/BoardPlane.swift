import Foundation

/// The board's top surface as a plane: board coordinates in metres to picture coordinates.
///
/// `along` runs from the back edge (0) to the front edge (1.22 m), `across` from the centre line.
struct BoardPlane {
    let corners: [PlanePoint]
    let lengthAlongFirstEdge: Bool
    let backEdgeStart: Int
    private let map: Homography

    init?(corners: [PlanePoint], lengthAlongFirstEdge: Bool, backEdgeStart: Int) {
        guard let h = Homography(unitSquareTo: corners) else { return nil }
        self.corners = corners
        self.lengthAlongFirstEdge = lengthAlongFirstEdge
        self.backEdgeStart = backEdgeStart
        map = h
    }

    func point(along: Double, across: Double) -> PlanePoint {
        let fa = along / BoardGeometry.length, fc = 0.5 + across / BoardGeometry.width
        if lengthAlongFirstEdge {
            return map.apply(PlanePoint(backEdgeStart == 3 ? fa : 1 - fa, fc))
        }
        return map.apply(PlanePoint(fc, backEdgeStart == 0 ? fa : 1 - fa))
    }

    /// The picture of a circle of `radius` metres centred at (along, across), as an ellipse.
    func ellipse(along: Double, across: Double, radius: Double) -> PixelEllipse {
        let n = 36
        var pts: [PlanePoint] = []
        for k in 0..<n {
            let a = Double(k) * 2 * Double.pi / Double(n)
            pts.append(point(along: along + radius * cos(a), across: across + radius * sin(a)))
        }
        let mx = pts.map(\.x).reduce(0, +) / Double(n), my = pts.map(\.y).reduce(0, +) / Double(n)
        var cxx = 0.0, cyy = 0.0, cxy = 0.0
        for p in pts { cxx += (p.x - mx) * (p.x - mx); cyy += (p.y - my) * (p.y - my); cxy += (p.x - mx) * (p.y - my) }
        cxx /= Double(n); cyy /= Double(n); cxy /= Double(n)
        let tr = cxx + cyy, det = cxx * cyy - cxy * cxy
        let disc = max(0, tr * tr / 4 - det).squareRoot()
        let l1 = tr / 2 + disc, l2 = max(0, tr / 2 - disc)
        let angle = 0.5 * atan2(2 * cxy, cxx - cyy) * 180 / Double.pi
        // Points evenly spread in angle on an ellipse have variance a²/2 along each axis.
        return PixelEllipse(center: point(along: along, across: across),
                            semiMajor: (2 * l1).squareRoot(), semiMinor: (2 * l2).squareRoot(), angleDegrees: angle)
    }

    /// Length of the board's centre line, back to front, in picture units.
    var centreLineLength: Double {
        point(along: 0, across: 0).distance(to: point(along: BoardGeometry.length, across: 0))
    }
}

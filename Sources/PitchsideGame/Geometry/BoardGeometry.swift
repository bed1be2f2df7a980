import Foundation
import PitchsideCore

/// The board as the game uses it: top-surface quadrilateral, hole ellipse and
/// scale, from the latest confident `PSBoardObservation`.
public struct BoardGeometry: Sendable, Equatable {
    /// Corners clockwise from the back-left as seen in the image.
    public var corners: [Vec2]
    public var holeCenter: Vec2
    public var holeRadiusX: Double
    public var holeRadiusY: Double
    public var holeAngleDeg: Double
    public var metresPerPixel: Double

    public init(corners: [Vec2], holeCenter: Vec2, holeRadiusX: Double, holeRadiusY: Double,
                holeAngleDeg: Double = 0, metresPerPixel: Double) {
        self.corners = corners
        self.holeCenter = holeCenter
        self.holeRadiusX = holeRadiusX
        self.holeRadiusY = holeRadiusY
        self.holeAngleDeg = holeAngleDeg
        self.metresPerPixel = metresPerPixel
    }

    /// Board geometry from an observation, or nil when it lacks the four corners.
    public init?(_ o: PSBoardObservation) {
        guard o.corners.count == 4 else { return nil }
        self.corners = o.corners.map(Vec2.init)
        self.holeCenter = Vec2(o.hole.center)
        self.holeRadiusX = o.hole.radiusX
        self.holeRadiusY = o.hole.radiusY
        self.holeAngleDeg = o.hole.angleDeg
        self.metresPerPixel = o.metresPerPixel
    }

    public var minX: Double { corners.map(\.x).min() ?? 0 }
    public var maxX: Double { corners.map(\.x).max() ?? 0 }
    public var minY: Double { corners.map(\.y).min() ?? 0 }
    public var maxY: Double { corners.map(\.y).max() ?? 0 }
    public var centerX: Double { (minX + maxX) / 2 }
    /// The board's extent across the picture, x units (a side view's board lies across it).
    public var lengthX: Double { maxX - minX }
    /// One bag's side in the picture's x units, from the board's extent across the picture.
    public var bagSideX: Double { GameConstants.bagSideMetres / GameConstants.boardLengthMetres * lengthX }
    /// Unit direction of the board's long axis in the picture (the mean of its two longer
    /// opposite sides), nil for a degenerate quadrilateral.
    public var longAxis: Vec2? {
        guard corners.count == 4 else { return nil }
        func side(_ i: Int) -> Vec2 { corners[(i + 1) % 4] - corners[i] }
        let first = side(0).length + side(2).length >= side(1).length + side(3).length
        // Opposite sides of a clockwise quadrilateral run in opposite directions.
        let sum = first ? side(0) - side(2) : side(1) - side(3)
        let n = sum.length
        return n > 0 ? Vec2(sum.x / n, sum.y / n) : nil
    }

    /// Hole and contours measured: the setup's "board contours" stage is done.
    public var isMeasured: Bool { holeRadiusX > 0 && holeRadiusY > 0 && metresPerPixel > 0 }

    /// Whether `p` is on the top surface, the surface extended upward by `extendUp`.
    public func boardContains(_ p: Vec2, extendUp: Double = GameConstants.regionExtendUp) -> Bool {
        sweptUp(p, extendUp) { Self.polygonContains(corners, $0) }
    }

    /// Whether `p` is over the hole, the ellipse extended upward by `extendUp`.
    public func holeContains(_ p: Vec2, extendUp: Double = GameConstants.regionExtendUp) -> Bool {
        guard holeRadiusX > 0, holeRadiusY > 0 else { return false }
        return sweptUp(p, extendUp) { q in
            let a = -holeAngleDeg * .pi / 180
            let d = q - holeCenter
            let u = d.x * cos(a) - d.y * sin(a)
            let v = d.x * sin(a) + d.y * cos(a)
            return (u * u) / (holeRadiusX * holeRadiusX) + (v * v) / (holeRadiusY * holeRadiusY) <= 1
        }
    }

    /// A region extended upward contains `p` when `p` moved down by some 0...extend is inside it.
    private func sweptUp(_ p: Vec2, _ extend: Double, _ inside: (Vec2) -> Bool) -> Bool {
        let steps = 8
        for k in 0...steps where inside(Vec2(p.x, p.y + extend * Double(k) / Double(steps))) { return true }
        return false
    }

    /// Even-odd point-in-polygon test.
    static func polygonContains(_ poly: [Vec2], _ p: Vec2) -> Bool {
        var inside = false
        var j = poly.count - 1
        for i in 0..<poly.count {
            let a = poly[i], b = poly[j]
            if (a.y > p.y) != (b.y > p.y), p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x {
                inside.toggle()
            }
            j = i
        }
        return inside
    }
}

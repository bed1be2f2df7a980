import Foundation

/// Lays a side view's front end parallel to its back end when bags bent it.
///
/// Bags lying across a side view's front end bite into the top's region there, and the
/// quadrilateral fitted to it bends that end the other way (held6-0000 at 640×360, held8-0009
/// and held13-0009 at 960×540: the front end 35–115° off the back end, corners 17–25 % of the
/// length off all game), one long side running on past the bags, the other stopping at them:
/// one long side 1.4–1.6 times the other. Perspective alone makes the ends slant apart (7–10°
/// in the synthetic games' truth; more seen from close by and square on, where they fan out),
/// but keeps the long sides within a few percent of each other (the near one 4–7 % longer in
/// the truth). The hole places the back end; the front end is laid through its own middle,
/// parallel to the back end, between the long sides.
enum FrontEndSquaring {
    /// Largest angle between the ends (each taken from the far side to the near side) left as
    /// found.
    static let maximumApartDegrees = 25.0
    /// Largest ratio of the long sides left as found.
    static let maximumSidesRatio = 1.3
    /// Largest move of a front corner, as a share of the board's length.
    static let maximumMoveShare = 0.3

    /// The corners with the front end (from corner `backEdgeStart + 2` to the next) laid
    /// parallel to the back end (from `backEdgeStart` to the next), or nil when the ends lie
    /// within `maximumApartDegrees` or the long sides within `maximumSidesRatio` of each other
    /// (or the corners are degenerate).
    static func square(_ corners: [PlanePoint], backEdgeStart b: Int) -> [PlanePoint]? {
        guard corners.count == 4, (0..<4).contains(b) else { return nil }
        let i = (0..<4).map { (b + $0) % 4 }
        // Clockwise, the back end runs from corner i0 to i1 and the front end from i2 to i3: the
        // front end's own sense is i3 to i2.
        let back = corners[i[1]] - corners[i[0]], front = corners[i[2]] - corners[i[3]]
        let apart = abs(atan2(back.x * front.y - back.y * front.x, back.x * front.x + back.y * front.y)) * 180 / .pi
        let sides = [corners[i[1]].distance(to: corners[i[2]]), corners[i[3]].distance(to: corners[i[0]])]
        guard apart > maximumApartDegrees, sides.max()! > maximumSidesRatio * max(1e-9, sides.min()!) else { return nil }
        let middle = (corners[i[2]] + corners[i[3]]) * 0.5
        let length = ((corners[i[0]] + corners[i[1]]) * 0.5).distance(to: middle)
        guard length > 1,
              let near = lineIntersection(middle, middle + back, corners[i[1]], corners[i[2]]),
              let far = lineIntersection(middle, middle + back, corners[i[0]], corners[i[3]]),
              near.distance(to: corners[i[2]]) <= maximumMoveShare * length,
              far.distance(to: corners[i[3]]) <= maximumMoveShare * length else { return nil }
        var out = corners
        out[i[2]] = near
        out[i[3]] = far
        return out
    }
}

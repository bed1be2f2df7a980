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
        guard corners.count == 4, let ends = SideViewEnds(backEdgeStart: b) else { return nil }
        let (b0, b1) = ends.back, (f0, f1) = ends.front
        let back = corners[b1] - corners[b0]
        let apart = ends.apartDegrees(corners)
        let sides = [corners[b1].distance(to: corners[f1]), corners[f0].distance(to: corners[b0])]
        guard apart > maximumApartDegrees, sides.max()! > maximumSidesRatio * max(1e-9, sides.min()!) else { return nil }
        let middle = (corners[f0] + corners[f1]) * 0.5
        let length = ((corners[b0] + corners[b1]) * 0.5).distance(to: middle)
        guard length > 1 else { return nil }
        return SideViewEnds.layEnd(corners, moving: (f0, f1), partners: (b0, b1), through: middle, along: back,
                                   maximumMove: maximumMoveShare * length)
    }
}

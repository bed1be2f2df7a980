import Foundation

/// Lays a side view's back end parallel to its front end, where the hole places it, when the
/// back end alone was bent, or lies far from that place.
///
/// held15-0010 at 960×540: the top's region ran on past the back end's far corner into the
/// grass behind it, and the quadrilateral fitted to it turned the back end 43° from the front
/// end (the truth's ends lie 7–10° apart), its far corner 17 % of the length out, the long
/// sides within 12 % of each other (so not `FrontEndSquaring`'s case: bags across the front
/// end shorten one long side by a third or more). The census counted the grass inside that
/// corner as a bag all game. Which end is bent, the hole tells: its centre lies
/// `BoardGeometry.holeFromBack` from the back end, and a back end bent out or in moves its
/// middle off that place by half its bent corner's move, a front end bent by as much moves
/// the place the hole gives by a quarter of that.
enum BackEndSquaring {
    /// Largest angle between the ends left as found (as `FrontEndSquaring`).
    static let maximumApartDegrees = FrontEndSquaring.maximumApartDegrees
    /// How far, as a share of the length, the back end's middle must lie from where the hole
    /// places it before the back end is taken for the bent one: the edges rarely miss by more
    /// than 4 % (`HoleAnchoredEnd`).
    static let minimumOffShare = 0.04
    /// How far the back end's middle must lie from where the hole places it for a back end
    /// within `maximumApartDegrees` of the front end to be laid anew: farther than a bag over the
    /// hole's rim moves its centre (half the hole's radius, 3 % of the length) and the edges
    /// miss together. held16-0006 at 1280×720: a small yellow top's painted border kept the
    /// back end out of its region, the end found 20° from the front end and 10 % short of where
    /// the hole put it (the truth's: 1 % short), and the scale 11 % off all game.
    static let minimumOffShareUnbent = 0.07
    /// Largest move of a back corner, as a share of the board's length.
    static let maximumMoveShare = 0.3

    /// The corners with the back end laid parallel to the front end, at the regulation distance
    /// from `holeCentre` along the long sides, or nil when the back end's middle lies within
    /// `minimumOffShare` of that place (`minimumOffShareUnbent` when the ends lie within
    /// `maximumApartDegrees` of each other), or a corner would move more than
    /// `maximumMoveShare` (or the corners are degenerate).
    static func square(_ corners: [PlanePoint], backEdgeStart b: Int, holeCentre: PlanePoint) -> [PlanePoint]? {
        guard corners.count == 4, let ends = SideViewEnds(backEdgeStart: b) else { return nil }
        let bent = ends.apartDegrees(corners) > maximumApartDegrees
        let (b0, b1) = ends.back, (f0, f1) = ends.front
        // Along the long sides, not towards the back end's middle: a bent corner moves that.
        let sides = (corners[b0] - corners[f0]) + (corners[b1] - corners[f1])
        let sidesLength = (sides.x * sides.x + sides.y * sides.y).squareRoot()
        guard sidesLength > 2 else { return nil }
        let axis = sides * (1 / sidesLength)
        func along(_ v: PlanePoint) -> Double { v.x * axis.x + v.y * axis.y }
        let frontMid = (corners[f0] + corners[f1]) * 0.5
        let length = along((corners[b0] + corners[b1]) * 0.5 - frontMid)
        guard length > 1 else { return nil }
        let wanted = HoleAnchoredEnd.backEndFromFront(holeFromFront: along(holeCentre - frontMid))
        guard abs(wanted - length) > (bent ? minimumOffShare : minimumOffShareUnbent) * length else { return nil }
        return SideViewEnds.layEnd(corners, moving: (b0, b1), partners: (f0, f1), through: frontMid + axis * wanted,
                                   along: corners[f1] - corners[f0], maximumMove: maximumMoveShare * length)
    }
}

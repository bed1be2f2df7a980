/// Places a side-on board's back end from its hole.
///
/// A regulation hole's centre lies `BoardGeometry.holeFromBack` (9 in) from the back end, on the
/// centre line. In a side view the ends are a few pixels long and slant into the distance, and
/// the edge lines that place them (`EdgePolish`) cross them obliquely, so a tenth of a pixel
/// across an end is a quarter of a pixel along the board: at 640×360, where a board is 56 pixels
/// long and its corners must lie within a pixel, the back end was found up to 2.5 pixels short
/// or long. The hole is measured over its whole ellipse and lies five times nearer the back end
/// than the front one, so the front end and the hole place the back end better than its own
/// edges: an error at the front end moves it by a quarter of that.
///
/// Along the centre line the picture is taken as an affine image of the top (a side-on board is
/// far from the camera). A full homography through four corners a pixel off each bends the
/// length so much that the hole's place along it came out 1.6 % of the length wrong (dev9-0016).
///
/// Only on small boards: the hole's centre is good to about half a pixel whatever the board's
/// size, while the ends' edges sharpen with it. On the development games (dev8, dev9) the hole
/// placed the back end better at 640×360 (boards 53–60 px long: 0.28 px rms from the truth
/// against the edges' 0.70), not at 960×540 (85 px: 0.42 against 0.40) nor 1280×720 (114 px:
/// 0.60 against 0.46).
enum HoleAnchoredEnd {
    /// Longest board, in the source picture's pixels along its centre line, whose back end the
    /// hole places.
    static let longestBoard = 72.0

    /// Largest move of the back end, as a share of the board's length, that the hole is trusted
    /// with: a bag over the hole's rim can pull its centre away, and the edges rarely miss by
    /// more than 4 %.
    static let maximumMoveShare = 0.05

    /// How far from the front end, along the centre line, a back end lies the
    /// regulation distance behind a hole `holeFromFront` from the front end.
    static func backEndFromFront(holeFromFront: Double) -> Double {
        holeFromFront / (1 - BoardGeometry.holeFromBack / BoardGeometry.length)
    }

    /// The corners with the back end (from `backEdgeStart` to the next corner) moved along the
    /// long sides so that `holeCentre` lies at the regulation distance from it, or nil when the
    /// move would be larger than `maximumMoveShare` of the length (or the corners are degenerate).
    static func place(_ corners: [PlanePoint], backEdgeStart b: Int, holeCentre: PlanePoint) -> [PlanePoint]? {
        guard corners.count == 4, let ends = SideViewEnds(backEdgeStart: b) else { return nil }
        let back = [ends.back.0, ends.back.1]
        // Each back corner's partner at the front end, along its long side.
        let partner = [ends.front.0, ends.front.1]
        let backMid = (corners[back[0]] + corners[back[1]]) * 0.5
        let frontMid = (corners[partner[0]] + corners[partner[1]]) * 0.5
        let length = backMid.distance(to: frontMid)
        guard length > 1 else { return nil }
        let axis = (backMid - frontMid) * (1 / length)
        func along(_ v: PlanePoint) -> Double { v.x * axis.x + v.y * axis.y }
        let move = backEndFromFront(holeFromFront: along(holeCentre - frontMid)) - length
        guard abs(move) <= maximumMoveShare * length else { return nil }
        var out = corners
        for (corner, front) in zip(back, partner) {
            let side = corners[corner] - corners[front]
            let extent = along(side)
            guard extent > 0.5 * length else { return nil }
            out[corner] = corners[corner] + side * (move / extent)
        }
        return out
    }
}

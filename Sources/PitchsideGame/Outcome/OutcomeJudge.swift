import PitchsideCore

/// Where a throw ended: through the hole, on the board or not.
///
/// From the flight: the last point of the joined path against the hole ellipse
/// and the board quadrilateral, both extended upward a little (the bag's
/// centroid sits above the surface it rests on). Then confirmed, once the bag is
/// at rest, by the board census: a new bag in the hole is a hole whatever the
/// flight said (it slid in), a new bag on the ground is a miss (it slid off), a
/// new bag on the board is a board.
public enum OutcomeJudge {
    public static func fromFlight(landing: Vec2, board: BoardGeometry) -> PSThrowOutcome {
        if board.holeContains(landing) { return .hole }
        if board.boardContains(landing) { return .board }
        return .miss
    }

    /// The outcome of a whole flight. When the path was lost before it came down (the last
    /// point still in the air, outside the board's regions), the descent is carried on: x(t)
    /// and y(t) fitted to the last points, and followed until it meets the hole or the top, or
    /// falls below the board, which is a miss.
    public static func fromFlight(points: [TimedPoint], board: BoardGeometry) -> PSThrowOutcome {
        guard let last = points.last else { return .miss }
        let seen = fromFlight(landing: last.point, board: board)
        guard seen == .miss, let landing = FlightExtrapolation.landing(points, board: board) else { return seen }
        return fromFlight(landing: landing, board: board)
    }

    /// The outcome a census shows for a bag that just came to rest, if it shows one.
    /// `previous` is the census before the throw (for count changes when the
    /// census lists no explicit change).
    public static func fromCensus(_ census: PSBoardCensus, previous: PSBoardCensus?) -> PSThrowOutcome? {
        for change in census.changes where change.kind == .censusChangeNewBag {
            switch change.place {
            case .inHole: return .hole
            case .onBoard: return .board
            case .onGround: return .miss
            default: continue
            }
        }
        guard let prev = previous else { return nil }
        if census.inHole > prev.inHole { return .hole }
        if census.onBoard > prev.onBoard { return .board }
        if census.onGround > prev.onGround { return .miss }
        return nil
    }
}

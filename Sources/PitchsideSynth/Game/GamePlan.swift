import Foundation

/// The whole game decided before any pixel is drawn: court, camera, every player's actions,
/// every throw's physics, the bags at rest, distractors. Rendering and truth both read it.
public struct GamePlan: Sendable {
    public let settings: SynthSettings
    public let board: BoardModel
    /// The camera once settled.
    public let camera: PinholeCamera
    public let players: [PlayerTimeline]
    public let throwsPlanned: [PlannedThrow]
    public let restingBags: [RestingBag]
    public let distractors: [Distractor]
    /// Whole-pixel camera offsets per frame (non-zero only while settling).
    public let offsets: [(Int, Int)]
    public let frameCount: Int
    /// Where a thrower stands and where the other one waits.
    public let throwSpot: Vec3
    public let waitSpot: Vec3
    public let totals: GameTotals

    public var duration: Double { Double(frameCount) / Double(settings.fps) }
    public func time(ofFrame i: Int) -> Double { Double(i) / Double(settings.fps) }
    /// The first frame at or after time t.
    public func frame(atOrAfter t: Double) -> Int { Int((t * Double(settings.fps) - 1e-6).rounded(.up)) }

    public func camera(atFrame i: Int) -> PinholeCamera {
        var c = camera
        let o = i < offsets.count ? offsets[i] : (0, 0)
        c.offsetX = o.0
        c.offsetY = o.1
        return c
    }

    /// +1 when the camera stands on the +z side (thrower on the left), −1 otherwise.
    public var cameraSign: Double { settings.side == .left ? 1 : -1 }

    // swiftlint:disable:next function_body_length
    public init(settings: SynthSettings) {
        self.settings = settings
        var rng = SplitMix64(seed: settings.seed, stream: 3)
        let sign: Double = settings.side == .left ? 1 : -1
        let board = BoardModel(frontX: 8.23, frontHeight: settings.boardFrontHeight)
        self.board = board
        let throwSpot = Vec3(-0.35, 0, 0.55 * sign)
        let waitSpot = Vec3(-1.9, 0, -0.5 * sign)
        self.throwSpot = throwSpot
        self.waitSpot = waitSpot
        let two = settings.players.count > 1

        // Camera: beside the court, elevated, framing everything that happens.
        let cameraPos = Vec3(4.6 + rng.uniform(-0.6, 0.6), settings.camera.height, sign * settings.camera.distance)
        var frame: [Vec3] = [
            Vec3(-1.2, 0, 0.55 * sign), Vec3(-1.0, 2.3, 0.55 * sign), Vec3(0.7, 0, 0.55 * sign),
            Vec3(board.frontX - 0.3, 0, 0.5), Vec3(10.9, 0, 0.4), Vec3(10.9, 0, -0.4),
            Vec3(board.backX, 0.3, -0.35), Vec3(4.5, 3.0, 0),
        ]
        if two { frame += [Vec3(waitSpot.x - 0.6, 0, waitSpot.z), Vec3(waitSpot.x - 0.6, 2.1, waitSpot.z)] }
        camera = PinholeCamera.framing(
            position: cameraPos, points: frame, width: settings.width, height: settings.height, margin: 0.03)

        // Settle: a pan that eases out plus a decaying shake, in whole pixels.
        let fps = Double(settings.fps)
        let scale = Double(settings.width) / 1280
        let settleFrames = Int((settings.camera.settleSeconds * fps).rounded())
        var offsets: [(Int, Int)] = []
        let panAngle = rng.uniform(0, 2 * Double.pi)
        var shakeRng = SplitMix64(seed: settings.seed, stream: 4)
        for i in 0..<settleFrames {
            let k = Double(i) / Double(max(settleFrames, 1))
            let pan = settings.camera.panPixels * scale * (1 - smoothstep(k))
            let shake = settings.camera.shakePixels * scale * (1 - k)
            offsets.append((Int((pan * cos(panAngle) + shake * shakeRng.gaussian()).rounded()),
                            Int((pan * sin(panAngle) * 0.5 + shake * shakeRng.gaussian()).rounded())))
        }

        // Players and throws.
        var timelines = settings.players.enumerated().map { i, p in
            PlayerTimeline(settings: p, start: i == 0 ? throwSpot : waitSpot, towardCamera: 35 * sign)
        }
        var planned: [PlannedThrow] = []
        var resting: [RestingBag] = []
        var nextBagID = 1
        // Bags already lying there when the game starts.
        for _ in 0..<settings.nuisances.restingBags {
            let onBoard = rng.chance(0.5)
            let place: BagPlace = onBoard ? .onBoard : .onGround
            func draw() -> Vec3 {
                onBoard
                    ? board.point(s: rng.uniform(0.12, 0.6), w: rng.uniform(-0.2, 0.2), lift: BagPhysics.halfThickness)
                    : Vec3(board.frontX - rng.uniform(0.4, 1.5), BagPhysics.halfThickness, rng.uniform(-0.6, 0.6))
            }
            // Two bags lying in one place would pass through each other (dev8-0007 drew two ground
            // bags 1 cm apart, one picture of two bags): draw again until this one clears those
            // already there, as far as a bag lying on another would not ride on it
            // (`BagStacking.share`: a bag's side between centres).
            func clear(_ p: Vec3) -> Bool {
                !resting.contains { BagStacking.share(atDistance: hypot($0.position.x - p.x, $0.position.z - p.z)) > 0 }
            }
            var p = draw(), tries = 1
            while !clear(p), tries < 50 {
                p = draw()
                tries += 1
            }
            resting.append(RestingBag(id: nextBagID, position: p, place: place, color: RGB(120, 120, 40),
                                      yawDegrees: rng.uniform(-40, 40), since: 0, until: nil, throwIndex: nil,
                                      player: nil))
            nextBagID += 1
        }
        var t = settings.camera.settleSeconds + 2.5
        var active = 0
        var inningFirst = 0
        var inningPoints = [Int](repeating: 0, count: settings.players.count)
        var scoreList: [(player: Int, inning: Int, points: Int)] = []
        var runningTotals = [Int](repeating: 0, count: settings.players.count)
        var contact = BagContact()
        contact.boardFriction = rng.uniform(0.45, 0.7)
        contact.boardKeep = rng.uniform(0.15, 0.35)
        let perInning = two ? 8 : settings.throwCount
        for k in 0..<settings.throwCount {
            let inning = two ? k / perInning + 1 : 1
            let inInning = two ? k % perInning : k
            if two && inInning == 0 && k > 0 {
                // Inning over: cancellation decides who starts; the bags are collected.
                let d = inningPoints[0] - inningPoints[1]
                if d > 0 { inningFirst = 0 } else if d < 0 { inningFirst = 1 }
                for i in runningTotals.indices { runningTotals[i] += max(0, inningPoints[i] - inningPoints[1 - i]) }
                inningPoints = [0, 0]
                if runningTotals.contains(where: { $0 >= 21 }) { break }
                let clearTime = t + 1.0
                for j in resting.indices where resting[j].until == nil && resting[j].throwIndex != nil {
                    resting[j].until = clearTime
                }
                t += 2.0
            }
            let player = two ? (inningFirst + inInning) % 2 : 0
            if player != active {
                // Swap places: the thrower walks back while the next one walks up.
                for i in timelines.indices { timelines[i].idle(until: t, holdsBag: i == player) }
                timelines[active].append(.walking, start: t, duration: 1.8, to: waitSpot, holdsBag: false)
                timelines[player].append(.walking, start: t, duration: 1.8, to: throwSpot, holdsBag: true)
                t += 1.8
                active = player
            }
            if rng.chance(settings.negativeActionRate) {
                timelines[player].idle(until: t, holdsBag: false)
                if rng.chance(0.5) {
                    timelines[player].append(.pickingUp, start: t, duration: ActionLibrary.pickUpDuration,
                                             holdsBag: false)
                    t += ActionLibrary.pickUpDuration
                } else {
                    let away = throwSpot + Vec3(-1.1, 0, 0)
                    timelines[player].append(.walking, start: t, duration: 1.0, to: away, holdsBag: true)
                    timelines[player].append(.walking, start: t + 1.0, duration: 1.0, to: throwSpot, holdsBag: true)
                    t += 2.0
                }
            }
            t += rng.uniform(0.5, 1.3)
            let style = settings.styles.isEmpty
                ? rng.pick(ThrowStyle.allCases) : settings.styles[k % settings.styles.count]
            let (duration, releasePhase) = ActionLibrary.timing(style)
            // The release falls exactly on a frame.
            let releaseTime = (((t + duration * releasePhase) * fps).rounded(.up)) / fps
            let start = releaseTime - duration * releasePhase
            timelines[player].idle(until: start, holdsBag: true)
            timelines[player].append(PlayerAction(style), start: start, duration: duration, holdsBag: true,
                                     release: releaseTime)
            let hand = timelines[player].pose(at: releaseTime - 1e-9).body.rightHand
            // Aim: somewhere around the hole, wider with a larger spread.
            let spread = settings.aimSpread
            let s = board.holeS - 0.3 + rng.gaussian() * 0.45 * spread
            let w = rng.gaussian() * 0.17 * spread
            let target = board.isOnTop(s: s, w: w)
                ? board.point(s: s, w: w, lift: BagPhysics.halfThickness)
                : Vec3(board.frontX + s, BagPhysics.halfThickness, w)
            var launch = rng.uniform(22, 44)
            var velocity = BagPhysics.aim(from: hand, to: target, launchDegrees: launch)
            while velocity == nil {
                launch += 3
                velocity = BagPhysics.aim(from: hand, to: target, launchDegrees: launch)
            }
            let v = velocity! * (1 + 0.004 * rng.gaussian())
            let lying = resting.filter { $0.isPresent(at: releaseTime) && $0.place != .inHole }
            let path = BagPhysics.simulate(release: hand, velocity: v, board: board, contact: contact)
                .riding(over: lying, board: board)
            let bagColor = settings.players[player].bag
            let thrown = PlannedThrow(index: k + 1, player: player, style: style, inning: inning,
                                      releaseTime: releaseTime, path: path, bagID: nextBagID, bagColor: bagColor)
            planned.append(thrown)
            let restPosition = path.restPosition
            if path.place != .inHole {
                resting.append(RestingBag(id: nextBagID, position: restPosition, place: path.place, color: bagColor,
                                          yawDegrees: thrown.lyingYaw, since: thrown.restTime, until: nil,
                                          throwIndex: k + 1, player: player, lift: path.restLift(board: board)))
            } else {
                // Through the hole: counted, never seen again.
                resting.append(RestingBag(id: nextBagID, position: board.holeCentre, place: .inHole, color: bagColor,
                                          yawDegrees: 0, since: thrown.restTime, until: nil, throwIndex: k + 1,
                                          player: player))
            }
            nextBagID += 1
            let points = throwPoints(thrown.outcome, style: style, rules: settings.rules)
            inningPoints[player] += points
            scoreList.append((player, inning, points))
            // Wait until the bag is still and the pipeline has seen the quiet frames it needs.
            let throwEnd = start + duration
            t = max(throwEnd, thrown.restTime + 1.2, releaseTime + 2.8)
        }
        t += 2.5
        for i in timelines.indices { timelines[i].idle(until: t, holdsBag: false) }
        let frameCount = Int((t * fps).rounded(.up))
        self.frameCount = frameCount
        self.offsets = offsets
        self.players = timelines
        self.throwsPlanned = planned
        self.restingBags = resting
        self.totals = GameTotals.compute(
            throws: scoreList, players: settings.players.map(\.name), rules: settings.rules,
            throwCount: settings.throwCount)

        // Distractors.
        var distractors: [Distractor] = []
        let duration = t
        if settings.nuisances.bird {
            let start = rng.uniform(0, max(duration - 5, 0.5))
            let length = rng.uniform(2.5, 5)
            let height = GamePlan.skyHeight(camera: camera, z: -sign * 6)
            let leftToRight = rng.chance(0.5)
            let x0 = leftToRight ? -4.0 : 13.0
            distractors.append(Distractor(kind: .bird, start: start, end: start + length,
                                          from: Vec3(x0, height, -sign * 6), to: Vec3(17 - x0 - 4, height, -sign * 6)))
        }
        if settings.nuisances.farPerson {
            let start = rng.uniform(0, max(duration - 8, 0.5))
            let length = min(rng.uniform(6, 10), duration - start)
            let leftToRight = rng.chance(0.5)
            distractors.append(Distractor(kind: .farPerson, start: start, end: start + length,
                                          from: Vec3(leftToRight ? 1.5 : 7.5, 0, -sign * 14),
                                          to: Vec3(leftToRight ? 7.5 : 1.5, 0, -sign * 14)))
        }
        self.distractors = distractors
    }

    /// A height at depth z that shows in the upper part of the picture.
    static func skyHeight(camera: PinholeCamera, z: Double) -> Double {
        var best = 5.0
        for step in 0..<40 {
            let h = 1.0 + Double(step) * 0.25
            let v = camera.project(Vec3(4.5, h, z)).y
            if v < Double(camera.height) * 0.18 { break }
            best = h
        }
        return best
    }
}

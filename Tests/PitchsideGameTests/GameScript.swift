import Foundation
import PitchsideCore
@testable import PitchsideGame

/// Hand-made worker results for scripted games: a board on one side, a thrower
/// on the other, bags flying on parabolas, poses swinging the arm the way each
/// throw type does, and census reports once bags rest. `mirrored` puts the
/// thrower on the right.
struct GameScript {
    static let fps = 30.0
    static let frameUs: Int64 = 33_333
    /// The scripted stick figures are typed by the rules: the learned model knows the pose
    /// model's output on rendered games (ThrowTypeModelTests check it on those).
    static let classifier: any ThrowTypeClassifier = RuleThrowTypeClassifier()
    var stream = "cam1"
    var mirrored = false

    /// One scripted throw.
    struct Throw {
        var type: PSThrowType
        var landing: Vec2
        /// What the census reports once the bag rests (nil: no census).
        var censusPlace: PSBagPlace?
        var releaseFrame: Int
        var flightFrames = 30
        /// Downward acceleration of the flight (normalized units per s²).
        var ay = GameScript.ay
        /// A bounce: a second track from the landing point to here.
        var bounceTo: Vec2? = nil
        /// Points of the flight the trajectory worker missed before it first saw the bag.
        var unseenPoints = 0
        /// The bag lost in mid-flight: after point `after`, `frames` points go unseen and the
        /// rest of the flight is a new track.
        var lostInFlight: (after: Int, frames: Int)? = nil
        /// Where the census sees the bag at rest (nil: it lists only the change).
        var restsAt: Vec2? = nil
    }

    static let release = Vec2(0.22, 0.56)
    static let hole = Vec2(0.83, 0.605)
    static let boardSpot = Vec2(0.74, 0.63)
    static let missSpot = Vec2(0.55, 0.80)
    static let corners = [Vec2(0.68, 0.60), Vec2(0.88, 0.58), Vec2(0.88, 0.63), Vec2(0.68, 0.67)]
    static let metresPerPixel = 1.22 / (0.20 * 1920)
    /// The script's board as the game measures it (its hole a little wider than tall).
    static let board = BoardGeometry(corners: corners, holeCenter: hole, holeRadiusX: 0.014, holeRadiusY: 0.009,
                                     metresPerPixel: metresPerPixel)
    static let ay = 1.2

    func mx(_ x: Double) -> Double { mirrored ? 1 - x : x }
    func mp(_ p: Vec2) -> Vec2 { Vec2(mx(p.x), p.y) }

    func header(_ frame: Int, producer: String) -> PSHeader {
        var h = PSHeader()
        h.streamID = stream
        h.seq = UInt64(frame)
        h.ptsUs = Int64(frame) * Self.frameUs
        h.producerID = producer
        return h
    }

    func board(_ frame: Int, found: Bool = true) -> PSWorkerResult {
        var o = PSBoardObservation()
        o.header = header(frame, producer: "detection-1")
        o.found = found
        o.confidence = found ? 0.95 : 0
        var cs = Self.corners.map(mp)
        if mirrored { cs = [cs[1], cs[0], cs[3], cs[2]] }
        o.corners = cs.map(\.wire)
        var e = PSEllipse()
        e.center = mp(Self.hole).wire
        e.radiusX = 0.014
        e.radiusY = 0.009
        o.hole = e
        o.metresPerPixel = Self.metresPerPixel
        var r = PSWorkerResult()
        r.board = o
        return r
    }

    func stability(_ frame: Int) -> PSWorkerResult {
        var o = PSStabilityObservation()
        o.header = header(frame, producer: "detection-1")
        o.sampleCount = UInt32(min(frame, 30))
        o.stable = frame >= 16
        var r = PSWorkerResult()
        r.stability = o
        return r
    }

    func frameDone(_ frame: Int, role: String) -> PSWorkerResult {
        var d = PSFrameDone()
        d.header = header(frame, producer: role + "-1")
        d.role = role
        var r = PSWorkerResult()
        r.frameDone = d
        return r
    }

    func census(_ frame: Int, place: PSBagPlace, bagID: UInt32, at position: Vec2? = nil) -> PSWorkerResult {
        var c = PSBoardCensus()
        c.header = header(frame, producer: "detection-1")
        var ch = PSCensusChange()
        ch.kind = .censusChangeNewBag
        ch.bagID = bagID
        ch.place = place
        c.changes = [ch]
        if let position {
            var bag = PSBagAtRest()
            bag.id = bagID
            bag.position = mp(position).wire
            bag.place = place
            c.bags = [bag]
        }
        var r = PSWorkerResult()
        r.census = c
        return r
    }

    // MARK: Trajectories

    /// Points of a parabolic flight from `a` to `b` over `frames` frames starting at `startFrame`.
    func flight(from a: Vec2, to b: Vec2, startFrame: Int, frames: Int, ay: Double = GameScript.ay) -> [TimedPoint] {
        let T = Double(frames) / Self.fps
        let vx = (b.x - a.x) / T
        let vy = (b.y - a.y - 0.5 * ay * T * T) / T
        return (0...frames).map { i in
            let t = Double(i) / Self.fps
            return TimedPoint(x: a.x + vx * t, y: a.y + vy * t + 0.5 * ay * t * t,
                              ptsUs: Int64(startFrame + i) * Self.frameUs)
        }
    }

    /// A trajectory observation of `points[0...upTo]` with a least-squares-free exact fit
    /// (the points lie on the parabola by construction).
    func trajectory(uuid: String, points: [TimedPoint], upTo: Int, confidence: Double = 0.95,
                    straight: Bool = false) -> PSWorkerResult {
        let pts = Array(points.prefix(upTo + 1))
        let first = pts.first!, last = pts.last!
        let T = Double(last.ptsUs - first.ptsUs) / 1e6
        let vx = T > 0 ? (last.x - first.x) / T : 0
        // Velocity and acceleration from three points (exact for a parabola in t).
        let mid = pts[pts.count / 2]
        let t1 = Double(mid.ptsUs - first.ptsUs) / 1e6, t2 = T
        var ay = 0.0, vy = 0.0
        if t1 > 0, t2 > t1 {
            let d1 = (mid.y - first.y) / t1, d2 = (last.y - first.y) / t2
            ay = 2 * (d2 - d1) / (t2 - t1)
            vy = d1 - 0.5 * ay * t1
        }
        var o = PSTrajectoryObservation()
        let frame = Int(last.ptsUs / Self.frameUs)
        o.header = header(frame, producer: "trajectory-1")
        o.uuid = uuid
        o.detectedPoints = pts.map(\.wire)
        o.confidence = confidence
        o.timeRangeStartUs = first.ptsUs
        o.timeRangeEndUs = last.ptsUs
        o.x0 = first.x
        o.vx = vx
        o.y0 = first.y
        o.vy = vy
        o.ay = ay
        // y = a x^2 + b x + c from the time fit.
        if vx != 0 && !straight {
            let a = 0.5 * ay / (vx * vx)
            o.a = a
            o.b = vy / vx - 2 * a * first.x
            o.c = first.y - vy / vx * first.x + a * first.x * first.x
        } else {
            o.a = 0
            o.b = vx != 0 ? vy / vx : 0
            o.c = first.y - o.b * first.x
        }
        var r = PSWorkerResult()
        r.trajectory = o
        return r
    }

    /// Observations of one track as the worker reports them: from 15 points on, every frame.
    func observations(uuid: String, points: [TimedPoint], minimum: Int = 15, confidence: Double = 0.95,
                      straight: Bool = false) -> [Int: [PSWorkerResult]] {
        var out: [Int: [PSWorkerResult]] = [:]
        guard points.count >= min(minimum, points.count) else { return out }
        for i in (min(minimum, points.count) - 1)..<points.count {
            let frame = Int(points[i].ptsUs / Self.frameUs)
            out[frame, default: []].append(trajectory(uuid: uuid, points: points, upTo: i, confidence: confidence, straight: straight))
        }
        return out
    }

    // MARK: Poses

    /// Joint positions of the (right-handed) thrower `k` frames from release.
    func pose(_ frame: Int, type: PSThrowType?, k: Int) -> PSWorkerResult {
        var shoulderY = 0.56, hipY = 0.68, kneeR = 0.77, kneeL = 0.77, shoulderX = 0.12
        var theta = 10.0  // arm angle from straight down, positive toward the board
        if let type {
            let kk = Double(k)
            switch type {
            case .overhand:
                if k < -20 { theta = 10 } else if k < -8 { theta = 10 + (200 - 10) * (kk + 20) / 12 }
                else if k <= 0 { theta = 200 - 60 * (kk + 8) / 8 } else { theta = max(60, 140 - 8 * kk) }
            case .underhand:
                if k < -20 { theta = 10 } else if k < -8 { theta = 10 - 70 * (kk + 20) / 12 }
                else if k <= 0 { theta = -60 + 130 * (kk + 8) / 8 } else { theta = min(110, 70 + 4 * kk) }
            case .underleg:
                if k >= -16 && k <= 2 {
                    shoulderY = 0.63; shoulderX = 0.15; kneeR = 0.72
                }
                if k < -20 { theta = 10 } else if k < -8 { theta = 10 - 60 * (kk + 20) / 12 }
                else if k <= 0 { theta = -50 + 110 * (kk + 8) / 8 } else { theta = min(100, 60 + 4 * kk) }
            default:
                theta = 10 + 5 * sin(kk / 3)  // walking about: the arm barely moves
            }
        }
        let rad = theta * .pi / 180
        let seg = 0.065
        let shoulder = Vec2(shoulderX, shoulderY)
        let elbow = Vec2(shoulder.x + seg * sin(rad), shoulder.y + seg * cos(rad))
        let wrist = Vec2(elbow.x + seg * sin(rad + 0.2), elbow.y + seg * cos(rad + 0.2))
        let hip = Vec2(0.12, hipY)
        let joints: [(JointName, Vec2)] = [
            (.nose, Vec2(shoulderX + 0.01, shoulderY - 0.05)), (.neck, shoulder),
            (.rightShoulder, shoulder), (.rightElbow, elbow), (.rightWrist, wrist),
            (.leftShoulder, Vec2(shoulderX - 0.005, shoulderY)), (.leftElbow, Vec2(0.115, shoulderY + 0.065)),
            (.leftWrist, Vec2(0.115, shoulderY + 0.12)),
            (.rightHip, hip), (.rightKnee, Vec2(0.13, kneeR)), (.rightAnkle, Vec2(0.13, 0.84)),
            (.leftHip, hip), (.leftKnee, Vec2(0.12, kneeL)), (.leftAnkle, Vec2(0.12, 0.84)),
            (.rightEye, Vec2(shoulderX + 0.012, shoulderY - 0.06)), (.leftEye, Vec2(shoulderX + 0.008, shoulderY - 0.06)),
            (.rightEar, Vec2(shoulderX, shoulderY - 0.055)), (.leftEar, Vec2(shoulderX - 0.004, shoulderY - 0.055)),
        ]
        var o = PSPoseObservation()
        o.header = header(frame, producer: "pose-1")
        o.present = true
        o.presence = 0.9
        o.joints = joints.map { name, p in
            var j = PSJoint()
            j.name = name.rawValue
            j.position = mp(p).wire
            j.confidence = 0.9
            return j
        }
        var box = PSRect()
        box.x = mx(0.07) - (mirrored ? 0.12 : 0)
        box.y = 0.45
        box.width = 0.12
        box.height = 0.42
        o.personBox = box
        var r = PSWorkerResult()
        r.pose = o
        return r
    }

    // MARK: Whole games

    /// Every result of a game, frame by frame, in arrival order within a frame.
    func results(throws plan: [Throw], frames: Int, extraTracks: [Int: [PSWorkerResult]] = [:]) -> [PSWorkerResult] {
        var tracks = extraTracks
        var censusAt: [Int: (PSBagPlace, UInt32, Vec2?)] = [:]
        for (n, t) in plan.enumerated() {
            let pts = flight(from: mp(Self.release), to: mp(t.landing), startFrame: t.releaseFrame, frames: t.flightFrames, ay: t.ay)
            let seen = Array(pts.dropFirst(t.unseenPoints))
            let parts = t.lostInFlight.map { [Array(seen.prefix($0.after + 1)), Array(seen.dropFirst($0.after + 1 + $0.frames))] } ?? [seen]
            for (k, part) in parts.enumerated() {
                for (f, rs) in observations(uuid: "throw-\(n)" + (k > 0 ? "-again" : ""), points: part) { tracks[f, default: []] += rs }
            }
            var restFrame = t.releaseFrame + t.flightFrames
            if let b = t.bounceTo {
                let bounce = flight(from: mp(t.landing), to: mp(b), startFrame: restFrame + 1, frames: 8, ay: 0.8)
                for (f, rs) in observations(uuid: "bounce-\(n)", points: bounce, minimum: 5) { tracks[f, default: []] += rs }
                restFrame += 9
            }
            if let place = t.censusPlace { censusAt[restFrame + 5] = (place, UInt32(n + 1), t.restsAt) }
        }
        var out: [PSWorkerResult] = []
        for f in 0..<frames {
            out.append(board(f))
            out.append(stability(f))
            let active = plan.first { f >= $0.releaseFrame - 44 && f <= $0.releaseFrame + 40 }
            out.append(pose(f, type: active?.type, k: active.map { f - $0.releaseFrame } ?? 0))
            out += tracks[f] ?? []
            if let (place, id, at) = censusAt[f] { out.append(census(f, place: place, bagID: id, at: at)) }
            for role in ["detection", "trajectory", "pose"] { out.append(frameDone(f, role: role)) }
        }
        return out
    }

    /// Apple's 8-throw game with known outcomes; total 28.
    static func appleGame(start: Int = 60, spacing: Int = 100) -> [Throw] {
        let plan: [(PSThrowType, Vec2, PSBagPlace?)] = [
            (.overhand, hole, .inHole),        // 3
            (.underhand, boardSpot, .onBoard), // 1
            (.underleg, hole, .inHole),        // 15
            (.overhand, missSpot, .onGround),  // 0
            (.underhand, boardSpot, nil),      // 1 (no census: flight only)
            (.underleg, boardSpot, .onBoard),  // 5
            (.overhand, boardSpot, .onGround), // slid off: 0
            (.underhand, hole, .inHole),       // 3
        ]
        return plan.enumerated().map { i, p in
            Throw(type: p.0, landing: p.1, censusPlace: p.2, releaseFrame: start + i * spacing)
        }
    }
    static let appleTotal = 28
    static let applePoints: [Int32] = [3, 1, 15, 0, 1, 5, 0, 3]
}

extension GameScript {
    /// A game on a board where bags slide `slidBags` bags after landing (nil: no bag seen at rest
    /// before), two throws whose bags the census sees at rest, then a third that comes down
    /// 0.8 bags short of the hole's rim and goes from view, beside a pile of two (`pile`) or
    /// nothing. A third throw that slides a bag reaches the hole; one that does not slide stops
    /// short of it. Release frames 60, 160 (the learned throws), then 60 + 100 × their count.
    func slideGame(pile: Bool, slidBags: Double?) -> [PSWorkerResult] {
        let board = Self.board
        let bagSide = board.bagSideX
        let landing = Self.hole - Vec2(board.holeRadiusX + 0.8 * bagSide, 0)
        var plan: [Throw] = []
        if let slidBags {
            for k in 0..<2 {
                plan.append(Throw(type: .overhand, landing: Self.boardSpot, censusPlace: .onBoard, releaseFrame: 60 + 100 * k,
                                  restsAt: Self.boardSpot + Vec2(slidBags * bagSide, 0)))
            }
        }
        let release = 60 + 100 * plan.count
        plan.append(Throw(type: .overhand, landing: landing, censusPlace: nil, releaseFrame: release))
        // Rest states before the release and after the landing: nothing new, and the pile (or
        // nothing) there.
        func quiet(_ frame: Int) -> PSWorkerResult {
            var c = PSBoardCensus()
            c.header = header(frame, producer: "detection-1")
            if pile {
                c.bags = [landing - Vec2(0.3 * bagSide, 0), landing + Vec2(0.3 * bagSide, 0)].enumerated().map { i, p in
                    var b = PSBagAtRest()
                    b.id = UInt32(100 + i)
                    b.position = mp(p).wire
                    b.place = .onBoard
                    return b
                }
                c.onBoard = 2
            }
            var r = PSWorkerResult()
            r.census = c
            return r
        }
        return results(throws: plan, frames: release + 220,
                       extraTracks: [release - 10: [quiet(release - 10)], release + 35: [quiet(release + 35)]])
    }
}

extension Array where Element == PSGameEvent {
    var throwEvents: [PSThrowCompleted] { compactMap { if case .throwCompleted(let t) = $0.event { return t } else { return nil } } }
    var summaries: [PSGameSummary] { compactMap { if case .summary(let s) = $0.event { return s } else { return nil } } }
    var stateChanges: [PSStateChanged] { compactMap { if case .stateChanged(let s) = $0.event { return s } else { return nil } } }
    var scoreUpdates: [PSScoreUpdate] { compactMap { if case .scoreUpdate(let s) = $0.event { return s } else { return nil } } }
}

extension Array where Element == PSWorkerResult {
    /// These results with every pose observation passed through `change`.
    func changingPoses(_ change: (inout PSPoseObservation) -> Void) -> [PSWorkerResult] {
        changing(change, get: { if case .pose(let o)? = $0.result { o } else { nil } }, set: { $0.pose = $1 })
    }

    /// These results with every trajectory observation passed through `change`.
    func changingTrajectories(_ change: (inout PSTrajectoryObservation) -> Void) -> [PSWorkerResult] {
        changing(change, get: { if case .trajectory(let o)? = $0.result { o } else { nil } }, set: { $0.trajectory = $1 })
    }

    private func changing<O>(_ change: (inout O) -> Void, get: (PSWorkerResult) -> O?,
                             set: (inout PSWorkerResult, O) -> Void) -> [PSWorkerResult] {
        map { r in
            guard var o = get(r) else { return r }
            change(&o)
            var changed = r
            set(&changed, o)
            return changed
        }
    }
}

/// Runs results through a game, collecting every event.
func play(_ game: inout Game, _ results: [PSWorkerResult]) -> [PSGameEvent] {
    var events: [PSGameEvent] = []
    for r in results { events += game.handle(r) }
    return events
}

extension PSCensusChange {
    /// A census change of `kind` for bag `bagID`, now at `place`.
    static func of(_ kind: PSCensusChangeKind, bagID: UInt32, place: PSBagPlace) -> PSCensusChange {
        var c = PSCensusChange()
        c.kind = kind
        c.bagID = bagID
        c.place = place
        return c
    }
}

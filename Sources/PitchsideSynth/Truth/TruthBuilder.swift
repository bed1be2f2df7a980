import Foundation

@inline(__always) func round(_ v: Double, _ places: Double) -> Double { (v * places).rounded() / places }
@inline(__always) func r5(_ v: Double) -> Double { round(v, 100_000) }
@inline(__always) func r3(_ v: Double) -> Double { round(v, 1000) }
@inline(__always) func r2(_ v: Double) -> Double { round(v, 100) }

/// Measures a planned game the way the pipeline should: board corners, hole ellipse and scale as
/// projected, joints per frame, throws, censuses and totals.
public enum TruthBuilder {
    public static func build(plan: GamePlan, videoFile: String = "game.mp4") -> GroundTruth {
        let s = plan.settings
        let w = Double(s.width), h = Double(s.height)
        func norm(_ p: Pixel) -> [Double] { [r5(p.x / w), r5(p.y / h)] }
        func pix(_ p: Pixel) -> [Double] { [r2(p.x), r2(p.y)] }

        let settledFrame = plan.offsets.count
        let base = plan.camera
        let (corners, hole, mpp) = boardGeometry(plan: plan, camera: base)
        let standing = BodyPose(angles: PoseAngles(ActionLibrary.idleAngles), root: plan.throwSpot,
                                facingDegrees: 35 * plan.cameraSign, height: s.players[0].height)
        let fraction = (base.project(Vec3(plan.throwSpot.x, 0, plan.throwSpot.z)).y
            - base.project(standing.head + Vec3(0, 0.0667 * standing.height, 0)).y) / h

        var frames: [FrameTruth] = []
        frames.reserveCapacity(plan.frameCount)
        for i in 0..<plan.frameCount {
            let t = plan.time(ofFrame: i)
            let camera = plan.camera(atFrame: i)
            let dx = Double(camera.offsetX), dy = Double(camera.offsetY)
            let shifted = corners.map { Pixel($0.x + dx, $0.y + dy) }
            var e = hole
            e.cx = r5((hole.cx * w + dx) / w)
            e.cy = r5((hole.cy * h + dy) / h)
            let joints = plan.players.map { player -> [[Double]] in
                player.pose(at: t).body.joints.map { j in
                    let p = camera.project(j)
                    let inside = p.x >= 0 && p.x < w && p.y >= 0 && p.y < h
                    return [r5(p.x / w), r5(p.y / h), inside ? 1 : 0]
                }
            }
            frames.append(FrameTruth(
                index: i, time: r5(t), settled: i >= settledFrame, offset: [camera.offsetX, camera.offsetY],
                boardCorners: shifted.map(norm), hole: e, metresPerPixel: round(mpp, 1e7), joints: joints,
                actions: plan.players.map { $0.action(at: t).rawValue }))
        }

        var throwsTruth: [ThrowTruth] = []
        for thrown in plan.throwsPlanned {
            let path = thrown.path
            let releaseFrame = Int((thrown.releaseTime * Double(s.fps)).rounded())
            let landingFrame = plan.frame(atOrAfter: thrown.landingTime)
            let restFrame = plan.frame(atOrAfter: thrown.restTime)
            var flight: [[Double]] = []
            var after: [[Double]] = []
            var shadow: [[Double]] = []
            for f in releaseFrame...max(restFrame, releaseFrame) {
                let tau = plan.time(ofFrame: f) - thrown.releaseTime
                let camera = plan.camera(atFrame: f)
                let p = camera.project(path.position(at: tau))
                if tau <= path.landingTime { flight.append([Double(f), r2(p.x), r2(p.y)]) } else {
                    after.append([Double(f), r2(p.x), r2(p.y)])
                }
                if let s = plan.shadow(of: thrown, at: plan.time(ofFrame: f)) {
                    let c = camera.project(s.base)
                    shadow.append([Double(f), r2(c.x), r2(c.y)])
                }
            }
            let releaseCamera = plan.camera(atFrame: releaseFrame)
            let body = plan.players[thrown.player].pose(at: thrown.releaseTime - 1e-9).body
            let elbow = releaseCamera.project(body.rightElbow), wrist = releaseCamera.project(body.rightWrist)
            let releaseAngle = degrees(atan2(-(wrist.y - elbow.y), abs(wrist.x - elbow.x)))
            let points = throwPoints(thrown.outcome, style: thrown.style, rules: s.rules)
            throwsTruth.append(ThrowTruth(
                index: thrown.index, player: s.players[thrown.player].name, playerIndex: thrown.player,
                inning: thrown.inning, style: thrown.style, releaseFrame: releaseFrame,
                releaseTime: r5(thrown.releaseTime), landingFrame: landingFrame, landingTime: r5(thrown.landingTime),
                restFrame: restFrame, restTime: r5(thrown.restTime), outcome: thrown.outcome,
                firstContact: path.firstContact, place: path.place, points: points,
                releaseSpeedMps: r3(path.speed), releaseSpeedMph: r3(path.speed * 2.236_936),
                launchAngleDeg: r3(path.launchDegrees), releaseAngleDeg: r3(releaseAngle),
                releasePixel: pix(releaseCamera.project(path.release)),
                landingPixel: pix(plan.camera(atFrame: landingFrame).project(path.landingPoint)),
                restPixel: pix(plan.camera(atFrame: restFrame).project(path.restPosition)),
                restWorld: [r3(path.restPosition.x), r3(path.restPosition.y), r3(path.restPosition.z)],
                bagID: thrown.bagID, bagColor: thrown.bagColor, flight: flight, afterLanding: after, shadow: shadow))
        }

        func bagTruth(_ b: RestingBag, camera: PinholeCamera) -> BagTruth {
            BagTruth(id: b.id, playerIndex: b.player, throwIndex: b.throwIndex, color: b.color, place: b.place,
                     world: [r3(b.position.x), r3(b.position.y), r3(b.position.z)],
                     position: norm(camera.project(b.position)),
                     hidden: BagVisibility.isHidden(b, board: plan.board, cameraSign: plan.cameraSign, camera: camera))
        }
        var censuses: [CensusTruth] = []
        for thrown in plan.throwsPlanned {
            let frame = plan.frame(atOrAfter: thrown.restTime)
            let t = plan.time(ofFrame: frame)
            let camera = plan.camera(atFrame: frame)
            let bags = plan.restingBags.filter { $0.isPresent(at: t) }.map { bagTruth($0, camera: camera) }
            censuses.append(CensusTruth(
                afterThrow: thrown.index, frame: frame, time: r5(t), bags: bags,
                onBoard: bags.filter { $0.place == .onBoard }.count, inHole: bags.filter { $0.place == .inHole }.count,
                onGround: bags.filter { $0.place == .onGround }.count))
        }

        var actions: [ActionTruth] = []
        for (i, player) in plan.players.enumerated() {
            for seg in player.segments where seg.end > seg.start {
                if let last = actions.last, last.playerIndex == i, last.action == seg.action, seg.action == .idle {
                    actions[actions.count - 1].endTime = r5(seg.end)
                    actions[actions.count - 1].endFrame = plan.frame(atOrAfter: seg.end)
                    continue
                }
                actions.append(ActionTruth(
                    playerIndex: i, action: seg.action, startFrame: plan.frame(atOrAfter: seg.start),
                    endFrame: plan.frame(atOrAfter: seg.end), startTime: r5(seg.start), endTime: r5(seg.end)))
            }
        }

        let distractors = plan.distractors.map { d in
            let startFrame = plan.frame(atOrAfter: d.start)
            let endFrame = min(plan.frame(atOrAfter: d.end), plan.frameCount - 1)
            // The figure's size: a bird's wingspan, a person's body.
            let (span, tall, middle) = d.kind == .bird ? (0.6, 0.3, 0.0) : (0.7, 1.8, 0.9)
            var path: [[Double]] = []
            var extent = [0.0, 0.0]
            for f in startFrame...max(endFrame, startFrame) {
                guard let p = d.position(at: plan.time(ofFrame: f)) else { continue }
                let camera = plan.camera(atFrame: f)
                let c = camera.project(p + Vec3(0, middle, 0))
                path.append([Double(f), r2(c.x), r2(c.y)])
                let scale = camera.scale(at: p)
                extent = [max(extent[0], span * scale), max(extent[1], tall * scale)]
            }
            return DistractorTruth(kind: d.kind, startFrame: startFrame, endFrame: endFrame,
                                   startPixel: pix(base.project(d.from)), endPixel: pix(base.project(d.to)),
                                   path: path, extentPixels: extent.map(r2))
        }

        return GroundTruth(
            seed: s.seed, settings: s,
            video: VideoTruth(file: videoFile, width: s.width, height: s.height, fps: s.fps,
                              frameCount: plan.frameCount, durationSeconds: r5(plan.duration)),
            camera: CameraTruth(position: [r3(base.position.x), r3(base.position.y), r3(base.position.z)],
                                focalPixels: r3(base.focal), settleSeconds: s.camera.settleSeconds,
                                firstSettledFrame: settledFrame, throwerHeightFraction: r3(fraction)),
            board: BoardTruth(frontX: plan.board.frontX, frontHeight: r5(plan.board.frontHeight),
                              inclineDegrees: r3(plan.board.inclineDegrees), color: s.boardColor,
                              corners: corners.map(norm), hole: hole, metresPerPixel: round(mpp, 1e7)),
            throwsTruth: throwsTruth, actions: actions, censuses: censuses,
            initialBags: plan.restingBags.filter { $0.throwIndex == nil }.map { bagTruth($0, camera: base) },
            distractors: distractors, totals: plan.totals, frames: frames)
    }

    /// The board's top corners (pixels, back-left, back-right, front-right, front-left as seen),
    /// the hole's ellipse and metres per pixel, for a camera without offset.
    public static func boardGeometry(plan: GamePlan, camera: PinholeCamera) -> ([Pixel], EllipseTruth, Double) {
        let board = plan.board
        let half = BoardModel.width / 2
        let sign = plan.cameraSign
        // "Back" is the long edge farther from the camera (higher in the picture).
        let back = [board.point(s: 0, w: -half * sign), board.point(s: BoardModel.length, w: -half * sign)]
            .map(camera.project).sorted { $0.x < $1.x }
        let front = [board.point(s: 0, w: half * sign), board.point(s: BoardModel.length, w: half * sign)]
            .map(camera.project).sorted { $0.x < $1.x }
        let corners = [back[0], back[1], front[1], front[0]]
        // Hole: moments of points spread evenly round the circle.
        let n = 256
        var pts: [Pixel] = []
        for i in 0..<n {
            let a = 2 * Double.pi * Double(i) / Double(n)
            pts.append(camera.project(board.point(s: board.holeS + board.holeRadius * cos(a),
                                                  w: board.holeRadius * sin(a))))
        }
        let mx = pts.map(\.x).reduce(0, +) / Double(n), my = pts.map(\.y).reduce(0, +) / Double(n)
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for p in pts {
            sxx += (p.x - mx) * (p.x - mx)
            syy += (p.y - my) * (p.y - my)
            sxy += (p.x - mx) * (p.y - my)
        }
        sxx /= Double(n)
        syy /= Double(n)
        sxy /= Double(n)
        let tr = sxx + syy, det = sxx * syy - sxy * sxy
        let disc = max(tr * tr / 4 - det, 0).squareRoot()
        let l1 = tr / 2 + disc, l2 = max(tr / 2 - disc, 0)
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        let w = Double(plan.settings.width), h = Double(plan.settings.height)
        let a = (2 * l1).squareRoot(), b = (2 * l2).squareRoot()
        let hole = EllipseTruth(cx: r5(mx / w), cy: r5(my / h), rx: r5(a / w), ry: r5(b / h), rxPixels: r3(a),
                                ryPixels: r3(b), angleDeg: r3(degrees(angle)))
        let lengthPixels = camera.project(board.point(s: 0, w: 0)).distance(to: camera.project(board.point(s: BoardModel.length, w: 0)))
        return (corners, hole, BoardModel.length / lengthPixels)
    }
}

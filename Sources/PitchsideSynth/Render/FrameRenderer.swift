import CCairo
import Foundation
import PitchsideCore

/// Renders a planned game frame by frame into RGB images.
///
/// What does not move is drawn once into a larger cached layer (redrawn only when a bag comes to
/// rest); each frame copies its window of that layer (the settle offset), draws what moves, then
/// applies the nuisances. Render frames in order for speed; any order gives the same pixels.
public final class FrameRenderer {
    public let plan: GamePlan
    let margin: Int
    let staticCanvas: CairoCanvas
    var staticKey: [Int]? = nil
    let canvas: CairoCanvas
    let post: PostProcess
    let farLooks = PlayerSettings(name: "far", height: 1.75, skin: RGB(200, 160, 130), hair: RGB(50, 40, 30),
                                  shirt: RGB(110, 110, 150), trousers: RGB(60, 60, 70), shoes: RGB(40, 40, 40),
                                  bag: RGB(0, 0, 0))

    public init(plan: GamePlan) {
        self.plan = plan
        let maxOffset = plan.offsets.map { max(abs($0.0), abs($0.1)) }.max() ?? 0
        margin = maxOffset + 2
        staticCanvas = CairoCanvas(width: plan.settings.width + 2 * margin, height: plan.settings.height + 2 * margin)
        canvas = CairoCanvas(width: plan.settings.width, height: plan.settings.height)
        post = PostProcess(width: plan.settings.width, height: plan.settings.height, nuisances: plan.settings.nuisances,
                           seed: plan.settings.seed)
    }

    /// The bags lying still (and visible) at time t.
    func bagsAtRest(at t: Double) -> [RestingBag] {
        plan.restingBags.filter { $0.isPresent(at: t) && $0.place != .inHole }
    }

    /// Draws frame i and returns it with the nuisances applied.
    public func render(frame i: Int) -> ImageBuffer {
        draw(frame: i)
        return post.apply(canvas, frame: i)
    }

    /// Draws frame i without nuisances and writes it as a PNG.
    public func writeCleanPNG(frame i: Int, to path: String) {
        draw(frame: i)
        canvas.writePNG(path)
    }

    func draw(frame i: Int) {
        let t = plan.time(ofFrame: i)
        let camera = plan.camera(atFrame: i)
        let resting = bagsAtRest(at: t)
        let key = resting.map(\.id)
        if key != staticKey {
            var c = plan.camera
            c.offsetX = margin
            c.offsetY = margin
            ScenePainter(plan: plan).paint(staticCanvas, camera: c, bags: resting)
            cairo_surface_flush(staticCanvas.surface)
            staticKey = key
        }
        canvas.copy(from: staticCanvas, x0: margin - camera.offsetX, y0: margin - camera.offsetY)
        drawMoving(at: t, camera: camera)
        cairo_surface_flush(canvas.surface)
    }

    func drawMoving(at t: Double, camera: PinholeCamera) {
        let fps = Double(plan.settings.fps)
        for d in plan.distractors where d.kind == .farPerson {
            if let p = d.position(at: t) {
                let cycle = (t - d.start) * 0.9  // strides per second
                let facing = (d.to.x > d.from.x ? 0 : 180) + (d.to.x > d.from.x ? 1 : -1) * 35 * plan.cameraSign
                let body = BodyPose(angles: ActionLibrary.walk(cycle: cycle, holdsBag: false), root: p,
                                    facingDegrees: facing, height: 1.75)
                PlayerPainter(looks: farLooks).paint(canvas, camera: camera, body: body, bag: nil)
            }
        }
        // Bags in motion: shadows first.
        let moving = plan.throwsPlanned.filter { t >= $0.releaseTime && t < $0.restTime }
        for thrown in moving {
            guard let shadow = plan.shadow(of: thrown, at: t) else { continue }
            let base = shadow.base, height = shadow.height
            let c = camera.project(base)
            let scale = camera.scale(at: base)
            let ry = abs(camera.project(base + Vec3(0, 0, 0.1)).y - c.y)
            canvas.shadow(c, rx: 0.1 * scale * (1 + height * 0.3), ry: max(ry, 1), alpha: 0.4 * clamp(1 - height / 5, 0.1, 1))
        }
        // Players, far one first.
        let bodies = plan.players.map { $0.pose(at: t) }
        let order = bodies.indices.sorted { camera.depth(bodies[$0].body.neck) > camera.depth(bodies[$1].body.neck) }
        for i in order {
            let (body, holds) = bodies[i]
            PlayerPainter(looks: plan.settings.players[i]).paint(
                canvas, camera: camera, body: body, bag: holds ? plan.settings.players[i].bag : nil)
        }
        for thrown in moving {
            drawBag(thrown, at: t - thrown.releaseTime, camera: camera, fps: fps)
        }
        for d in plan.distractors where d.kind == .bird {
            if let p = d.position(at: t) { drawBird(at: p, t: t, camera: camera) }
        }
    }

    func drawBag(_ thrown: PlannedThrow, at tau: Double, camera: PinholeCamera, fps: Double) {
        let path = thrown.path
        let phase = path.phase(at: tau)
        let spinRate = 9.0 + Double(thrown.index % 3) * 3
        switch phase {
        case .flight, .falling:
            if plan.settings.nuisances.motionBlur {
                // Average of sub-exposures, summed in a group so that the result is a true mean.
                let samples = 5
                let exposure = 0.5 / fps
                let cr = canvas.cr
                cairo_push_group(cr)
                cairo_set_operator(cr, CAIRO_OPERATOR_ADD)
                for k in 0..<samples {
                    let dt = (Double(k) / Double(samples - 1) - 0.5) * exposure
                    let s = max(tau + dt, 0)
                    BagPainter.flying(canvas, camera: camera, centre: path.position(at: s), spin: spinRate * s,
                                      tumble: 6 * s, color: thrown.bagColor, alpha: 1 / Double(samples))
                }
                cairo_pop_group_to_source(cr)
                cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
                cairo_paint(cr)
            } else {
                BagPainter.flying(canvas, camera: camera, centre: path.position(at: tau), spin: spinRate * tau,
                                  tumble: 6 * tau, color: thrown.bagColor)
            }
        case .sliding, .rest:
            let p = path.position(at: tau)
            let (s, w, hb) = plan.board.surfaceCoordinates(p)
            let onBoard = plan.board.isOnTop(s: s, w: w) && abs(hb - BagPhysics.halfThickness) < 0.01
            BagPainter.lying(canvas, camera: camera, centre: p, yawDegrees: thrown.lyingYaw,
                             along: onBoard ? plan.board.uphill : Vec3(1, 0, 0), normal: onBoard ? plan.board.normal : .up,
                             color: thrown.bagColor)
        case .dropping:
            // Sinking into the hole: only what is inside the hole's outline shows.
            let p = path.position(at: tau)
            let cr = canvas.cr
            cairo_save(cr)
            canvas.polygon(BoardPainter(board: plan.board, color: plan.settings.boardColor, sign: plan.cameraSign)
                .circle(radius: plan.board.holeRadius).map(camera.project))
            cairo_clip(cr)
            let depth = plan.board.surfaceCoordinates(p).height
            BagPainter.lying(canvas, camera: camera, centre: p, yawDegrees: 0, along: plan.board.uphill,
                             normal: plan.board.normal, color: thrown.bagColor.scaled(clamp(1 + depth * 3, 0.2, 1)))
            cairo_restore(cr)
        case .gone:
            break
        }
    }

    func drawBird(at p: Vec3, t: Double, camera: PinholeCamera) {
        let flap = sin(t * 2 * Double.pi * 4)
        let c = camera.project(p)
        let l = camera.project(p + Vec3(-0.3, 0.12 * flap, 0))
        let r = camera.project(p + Vec3(0.3, 0.12 * flap, 0))
        let w = max(0.06 * camera.scale(at: p), 1.5)
        let cr = canvas.cr
        canvas.setColor(RGB(35, 30, 30))
        cairo_set_line_width(cr, w)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_new_path(cr)
        cairo_move_to(cr, l.x, l.y)
        cairo_line_to(cr, c.x, c.y)
        cairo_line_to(cr, r.x, r.y)
        cairo_stroke(cr)
    }
}

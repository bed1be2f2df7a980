import CCairo
import Foundation

/// Draws what does not move once the camera is fixed: sky, background, textured ground, the
/// board in perspective with its graphics and hole, and the bags at rest.
struct ScenePainter {
    let plan: GamePlan

    var sign: Double { plan.cameraSign }

    func paint(_ canvas: CairoCanvas, camera: PinholeCamera, bags: [RestingBag]) {
        let settings = plan.settings
        var rng = SplitMix64(seed: settings.seed, stream: 10)
        let cr = canvas.cr
        let w = Double(canvas.width), h = Double(canvas.height)

        // Sky down to the horizon.
        var flat = camera.forward
        flat.y = 0
        let horizon = camera.project(camera.position + flat.normalized * 1e5 - Vec3(0, camera.position.y, 0)).y
        let sky = cairo_pattern_create_linear(0, 0, 0, max(horizon, 1))
        cairo_pattern_add_color_stop_rgb(sky, 0, 0.50, 0.68, 0.88)
        cairo_pattern_add_color_stop_rgb(sky, 1, 0.82, 0.88, 0.94)
        cairo_set_source(cr, sky)
        cairo_rectangle(cr, 0, 0, w, h)
        cairo_fill(cr)
        cairo_pattern_destroy(sky)

        // Ground.
        let ground = settings.groundColor
        canvas.fillPolygon([Pixel(-10, horizon), Pixel(w + 10, horizon), Pixel(w + 10, h + 10), Pixel(-10, h + 10)], ground)

        // Background: a line of trees, or a plain wall, far behind the court.
        let backZ = -sign * 28
        if settings.nuisances.texturedBackground {
            canvas.fillPolygon([(-60, 0), (70, 0), (70, 3.2), (-60, 3.2)].map { camera.project(Vec3($0.0, $0.1, backZ)) },
                               RGB(52, 84, 46))
            var x = -60.0
            while x < 70 {
                let r = rng.uniform(1.4, 3.0)
                let c = camera.project(Vec3(x, 3.0 + rng.uniform(-0.3, 1.0), backZ))
                let shade = rng.uniform(0.75, 1.2)
                canvas.fillEllipse(c, rx: r * camera.scale(at: Vec3(x, 3, backZ)), ry: r * camera.scale(at: Vec3(x, 3, backZ)),
                                   RGB(52, 84, 46).scaled(shade))
                x += r * rng.uniform(0.8, 1.4)
            }
            // Leaf texture.
            let count = Int(w * h / 900)
            for _ in 0..<count {
                let p = Vec3(rng.uniform(-60, 70), rng.uniform(0, 4.5), backZ)
                let c = camera.project(p)
                guard c.x > -5, c.x < w + 5, c.y > -5, c.y < h + 5 else { continue }
                canvas.fillEllipse(c, rx: rng.uniform(1, 3), ry: rng.uniform(1, 2.5),
                                   rng.chance(0.5) ? RGB(36, 64, 34) : RGB(84, 118, 64), alpha: 0.6)
            }
        } else {
            canvas.fillPolygon([(-60, 0), (70, 0), (70, 2.2), (-60, 2.2)].map { camera.project(Vec3($0.0, $0.1, backZ)) },
                               RGB(150, 140, 128))
        }
        // Re-lay the ground in front of the background's foot.
        let foot = camera.project(Vec3(0, 0, backZ)).y
        canvas.fillPolygon([Pixel(-10, foot), Pixel(w + 10, foot), Pixel(w + 10, h + 10), Pixel(-10, h + 10)], ground)

        if settings.nuisances.texturedGround {
            cairo_save(cr)
            cairo_rectangle(cr, 0, foot, w, h - foot)
            cairo_clip(cr)
            defer { cairo_restore(cr) }
            let nearZ = sign * plan.settings.camera.distance * 0.85
            // Large soft patches, then blades of grass (or grit), placed in the world.
            for _ in 0..<60 {
                let p = Vec3(rng.uniform(-10, 20), 0, rng.uniform(min(backZ, nearZ), max(backZ, nearZ)))
                let r = rng.uniform(0.4, 1.6)
                let c = camera.project(p)
                let rx = abs(camera.project(p + Vec3(r, 0, 0)).x - c.x)
                let ry = abs(camera.project(p + Vec3(0, 0, r)).y - c.y)
                canvas.fillEllipse(c, rx: rx, ry: ry, ground.scaled(rng.chance(0.5) ? 0.82 : 1.15), alpha: 0.35)
            }
            let count = Int(w * h / 250)
            cairo_set_line_width(cr, 1)
            for _ in 0..<count {
                let p = Vec3(rng.uniform(-10, 20), 0, rng.uniform(min(backZ, nearZ), max(backZ, nearZ)))
                let a = camera.project(p)
                guard a.x > -5, a.x < w + 5, a.y > foot, a.y < h + 5 else { continue }
                let b = camera.project(p + Vec3(rng.uniform(-0.02, 0.02), 0.06, 0))
                canvas.setColor(ground.scaled(rng.chance(0.5) ? 0.7 : 1.3), alpha: 0.8)
                cairo_new_path(cr)
                cairo_move_to(cr, a.x, a.y)
                cairo_line_to(cr, b.x, b.y)
                cairo_stroke(cr)
            }
        }

        // Bags on the ground behind the board, then the board, then the rest.
        let board = plan.board
        for bag in bags where bag.liesBehindBoard(board, cameraSign: sign) {
            BagPainter.resting(canvas, camera: camera, bag: bag, board: board)
        }
        BoardPainter(board: board, color: settings.boardColor, sign: sign).paint(canvas, camera: camera)
        for bag in bags where !bag.liesBehindBoard(board, cameraSign: sign) {
            BagPainter.resting(canvas, camera: camera, bag: bag, board: board)
        }
    }
}

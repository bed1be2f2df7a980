import CCairo
import Foundation

/// Draws the board in perspective: legs, the inclined top with a border stripe and a ring around
/// the dark hole, the front face and the side rail the camera sees.
struct BoardPainter {
    let board: BoardModel
    let color: RGB
    /// +1 when the camera is on the +z side.
    let sign: Double

    func paint(_ canvas: CairoCanvas, camera: PinholeCamera) {
        let half = BoardModel.width / 2
        let near = half * sign, far = -half * sign
        let length = BoardModel.length
        let faces = BoardFaces(board: board, sign: sign)
        canvas.fillPolygon(faces.farLeg.map(camera.project), color.scaled(0.45))

        // The top surface.
        let top = faces.top.map(camera.project)
        canvas.fillPolygon(top, color)
        // Graphics: an inset border stripe and a ring around the hole.
        let accent = color.luma > 140 ? color.scaled(0.72) : RGB(235, 235, 230)
        let inset = 0.04, band = 0.025
        let outer = [board.point(s: inset, w: near - sign * inset), board.point(s: inset, w: far + sign * inset),
                     board.point(s: length - inset, w: far + sign * inset),
                     board.point(s: length - inset, w: near - sign * inset)].map(camera.project)
        let i2 = inset + band
        let inner = [board.point(s: i2, w: near - sign * i2), board.point(s: i2, w: far + sign * i2),
                     board.point(s: length - i2, w: far + sign * i2),
                     board.point(s: length - i2, w: near - sign * i2)].map(camera.project)
        let cr = canvas.cr
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        canvas.polygon(outer)
        appendPolygon(cr, inner)
        canvas.setColor(accent)
        cairo_fill(cr)
        let ring = circle(radius: board.holeRadius + 0.05).map(camera.project)
        let ringInner = circle(radius: board.holeRadius + 0.028).map(camera.project)
        canvas.polygon(ring)
        appendPolygon(cr, ringInner)
        canvas.setColor(accent)
        cairo_fill(cr)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        // The hole: dark, with a slightly lighter inner wall toward the camera.
        canvas.fillPolygon(circle(radius: board.holeRadius).map(camera.project), RGB(22, 20, 18))

        // The front face.
        canvas.fillPolygon(faces.front.map(camera.project), color.scaled(0.62))
        // The side rail toward the camera and its leg.
        canvas.fillPolygon(faces.nearRail.map(camera.project), color.scaled(0.75))
        canvas.fillPolygon(faces.nearLeg.map(camera.project), color.scaled(0.55))
        // A thin darker line along the top's edges gives the board a crisp outline.
        canvas.polygon(top)
        canvas.setColor(color.scaled(0.55))
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
    }

    /// Points of a circle on the top around the hole's centre.
    func circle(radius: Double, count: Int = 48) -> [Vec3] {
        (0..<count).map { i in
            let a = 2 * Double.pi * Double(i) / Double(count)
            return board.point(s: board.holeS + radius * cos(a), w: radius * sin(a))
        }
    }

    private func appendPolygon(_ cr: OpaquePointer, _ points: [Pixel]) {
        guard let first = points.first else { return }
        cairo_move_to(cr, first.x, first.y)
        for p in points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
        cairo_close_path(cr)
    }
}

/// The board's faces the camera sees, in the world, as `BoardPainter` draws them; what the
/// truth's hidden bags are measured against.
struct BoardFaces {
    let farLeg: [Vec3]
    let top: [Vec3]
    let front: [Vec3]
    let nearRail: [Vec3]
    let nearLeg: [Vec3]

    /// `sign` is +1 when the camera is on the +z side.
    init(board: BoardModel, sign: Double) {
        let half = BoardModel.width / 2
        let near = half * sign, far = -half * sign
        let length = BoardModel.length
        let rail = Vec3(0, -BoardModel.railDepth, 0)
        let legX = length - 0.06
        func leg(_ w: Double) -> [Vec3] {
            let top = board.point(s: legX, w: w) + rail
            let topB = board.point(s: legX + 0.05, w: w) + rail
            return [top, topB, Vec3(topB.x, 0, w), Vec3(top.x, 0, w)]
        }
        farLeg = leg(far)
        top = [board.point(s: 0, w: near), board.point(s: 0, w: far), board.point(s: length, w: far),
               board.point(s: length, w: near)]
        front = [board.point(s: 0, w: near), board.point(s: 0, w: far), Vec3(board.frontX, 0, far),
                 Vec3(board.frontX, 0, near)]
        nearRail = [board.point(s: 0, w: near), board.point(s: length, w: near),
                    board.point(s: length, w: near) + rail, board.point(s: 0, w: near) + rail]
        nearLeg = leg(near)
    }

    /// Every face: together, the board's outline in the picture.
    var all: [[Vec3]] { [farLeg, top, front, nearRail, nearLeg] }
}

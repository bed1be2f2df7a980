import CCairo
import Foundation

/// Draws bags: tumbling squares in flight, flat squares with a visible thickness at rest.
enum BagPainter {
    static let half = BagPhysics.side / 2

    /// A bag in the air (or in a hand): a square facing the camera, spinning in the picture's
    /// plane and foreshortened as it tumbles.
    static func flying(_ canvas: CairoCanvas, camera: PinholeCamera, centre: Vec3, spin: Double, tumble: Double,
                       color: RGB, alpha: Double = 1) {
        let e1 = (camera.right * cos(spin) + camera.up * sin(spin)) * half
        let squash = 0.55 + 0.45 * abs(cos(tumble))
        let e2 = (camera.right * -sin(spin) + camera.up * cos(spin)) * (half * squash)
        let corners = [centre + e1 + e2, centre - e1 + e2, centre - e1 - e2, centre + e1 - e2].map(camera.project)
        canvas.fillPolygon(corners, color, alpha: alpha)
        if alpha >= 1 {
            canvas.polygon(corners)
            canvas.setColor(color.scaled(0.6))
            cairo_set_line_width(canvas.cr, 1)
            cairo_stroke(canvas.cr)
        }
    }

    /// A bag lying on a surface whose unit normal is `normal` and whose downhill-to-uphill
    /// direction is `along`.
    static func lying(_ canvas: CairoCanvas, camera: PinholeCamera, centre: Vec3, yawDegrees: Double,
                      along: Vec3, normal: Vec3, color: RGB) {
        let faces = lyingFaces(centre: centre, yawDegrees: yawDegrees, along: along, normal: normal)
        // The sides: the hull of both squares in a darker shade, then the top.
        for side in faces.dropLast() { canvas.fillPolygon(side.map(camera.project), color.scaled(0.62)) }
        canvas.fillPolygon(faces[4].map(camera.project), color)
    }

    /// The faces `lying` draws, in the world: the four sides, then the top.
    static func lyingFaces(centre: Vec3, yawDegrees: Double, along: Vec3, normal: Vec3) -> [[Vec3]] {
        let a = radians(yawDegrees)
        let across = normal.cross(along).normalized
        let e1 = (along * cos(a) + across * sin(a)) * half
        let e2 = (along * -sin(a) + across * cos(a)) * half
        let top = centre + normal * (BagPhysics.halfThickness * 0.8)
        let bottom = centre - normal * (BagPhysics.halfThickness * 0.8)
        let topCorners = [top + e1 + e2, top - e1 + e2, top - e1 - e2, top + e1 - e2]
        let bottomCorners = [bottom + e1 + e2, bottom - e1 + e2, bottom - e1 - e2, bottom + e1 - e2]
        let sides = (0..<4).map { i in
            let j = (i + 1) % 4
            return [topCorners[i], topCorners[j], bottomCorners[j], bottomCorners[i]]
        }
        return sides + [topCorners]
    }

    /// The faces of a bag lying on the ground, as `resting` draws it.
    static func groundFaces(_ bag: RestingBag) -> [[Vec3]] {
        lyingFaces(centre: bag.position, yawDegrees: bag.yawDegrees, along: Vec3(1, 0, 0), normal: .up)
    }

    /// A bag at rest, on the board or the ground.
    static func resting(_ canvas: CairoCanvas, camera: PinholeCamera, bag: RestingBag, board: BoardModel) {
        if bag.place == .onBoard {
            lying(canvas, camera: camera, centre: bag.position, yawDegrees: bag.yawDegrees, along: board.uphill,
                  normal: board.normal, color: bag.color)
        } else if bag.place == .onGround {
            lying(canvas, camera: camera, centre: bag.position, yawDegrees: bag.yawDegrees, along: Vec3(1, 0, 0),
                  normal: .up, color: bag.color)
        }
    }
}

import CCairo
import Foundation

/// Draws a humanoid a pose model recognises: filled capsule limbs in clothing colours, a torso,
/// a skin-coloured head with hair, two eyes, a nose and a mouth, hands and shoes, drawn far part
/// first so that near limbs cover far ones.
struct PlayerPainter {
    let looks: PlayerSettings

    func paint(_ canvas: CairoCanvas, camera: PinholeCamera, body b: BodyPose, bag: RGB?) {
        let h = b.height
        func px(_ p: Vec3) -> Pixel { camera.project(p) }
        func width(_ metres: Double, at p: Vec3) -> Double { metres * camera.scale(at: p) }
        let skin = looks.skin, shirt = looks.shirt, trousers = looks.trousers

        // Shadow on the ground under the feet.
        let feet = (b.rightAnkle + b.leftAnkle) * 0.5
        let ground = Vec3(feet.x, 0, feet.z)
        let g = px(ground)
        let s = camera.scale(at: ground)
        let groundRy = abs(px(ground + Vec3(0, 0, 0.25)).y - g.y)
        canvas.shadow(g, rx: 0.38 * s, ry: max(groundRy, 1.5), alpha: 0.35)

        func outlined(_ a: Vec3, _ c: Vec3, _ metres: Double, _ color: RGB) {
            let wpx = width(metres, at: a)
            canvas.capsule(px(a), px(c), width: wpx + 1.2, color.scaled(0.55))
            canvas.capsule(px(a), px(c), width: wpx, color)
        }
        func arm(right: Bool) {
            let (sh, el, wr, ha) = right
                ? (b.rightShoulder, b.rightElbow, b.rightWrist, b.rightHand)
                : (b.leftShoulder, b.leftElbow, b.leftWrist, b.leftHand)
            outlined(sh, el, 0.055 * h, shirt)
            outlined(el, wr, 0.042 * h, skin)
            let hp = px(ha), r = width(0.022 * h, at: ha)
            canvas.fillEllipse(hp, rx: r + 0.6, ry: r + 0.6, skin.scaled(0.6))
            canvas.fillEllipse(hp, rx: r, ry: r, skin.scaled(0.95))
            if right, let bag {
                BagPainter.flying(canvas, camera: camera, centre: ha + b.forward * 0.03 - Vec3(0, 0.04, 0), spin: 0.3,
                                  tumble: 0, color: bag)
            }
        }
        func leg(right: Bool) {
            let (hip, knee, ankle, toe, heel) = right
                ? (b.rightHip, b.rightKnee, b.rightAnkle, b.rightToe, b.rightHeel)
                : (b.leftHip, b.leftKnee, b.leftAnkle, b.leftToe, b.leftHeel)
            outlined(hip, knee, 0.08 * h, trousers)
            outlined(knee, ankle, 0.062 * h, trousers)
            outlined(heel, toe, 0.04 * h, looks.shoes)
        }
        func torso() {
            let quad = [b.leftShoulder, b.rightShoulder, b.rightHip, b.leftHip].map(px)
            let cr = canvas.cr
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            canvas.polygon(quad)
            canvas.setColor(shirt.scaled(0.55))
            cairo_set_line_width(cr, width(0.085 * h, at: b.neck) + 1.2)
            cairo_stroke_preserve(cr)
            canvas.setColor(shirt)
            cairo_set_line_width(cr, width(0.085 * h, at: b.neck))
            cairo_stroke_preserve(cr)
            cairo_fill(cr)
            // Trousers from the waist down.
            outlined(b.leftHip, b.rightHip, 0.09 * h, trousers)
        }
        func head() {
            outlined(b.neck, b.head, 0.05 * h, skin)
            let c = px(b.head)
            let ry = width(0.0667 * h, at: b.head)
            let rx = ry * 0.82
            let toCamera = (camera.position - b.head).normalized
            // Hair behind and above, then the face.
            let back = px(b.head - b.forward * (0.02 * h) + Vec3(0, 0.012 * h, 0))
            canvas.fillEllipse(back, rx: rx * 1.02, ry: ry * 1.0, looks.hair)
            canvas.fillEllipse(c, rx: rx, ry: ry, skin)
            // Hair cap clipped to the head.
            let cr = canvas.cr
            cairo_save(cr)
            canvas.ellipse(c, rx: rx * 1.04, ry: ry * 1.04)
            cairo_clip(cr)
            let cap = px(b.head - b.forward * (0.035 * h) + Vec3(0, 0.045 * h, 0))
            canvas.fillEllipse(cap, rx: rx * 1.05, ry: ry * 0.8, looks.hair)
            cairo_restore(cr)
            func visible(_ p: Vec3) -> Bool { (p - b.head).normalized.dot(toCamera) > 0.05 }
            // Ears, eyes (white with a dark pupil), nose, mouth.
            for ear in [b.rightEar, b.leftEar] where visible(ear) {
                canvas.fillEllipse(px(ear), rx: rx * 0.16, ry: ry * 0.24, skin.scaled(0.82))
            }
            for eye in [b.rightEye, b.leftEye] where visible(eye) {
                let e = px(eye)
                canvas.fillEllipse(e, rx: max(rx * 0.2, 0.9), ry: max(ry * 0.12, 0.7), RGB(245, 245, 240))
                canvas.fillEllipse(e, rx: max(rx * 0.11, 0.7), ry: max(ry * 0.11, 0.7), RGB(25, 20, 20))
            }
            let n = px(b.nose)
            canvas.fillEllipse(n, rx: max(rx * 0.12, 0.6), ry: max(ry * 0.1, 0.6), skin.scaled(0.75))
            if visible(b.mouth) {
                let m = px(b.mouth)
                canvas.fillEllipse(m, rx: max(rx * 0.26, 0.9), ry: max(ry * 0.07, 0.5), RGB(150, 50, 50))
            }
        }

        // Far to near.
        var parts: [(Double, Int)] = [
            (camera.depth((b.rightShoulder + b.rightHand) * 0.5), 0),
            (camera.depth((b.leftShoulder + b.leftHand) * 0.5), 1),
            (camera.depth((b.rightHip + b.rightAnkle) * 0.5), 2),
            (camera.depth((b.leftHip + b.leftAnkle) * 0.5), 3),
            (camera.depth((b.neck + b.rightHip + b.leftHip) * (1.0 / 3)), 4),
            (camera.depth(b.head), 5),
        ]
        parts.sort { $0.0 > $1.0 }
        for (_, part) in parts {
            switch part {
            case 0: arm(right: true)
            case 1: arm(right: false)
            case 2: leg(right: true)
            case 3: leg(right: false)
            case 4: torso()
            default: head()
            }
        }
    }
}

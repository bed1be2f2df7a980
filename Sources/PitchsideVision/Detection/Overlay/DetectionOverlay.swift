import Foundation
import PitchsideCore

/// Draws detection results onto an RGB copy of a picture, for `inspect board --overlay`.
public enum DetectionOverlay {
    /// The picture with the board outline (green, first corner marked), the hole (yellow) and
    /// each bag (a square in its place's colour: white on board, cyan in hole, magenta on ground).
    public static func draw(board: BoardDetection?, bags: [BagSighting], on image: ImageBuffer) -> ImageBuffer {
        var out = ImageBuffer(width: image.width, height: image.height, layout: .rgb24)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.rgb(x: x, y: y)
                let i = (y * image.width + x) * 3
                out.pixels[i] = p.r; out.pixels[i + 1] = p.g; out.pixels[i + 2] = p.b
            }
        }
        if let b = board?.scaled(toWidth: image.width, height: image.height) {
            for i in 0..<4 { line(&out, b.corners[i], b.corners[(i + 1) % 4], (0, 255, 0)) }
            square(&out, b.corners[0], 3, (0, 255, 0))
            let a = b.hole.angleDegrees * Double.pi / 180
            var prev: PlanePoint?
            for k in 0...48 {
                let t = Double(k) / 48 * 2 * Double.pi
                let u = b.hole.semiMajor * cos(t), v = b.hole.semiMinor * sin(t)
                let p = PlanePoint(b.hole.center.x + u * cos(a) - v * sin(a), b.hole.center.y + u * sin(a) + v * cos(a))
                if let q = prev { line(&out, q, p, (255, 255, 0)) }
                prev = p
            }
        }
        for bag in bags {
            let colour: (UInt8, UInt8, UInt8) = bag.place == .onBoard ? (255, 255, 255) : bag.place == .inHole ? (0, 255, 255) : (255, 0, 255)
            square(&out, bag.center, max(3, Int(bag.area.squareRoot() / 2)), colour)
        }
        return out
    }

    private static func plot(_ img: inout ImageBuffer, _ x: Int, _ y: Int, _ c: (UInt8, UInt8, UInt8)) {
        guard x >= 0, y >= 0, x < img.width, y < img.height else { return }
        let i = (y * img.width + x) * 3
        img.pixels[i] = c.0; img.pixels[i + 1] = c.1; img.pixels[i + 2] = c.2
    }

    private static func line(_ img: inout ImageBuffer, _ a: PlanePoint, _ b: PlanePoint, _ c: (UInt8, UInt8, UInt8)) {
        let n = max(1, Int(max(abs(b.x - a.x), abs(b.y - a.y)).rounded(.up)))
        for k in 0...n {
            let t = Double(k) / Double(n)
            plot(&img, Int(a.x + (b.x - a.x) * t), Int(a.y + (b.y - a.y) * t), c)
        }
    }

    private static func square(_ img: inout ImageBuffer, _ p: PlanePoint, _ r: Int, _ c: (UInt8, UInt8, UInt8)) {
        let x = Int(p.x), y = Int(p.y)
        for d in -r...r {
            plot(&img, x + d, y - r, c); plot(&img, x + d, y + r, c)
            plot(&img, x - r, y + d, c); plot(&img, x + r, y + d, c)
        }
    }
}

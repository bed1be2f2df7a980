import PitchsideCore

/// Draws a pose onto an RGB image: the person box, the skeleton between the
/// 18 joints and a dot per joint (bright when confident, dim when not), for
/// `pitchside inspect pose --overlay`.
public enum PoseOverlay {
    /// Joint pairs drawn as bones.
    public static let bones: [(JointName, JointName)] = [
        (.nose, .neck), (.neck, .rightShoulder), (.neck, .leftShoulder),
        (.rightShoulder, .rightElbow), (.rightElbow, .rightWrist),
        (.leftShoulder, .leftElbow), (.leftElbow, .leftWrist),
        (.rightShoulder, .rightHip), (.leftShoulder, .leftHip), (.rightHip, .leftHip),
        (.rightHip, .rightKnee), (.rightKnee, .rightAnkle), (.leftHip, .leftKnee), (.leftKnee, .leftAnkle),
        (.nose, .rightEye), (.rightEye, .rightEar), (.nose, .leftEye), (.leftEye, .leftEar),
    ]

    /// `image` (converted to RGB when gray) with `pose` drawn on it.
    public static func draw(_ pose: PoseResult, on image: ImageBuffer, minConfidence: Float = 0.5) -> ImageBuffer {
        var canvas = rgb(image)
        let box = pose.personBox
        let corners = [PosePoint(x: box.minX, y: box.minY), PosePoint(x: box.maxX, y: box.minY),
                       PosePoint(x: box.maxX, y: box.maxY), PosePoint(x: box.minX, y: box.maxY)]
        for i in 0..<4 { line(&canvas, corners[i], corners[(i + 1) % 4], color: (255, 220, 0)) }
        for (a, b) in bones {
            let ja = pose.joint(a), jb = pose.joint(b)
            let strong = min(ja.confidence, jb.confidence) >= minConfidence
            // Right side orange, left side cyan, as seen by the person.
            let right = a.rawValue.hasPrefix("right") || b.rawValue.hasPrefix("right")
            let left = a.rawValue.hasPrefix("left") || b.rawValue.hasPrefix("left")
            var color: (UInt8, UInt8, UInt8) = right ? (255, 128, 0) : left ? (0, 200, 255) : (255, 255, 255)
            if !strong { color = (color.0 / 3, color.1 / 3, color.2 / 3) }
            line(&canvas, ja.position, jb.position, color: color)
        }
        for joint in pose.joints {
            let color: (UInt8, UInt8, UInt8) = joint.confidence >= minConfidence ? (255, 0, 0) : (90, 0, 0)
            dot(&canvas, joint.position, radius: max(2, Int(box.height / 100)), color: color)
        }
        return canvas
    }

    static func rgb(_ image: ImageBuffer) -> ImageBuffer {
        if image.layout == .rgb24 { return image }
        var out = ImageBuffer(width: image.width, height: image.height, layout: .rgb24)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let v = image[x, y]
                let o = y * out.stride + x * 3
                out.pixels[o] = v; out.pixels[o + 1] = v; out.pixels[o + 2] = v
            }
        }
        return out
    }

    static func set(_ image: inout ImageBuffer, _ x: Int, _ y: Int, _ color: (UInt8, UInt8, UInt8)) {
        guard x >= 0, y >= 0, x < image.width, y < image.height else { return }
        let o = y * image.stride + x * 3
        image.pixels[o] = color.0; image.pixels[o + 1] = color.1; image.pixels[o + 2] = color.2
    }

    static func line(_ image: inout ImageBuffer, _ a: PosePoint, _ b: PosePoint, color: (UInt8, UInt8, UInt8)) {
        let steps = Int(max(abs(b.x - a.x), abs(b.y - a.y)).rounded(.up))
        guard steps > 0, steps < 100_000 else { return set(&image, Int(a.x), Int(a.y), color) }
        for i in 0...steps {
            let t = Float(i) / Float(steps)
            let x = Int((a.x + (b.x - a.x) * t).rounded()), y = Int((a.y + (b.y - a.y) * t).rounded())
            set(&image, x, y, color)
            set(&image, x + 1, y, color)
            set(&image, x, y + 1, color)
        }
    }

    static func dot(_ image: inout ImageBuffer, _ p: PosePoint, radius: Int, color: (UInt8, UInt8, UInt8)) {
        let cx = Int(p.x.rounded()), cy = Int(p.y.rounded())
        for dy in -radius...radius {
            for dx in -radius...radius where dx * dx + dy * dy <= radius * radius {
                set(&image, cx + dx, cy + dy, color)
            }
        }
    }
}

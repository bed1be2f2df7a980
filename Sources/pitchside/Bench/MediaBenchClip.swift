import Foundation
import PitchsideCore
import PitchsideMedia

/// The synthetic clip `pitchside bench media` decodes: a drifting gradient, moving
/// shapes and per-pixel sensor noise, so the encoder cannot cheat on flat areas.
enum MediaBenchClip {
    /// Encodes `frames` pictures of `width`×`height` to `path` (skipped when the file already exists).
    static func make(path: String, width: Int, height: Int, frames: Int, fps: Int, crf: Int) throws -> Bool {
        if FileManager.default.fileExists(atPath: path) { return false }
        let partial = path + ".partial.mp4"
        let encoder = try VideoEncoder(
            path: partial, width: width, height: height, framesPerSecond: fps, crf: crf, preset: "veryfast")
        var image = ImageBuffer(width: width, height: height, layout: .rgb24)
        var noise: UInt32 = 0x9E37_79B9
        for index in 0..<frames {
            draw(&image, index: index, noise: &noise)
            try encoder.append(image)
        }
        try encoder.finish()
        try FileManager.default.moveItem(atPath: partial, toPath: path)
        return true
    }

    private static func draw(_ image: inout ImageBuffer, index: Int, noise: inout UInt32) {
        let width = image.width, height = image.height
        // Three bodies on different paths, like a thrower, a bag in flight and a passer-by.
        let bodies: [(x: Int, y: Int, r: Int)] = [
            (width / 6 + Int(Double(width / 10) * sin(Double(index) / 20)), height / 2, height / 8),
            ((index * width / 90) % width, height / 3 + Int(Double(height / 5) * sin(Double(index) / 9)), height / 40 + 2),
            (width - (index * 3) % width, height * 3 / 4, height / 12),
        ]
        image.pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<height {
                let row = y * width * 3
                for x in 0..<width {
                    noise ^= noise << 13; noise ^= noise >> 17; noise ^= noise << 5
                    let n = Int(noise & 15) - 8
                    var r = 60 + (x * 100) / width + n
                    var g = 90 + (y * 80) / height + n
                    var b = 70 + ((x + y + index * 4) & 127) / 3 + n
                    for body in bodies {
                        let dx = x - body.x, dy = y - body.y
                        if dx * dx + dy * dy < body.r * body.r { r = 220 + n; g = 60 + n; b = 40 + n }
                    }
                    p[row + x * 3] = UInt8(clamping: r)
                    p[row + x * 3 + 1] = UInt8(clamping: g)
                    p[row + x * 3 + 2] = UInt8(clamping: b)
                }
            }
        }
    }
}

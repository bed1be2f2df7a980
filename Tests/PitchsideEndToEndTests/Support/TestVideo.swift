import Foundation
import PitchsideCore
import PitchsideMedia

/// Small H.264 clips the tests encode themselves: a bright square moving across a
/// mid-grey background, so decoded pixels can be checked against what was drawn.
enum TestVideo {
    static func squarePosition(frame i: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        (16 + (i * 5) % max(1, width - 48), height / 2 - 16)
    }

    static func write(to path: String, width: Int = 320, height: Int = 240, frames: Int = 40, fps: Int = 30) throws {
        let encoder = try VideoEncoder(path: path, width: width, height: height, framesPerSecond: fps)
        for i in 0..<frames {
            var image = ImageBuffer(width: width, height: height, layout: .gray8)
            for k in image.pixels.indices { image.pixels[k] = 96 }
            let p = squarePosition(frame: i, width: width, height: height)
            for y in p.y..<(p.y + 32) { for x in p.x..<(p.x + 32) { image[x, y] = 230 } }
            try encoder.append(image)
        }
        try encoder.finish()
    }

    static func temporaryDirectory() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pitchside-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }
}

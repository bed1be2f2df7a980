import Foundation
import PitchsideCore
import PitchsideMedia

/// Synthetic pictures and clips the media tests encode for themselves.
enum TestClips {
    /// A fresh temporary directory, removed by the caller.
    static func makeDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("pitchside-media-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Where the moving square of frame `index` has its top-left corner.
    static func squareOrigin(index: Int, width: Int, height: Int, side: Int) -> (x: Int, y: Int) {
        let x = 8 + (index * 6) % (width - side - 16)
        let y = height / 2 - side / 2 + Int(Double(height / 4) * sin(Double(index) / 5))
        return (x, y)
    }

    /// A smooth colour gradient that drifts with `index`, plus a white square moving across it.
    static func picture(index: Int, width: Int, height: Int, side: Int = 24) -> ImageBuffer {
        var image = ImageBuffer(width: width, height: height, layout: .rgb24)
        let square = squareOrigin(index: index, width: width, height: height, side: side)
        image.pixels.withUnsafeMutableBufferPointer { p in
            for y in 0..<height {
                for x in 0..<width {
                    let i = y * width * 3 + x * 3
                    let inSquare = x >= square.x && x < square.x + side && y >= square.y && y < square.y + side
                    if inSquare {
                        p[i] = 250; p[i + 1] = 250; p[i + 2] = 250
                    } else {
                        p[i] = UInt8(40 + (x * 120) / width)
                        p[i + 1] = UInt8(60 + (y * 100) / height)
                        p[i + 2] = UInt8(80 + ((x + y + index * 2) % 200) / 4)
                    }
                }
            }
        }
        return image
    }

    /// Encodes `frames` pictures to `url` and returns the path.
    @discardableResult
    static func encode(
        to url: URL, width: Int = 320, height: Int = 240, frames: Int = 30, fps: Int = 30,
        fastStart: Bool = false, crf: Int = 18
    ) throws -> String {
        let encoder = try VideoEncoder(
            path: url.path, width: width, height: height, framesPerSecond: fps, crf: crf, threads: 1,
            fastStart: fastStart)
        for i in 0..<frames { try encoder.append(picture(index: i, width: width, height: height)) }
        try encoder.finish()
        return url.path
    }
}

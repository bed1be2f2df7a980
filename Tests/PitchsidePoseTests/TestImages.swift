import Foundation
import PitchsideCore
import PitchsidePose
import XCTest

/// Test photographs from the cache (fetched by ops/setup → ops/fetch-models)
/// and a shared estimator, loaded once for the whole test run.
enum TestImages {
    /// Decodes an image file to RGB24 with the ffmpeg command-line tool (as a PPM).
    static func read(_ path: String) throws -> ImageBuffer {
        guard FileManager.default.fileExists(atPath: path) else {
            throw PoseError.missingFile(what: "test photo", path: path)
        }
        let ppm = [UInt8](try run(["ffmpeg", "-v", "error", "-i", path, "-frames:v", "1", "-f", "image2pipe",
                                   "-vcodec", "ppm", "-pix_fmt", "rgb24", "-"]))
        // Header: "P6", width, height, maxval, each followed by whitespace.
        var fields: [String] = []
        var i = 0
        while fields.count < 4 && i < ppm.count {
            while i < ppm.count && (ppm[i] == 0x20 || ppm[i] == 0x0A) { i += 1 }
            var field = ""
            while i < ppm.count && ppm[i] != 0x20 && ppm[i] != 0x0A { field.append(Character(UnicodeScalar(ppm[i]))); i += 1 }
            fields.append(field)
        }
        i += 1
        guard fields.count == 4, fields[0] == "P6", let w = Int(fields[1]), let h = Int(fields[2]) else {
            throw PoseError.unsupportedImage("cannot decode \(path)")
        }
        return try ImageBuffer(width: w, height: h, layout: .rgb24, pixels: Array(ppm[i...]))
    }

    nonisolated(unsafe) private static var photos: [String: ImageBuffer] = [:]

    /// A cached test photograph from the cache's photos/ folder.
    static func photo(_ name: String) throws -> ImageBuffer {
        lock.lock()
        defer { lock.unlock() }
        if let image = photos[name] { return image }
        let image = try read(PoseAssets.photo(name))
        photos[name] = image
        return image
    }

    private static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PoseError.unsupportedImage("\(arguments[0]) failed on \(arguments.last!)")
        }
        return data
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var shared: PoseEstimator?

    /// One estimator for all tests (loading takes a moment); reset before use.
    static func estimator() throws -> PoseEstimator {
        lock.lock()
        defer { lock.unlock() }
        if let shared {
            shared.reset()
            return shared
        }
        let made = try PoseEstimator(assets: PoseAssets.default(), threads: 1)
        shared = made
        return made
    }
}

extension TestImages {
    /// `image` moved by (dx, dy) whole pixels, edges replicated.
    static func shifted(_ image: ImageBuffer, dx: Int, dy: Int) -> ImageBuffer {
        var out = ImageBuffer(width: image.width, height: image.height, layout: image.layout)
        let bpp = image.layout.bytesPerPixel
        for y in 0..<image.height {
            let sy = min(max(y - dy, 0), image.height - 1)
            for x in 0..<image.width {
                let sx = min(max(x - dx, 0), image.width - 1)
                for c in 0..<bpp { out.pixels[y * out.stride + x * bpp + c] = image.pixels[sy * image.stride + sx * bpp + c] }
            }
        }
        return out
    }

    /// A gray canvas with `crop` of `image` scaled to `height` pixels, its top-left at `at`.
    static func pasted(_ image: ImageBuffer, crop: PoseBox, height: Int, at: PosePoint,
                       canvasWidth: Int, canvasHeight: Int) -> ImageBuffer {
        var out = ImageBuffer(width: canvasWidth, height: canvasHeight, layout: .rgb24)
        for i in out.pixels.indices { out.pixels[i] = UInt8(100 + (i / 3 / canvasWidth) % 20) }
        paste(image, crop: crop, height: height, at: at, into: &out)
        return out
    }

    /// Draws `crop` of `image` scaled to `height` pixels onto `out`, its top-left at `at`.
    static func paste(_ image: ImageBuffer, crop: PoseBox, height: Int, at: PosePoint, into out: inout ImageBuffer) {
        let (canvasWidth, canvasHeight) = (out.width, out.height)
        let scale = crop.height / Float(height)
        let width = Int(crop.width / scale)
        for y in 0..<height {
            for x in 0..<width {
                // Box-filter the source pixels that fall in this output pixel.
                var sum: [Int] = [0, 0, 0], n = 0
                let x0 = Int(crop.minX + Float(x) * scale), x1 = max(x0 + 1, Int(crop.minX + Float(x + 1) * scale))
                let y0 = Int(crop.minY + Float(y) * scale), y1 = max(y0 + 1, Int(crop.minY + Float(y + 1) * scale))
                for sy in y0..<min(y1, image.height) {
                    for sx in x0..<min(x1, image.width) {
                        let p = image.rgb(x: sx, y: sy)
                        sum[0] += Int(p.r); sum[1] += Int(p.g); sum[2] += Int(p.b); n += 1
                    }
                }
                let ox = Int(at.x) + x, oy = Int(at.y) + y
                guard n > 0, ox < canvasWidth, oy < canvasHeight else { continue }
                for c in 0..<3 { out.pixels[oy * out.stride + ox * 3 + c] = UInt8(sum[c] / n) }
            }
        }
    }
}

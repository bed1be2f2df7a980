import Foundation
import PitchsideCore
import PitchsideMedia
import PitchsideSynth
@testable import PitchsideVision

/// Test helpers for the detection analysers: decoding photographs and drawing test scenes.
enum DetectionTestSupport {
    /// The shared real-photo set, when present.
    static var chuckVisionDirectory: URL? {
        var dir = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { dir.deleteLastPathComponent() }
        for candidate in [dir.appendingPathComponent("../shared/data/chuckvision-dev"),
                          URL(fileURLWithPath: "/work/shared/data/chuckvision-dev")] {
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("dataSet.json").path) {
                return candidate.standardizedFileURL
            }
        }
        return nil
    }

    /// A picture of the tests' `Fixtures` folder (beside this file), decoded.
    static func fixture(_ name: String) throws -> ImageBuffer {
        try decode(URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/" + name))
    }

    /// Decodes an image file to RGB24 with the ffmpeg command, reduced by `divisor`.
    static func decode(_ url: URL, divisor: Int = 1) throws -> ImageBuffer {
        let probe = try run(["-v", "error", "-i", url.path, "-vf", "scale=iw/\(divisor):ih/\(divisor):flags=area",
                             "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        // The size comes from a second, header-only query.
        let info = try runProbe(url)
        let w = info.0 / divisor, h = info.1 / divisor
        return try ImageBuffer(width: w, height: h, layout: .rgb24, pixels: [UInt8](probe))
    }

    /// The picture as a video codec gives it back: one H.264 frame at `crf` (libx264, 4:2:0),
    /// decoded again. The synthetic games are seen through this blur, not as rendered.
    static func throughVideoCodec(_ image: ImageBuffer, crf: Int) throws -> ImageBuffer {
        try throughVideoCodec([image], crf: crf, preset: "medium")
    }

    /// The last of a game's frames `frames` as its video gives it back: written as `GameWriter`
    /// writes a game (the project's encoder at the game's rate and quality), read back as the
    /// detection worker reads it (`VideoSource`, an RGB rendition of the full picture). Frames
    /// before the one looked at matter: on a still camera the codec keeps what it coded when the
    /// picture last changed.
    static func throughGameVideo(_ game: SynthGame, frames: ClosedRange<Int>) throws -> ImageBuffer {
        let s = game.settings
        return try inTemporaryDirectory { dir in
            let path = dir.appendingPathComponent("game.mp4").path
            let encoder = try VideoEncoder(path: path, width: s.width, height: s.height, framesPerSecond: s.fps,
                                           crf: s.nuisances.crf, preset: GameWriter(directory: dir.path).preset)
            for i in frames { try encoder.append(game.render(frame: i)) }
            try encoder.finish()
            let source = try VideoSource(url: path)
            let rendition = Rendition(name: "rgb", layout: .rgb24)
            let converter = RenditionConverter(renditions: [rendition])
            var last: ImageBuffer?
            while let picture = try source.nextPicture() { last = try converter.image(from: picture, rendition: rendition) }
            guard let last else { throw CocoaError(.fileReadCorruptFile) }
            return last
        }
    }

    /// `body`'s result, given a fresh directory that is removed afterwards.
    private static func inTemporaryDirectory<T>(_ body: (URL) throws -> T) throws -> T {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pitchside-codec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        return try body(dir)
    }

    /// The last of `images` as a video of them all gives it back: x264 at `crf` and `preset`, as a
    /// synthetic game's video is written (its later frames are predicted ones, blurrier than a
    /// first frame alone).
    static func throughVideoCodec(_ images: [ImageBuffer], crf: Int, preset: String) throws -> ImageBuffer {
        guard let last = images.last else { throw CocoaError(.fileReadCorruptFile) }
        precondition(last.layout == .rgb24)
        return try inTemporaryDirectory { dir in
            let raw = dir.appendingPathComponent("in.rgb"), video = dir.appendingPathComponent("clip.mp4")
            try Data(images.flatMap(\.pixels)).write(to: raw)
            _ = try run(["-v", "error", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(last.width)x\(last.height)",
                         "-i", raw.path, "-c:v", "libx264", "-preset", preset, "-crf", "\(crf)", "-pix_fmt", "yuv420p",
                         "-y", video.path])
            let decoded = try run(["-v", "error", "-i", video.path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
            let size = last.pixels.count
            guard decoded.count == size * images.count else { throw CocoaError(.fileReadCorruptFile) }
            return try ImageBuffer(width: last.width, height: last.height, layout: .rgb24, pixels: [UInt8](decoded.suffix(size)))
        }
    }

    private static func runProbe(_ url: URL) throws -> (Int, Int) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                       "-of", "csv=p=0", url.path]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let parts = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { throw CocoaError(.fileReadCorruptFile) }
        return (w, h)
    }

    private static func run(_ args: [String]) throws -> Data {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["ffmpeg"] + args
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw CocoaError(.fileReadCorruptFile) }
        return data
    }
}

/// Deterministic pseudo-random numbers for test scenes.
struct TestRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }
    mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * uniform() }
    mutating func gaussian() -> Double {
        let u = max(1e-12, uniform()), v = uniform()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }
}

extension DetectionTestSupport {
    /// The synthetic game of `seed` at the given size with `players` players, and its truth;
    /// frames are rendered from it on demand (`game.render(frame:)`), not encoded.
    static func syntheticGame(seed: UInt64, width: Int, height: Int, players: Int) -> (game: SynthGame, truth: GroundTruth) {
        var settings = SynthSettings.random(seed: seed)
        settings.width = width
        settings.height = height
        settings.setPlayerCount(players)
        let game = SynthGame(settings: settings)
        return (game, game.truth())
    }
}

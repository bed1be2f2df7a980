import ArgumentParser
import Foundation
import PitchsideCore
import PitchsideMedia
import PitchsideVision

/// The frames the trajectory detector reads, in order, from a video FFmpeg reads (decoded to
/// the rendition the trajectory worker subscribes to: full-size YUV420P, or GRAY8 with
/// `rendition: .gray8`), a raw file of frames back to back (`.gray`: width × height bytes;
/// `.yuv`: YUV420P, width × height × 3 / 2 bytes) or `synthetic:SEED`, a built-in
/// `TrajectoryScene` game (GRAY8, or YUV420P with neutral chroma).
struct TrajectoryFrameSource {
    var video: String
    /// Frame size of raw input and synthetic scenes.
    var width = 1280
    var height = 720
    /// Frame rate of raw input.
    var fps = 30.0
    /// Pixel format of decoded video and synthetic scenes (raw files say theirs by extension).
    var layout: PixelLayout = .yuv420p

    func forEach(_ body: (VideoFrame) throws -> Void) throws {
        if video.hasPrefix("synthetic:") {
            let seed = UInt64(video.dropFirst("synthetic:".count)) ?? 1
            guard layout != .yuv420p || (width % 2 == 0 && height % 2 == 0) else {
                throw ValidationError("a yuv420p scene needs an even frame size, not \(width)×\(height)")
            }
            let game = TrajectoryScene.game(width: width, height: height, seed: seed)
            for i in 0..<game.frames {
                let frame = game.scene.frame(i)
                try body(layout == .yuv420p ? frame.withNeutralChroma() : frame)
            }
            return
        }
        let rawLayout: PixelLayout? = video.hasSuffix(".gray") ? .gray8 : (video.hasSuffix(".yuv") ? .yuv420p : nil)
        guard let rawLayout else {
            let source = try VideoSource(url: video)
            let rendition = Rendition(name: "trajectory", layout: layout)
            let converter = RenditionConverter(renditions: [rendition])
            while let picture = try source.nextPicture() {
                let image = try converter.image(from: picture, rendition: rendition)
                try body(VideoFrame(seq: UInt64(picture.index), ptsUs: picture.ptsUs, image: image))
            }
            return
        }
        guard rawLayout != .yuv420p || (width % 2 == 0 && height % 2 == 0) else {
            throw ValidationError("a .yuv file needs an even frame size, not \(width)×\(height)")
        }
        guard let handle = FileHandle(forReadingAtPath: video) else {
            throw ValidationError("cannot open \(video)")
        }
        defer { try? handle.close() }
        let bytes = rawLayout.byteCount(stride: width, height: height)
        var index = 0
        while true {
            let data = handle.readData(ofLength: bytes)
            if data.count < bytes {
                if data.count > 0 { FileHandle.standardError.write(Data("ignoring a truncated last frame of \(data.count) bytes\n".utf8)) }
                break
            }
            let image = try ImageBuffer(width: width, height: height, layout: rawLayout, pixels: [UInt8](data))
            try body(VideoFrame(seq: UInt64(index), ptsUs: Int64((Double(index) * 1e6 / fps).rounded()), image: image))
            index += 1
        }
    }
}

extension VideoFrame {
    /// The same frame as YUV420P: its GRAY8 pixels as Y, U and V at 128 (no colour).
    func withNeutralChroma() -> VideoFrame {
        precondition(image.layout == .gray8)
        var pixels = [UInt8](repeating: 128, count: PixelLayout.yuv420p.byteCount(stride: image.width, height: image.height))
        for y in 0..<image.height {
            let row = y * image.stride
            pixels.withUnsafeMutableBufferPointer { out in
                image.pixels.withUnsafeBufferPointer { src in
                    (out.baseAddress! + y * image.width).update(from: src.baseAddress! + row, count: image.width)
                }
            }
        }
        var frame = self
        frame.image = try! ImageBuffer(width: image.width, height: image.height, layout: .yuv420p, pixels: pixels)
        return frame
    }
}

/// The trajectory detector's options on the command line.
struct TrajectoryOptions: ParsableArguments {
    @Option(help: "Points before a trajectory is reported (at least 5).") var trajectoryLength = 15
    @Option(help: "Smallest object diameter, normalized by the width.") var minimumObjectSize = 0.004
    @Option(help: "Largest object diameter, normalized by the width.") var maximumObjectSize = 0.04
    @Option(help: "Region of interest x,y,width,height (normalized, top-left origin).") var roi: String?
    @Option(help: "Milliseconds between analysed frames (0: every frame).") var spacingMs = 0.0
    @Option(help: "Slowest path reported, image widths per second (default: the detector's).") var minimumSpeed: Double?
    @Option(help: "Pixel format a video is decoded to: yuv420p (colour, what the trajectory worker reads) or gray8 (luma only).")
    var pixelFormat = "yuv420p"

    /// The pixel format decoded video is analysed in.
    func layout() throws -> PixelLayout {
        guard let layout = PixelLayout(rawValue: pixelFormat), layout != .rgb24 else {
            throw ValidationError("--pixel-format must be yuv420p or gray8, not \(pixelFormat)")
        }
        return layout
    }

    func configuration() throws -> TrajectoryConfiguration {
        var configuration = TrajectoryConfiguration()
        configuration.trajectoryLength = trajectoryLength
        configuration.minimumObjectSize = minimumObjectSize
        configuration.maximumObjectSize = maximumObjectSize
        configuration.frameAnalysisSpacingUs = Int64(spacingMs * 1000)
        if let minimumSpeed { configuration.minimumSpeed = minimumSpeed }
        if let roi {
            let v = roi.split(separator: ",").compactMap { Double($0) }
            guard v.count == 4 else { throw ValidationError("--roi needs x,y,width,height") }
            configuration.regionOfInterest = NormalizedRect(x: v[0], y: v[1], width: v[2], height: v[3])
        }
        return configuration
    }
}

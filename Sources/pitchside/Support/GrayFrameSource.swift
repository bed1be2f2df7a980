import ArgumentParser
import Foundation
import PitchsideCore
import PitchsideMedia
import PitchsideVision

/// GRAY8 frames, in order, from a video FFmpeg reads (the full-range grey rendition the
/// trajectory worker subscribes to), a raw `.gray` file (frames of width × height bytes back to
/// back) or `synthetic:SEED`, a built-in `TrajectoryScene` game.
struct GrayFrameSource {
    var video: String
    /// Frame size of raw input and synthetic scenes.
    var width = 1280
    var height = 720
    /// Frame rate of raw input.
    var fps = 30.0

    func forEach(_ body: (VideoFrame) throws -> Void) throws {
        if video.hasPrefix("synthetic:") {
            let seed = UInt64(video.dropFirst("synthetic:".count)) ?? 1
            let game = TrajectoryScene.game(width: width, height: height, seed: seed)
            for i in 0..<game.frames { try body(game.scene.frame(i)) }
            return
        }
        if !video.hasSuffix(".gray") {
            let source = try VideoSource(url: video)
            let converter = RenditionConverter(renditions: [.grayFull])
            while let picture = try source.nextPicture() {
                let image = try converter.image(from: picture, rendition: .grayFull)
                try body(VideoFrame(seq: UInt64(picture.index), ptsUs: picture.ptsUs, image: image))
            }
            return
        }
        guard let handle = FileHandle(forReadingAtPath: video) else {
            throw ValidationError("cannot open \(video)")
        }
        defer { try? handle.close() }
        let bytes = width * height
        var index = 0
        while true {
            let data = handle.readData(ofLength: bytes)
            if data.count < bytes {
                if data.count > 0 { FileHandle.standardError.write(Data("ignoring a truncated last frame of \(data.count) bytes\n".utf8)) }
                break
            }
            let image = try ImageBuffer(width: width, height: height, layout: .gray8, pixels: [UInt8](data))
            try body(VideoFrame(seq: UInt64(index), ptsUs: Int64((Double(index) * 1e6 / fps).rounded()), image: image))
            index += 1
        }
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

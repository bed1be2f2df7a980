import Foundation
import PitchsideCore
import PitchsideMedia

/// Time spent writing a game, split into rendering and encoding.
public struct WriteTiming: Sendable {
    public var frames = 0
    public var renderSeconds = 0.0
    public var encodeSeconds = 0.0
    public var truthSeconds = 0.0
    public var totalSeconds: Double { renderSeconds + encodeSeconds + truthSeconds }
}

/// Writes a game to a directory: `game.mp4` (H.264), `truth.json`, and optional PNG stills.
///
/// ```swift
/// let timing = try GameWriter(directory: "out").write(SynthGame(settings: .random(seed: 1)))
/// ```
public struct GameWriter {
    public var directory: String
    /// Frames to also save as PNG (`frame-000123.png`, with nuisances, as encoded).
    public var pngFrames: Set<Int> = []
    public var writeVideo = true
    /// x264 threads (1 for single-core benchmarks; 0 lets x264 choose).
    public var encoderThreads = 0
    public var preset = "veryfast"

    public init(directory: String) { self.directory = directory }

    @discardableResult
    public func write(_ game: SynthGame) throws -> WriteTiming {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var timing = WriteTiming()
        let s = game.settings
        let encoder = writeVideo
            ? try VideoEncoder(path: directory + "/game.mp4", width: s.width, height: s.height, framesPerSecond: s.fps,
                               crf: s.nuisances.crf, preset: preset, threads: encoderThreads)
            : nil
        for i in 0..<game.frameCount {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let image = game.render(frame: i)
            let t1 = DispatchTime.now().uptimeNanoseconds
            try encoder?.append(image)
            if pngFrames.contains(i) {
                try ImageFile.writePNG(image, to: String(format: "%@/frame-%06d.png", directory, i))
            }
            let t2 = DispatchTime.now().uptimeNanoseconds
            timing.renderSeconds += Double(t1 - t0) / 1e9
            timing.encodeSeconds += Double(t2 - t1) / 1e9
            timing.frames += 1
        }
        let t3 = DispatchTime.now().uptimeNanoseconds
        try encoder?.finish()
        let t4 = DispatchTime.now().uptimeNanoseconds
        try game.truthJSON().write(to: URL(fileURLWithPath: directory + "/truth.json"))
        let t5 = DispatchTime.now().uptimeNanoseconds
        timing.encodeSeconds += Double(t4 - t3) / 1e9
        timing.truthSeconds = Double(t5 - t4) / 1e9
        return timing
    }
}

import ArgumentParser
import Foundation
import PitchsideSynth

/// `pitchside bench synth`: how fast a whole game renders and encodes on one thread.
struct SynthBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth",
        abstract: "Render and encode a 60 s 1280×720 30 fps game on one thread; report time and ratio to real time.")

    @Option(help: "Seed of the game.") var seed: UInt64 = 2024
    @Option(help: "Seconds of game to render (the game is cut or extended by throws to about this).")
    var seconds: Double = 60
    @Option(help: "Output directory (default: a temporary one, removed afterwards).") var out: String?

    /// A one-player 1280×720 30 fps game of about `seconds` (throws added or removed to fit),
    /// with every nuisance that costs the renderer and the encoder.
    static func benchGame(seed: UInt64, seconds: Double) -> (game: SynthGame, settings: SynthSettings) {
        var settings = SynthSettings.random(seed: seed)
        settings.width = 1280
        settings.height = 720
        settings.fps = 30
        settings.setPlayerCount(1)
        settings.nuisances.texturedGround = true
        settings.nuisances.texturedBackground = true
        settings.nuisances.motionBlur = true
        settings.nuisances.noiseSigma = max(settings.nuisances.noiseSigma, 3)
        // Enough throws for the requested length.
        var game = SynthGame(settings: settings)
        while Double(game.frameCount) / 30 < seconds - 4 {
            settings.throwCount += 1
            game = SynthGame(settings: settings)
        }
        while Double(game.frameCount) / 30 > seconds + 4, settings.throwCount > 1 {
            settings.throwCount -= 1
            game = SynthGame(settings: settings)
        }
        return (game, settings)
    }

    func run() throws {
        let (game, settings) = Self.benchGame(seed: seed, seconds: seconds)
        let dir = out ?? NSTemporaryDirectory() + "pitchside-bench-synth-\(getpid())"
        var writer = GameWriter(directory: dir)
        writer.encoderThreads = 1
        let t0 = Date()
        let timing = try writer.write(game)
        let wall = Date().timeIntervalSince(t0)
        if out == nil { try? FileManager.default.removeItem(atPath: dir) }
        let duration = Double(game.frameCount) / 30
        let cpu = timing.renderCPUSeconds + timing.encodeCPUSeconds
        print("synth bench: \(game.frameCount) frames 1280x720 @30 fps = \(String(format: "%.1f", duration)) s of game, \(settings.throwCount) throws")
        print("                 wall        cpu      cpu/frame")
        print(String(format: "  render   %8.2f s %8.2f s  %6.2f ms", timing.renderSeconds, timing.renderCPUSeconds,
                     timing.renderCPUSeconds * 1000 / Double(timing.frames)))
        print(String(format: "  encode   %8.2f s %8.2f s  %6.2f ms  (x264 veryfast, 1 thread)", timing.encodeSeconds,
                     timing.encodeCPUSeconds, timing.encodeCPUSeconds * 1000 / Double(timing.frames)))
        print(String(format: "  truth    %8.2f s", timing.truthSeconds))
        print(String(format: "  total    %8.2f s %8.2f s  → %.2f× real time by processor time, %.2f× by wall time",
                     wall, cpu, cpu / duration, wall / duration))
        print("  target: under 60 s for the 60 s game on one core (processor time; wall time also counts other load)")
    }
}

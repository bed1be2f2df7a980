import ArgumentParser
import Foundation
import PitchsideSynth

/// `pitchside synth`: renders synthetic games with exact ground truth.
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth", abstract: "Render a synthetic game (H.264 MP4 + truth.json).",
        discussion: """
            pitchside synth --seed 7 --out games/7              one game; the seed picks everything not given
            pitchside synth --seed 7 --out g --size 640x360 --throws 2 --players 1
            pitchside synth corpus --name ci --count 12         a corpus spread over every variation
            truth.json's schema: docs/synth.md.
            """,
        subcommands: [SynthGameCommand.self, SynthCorpusCommand.self],
        defaultSubcommand: SynthGameCommand.self)
}

/// Options that override the seed's choices.
struct SynthOverrides: ParsableArguments {
    @Option(help: "Picture size WxH (640x360 … 1920x1080).") var size: String?
    @Option(help: "Frames per second (30 or 60).") var fps: Int?
    @Option(help: "Thrower side: left or right.") var side: ThrowerSide?
    @Option(help: "Players: 1 (Apple's rules) or 2 (official rules, innings, cancellation).") var players: Int?
    @Option(name: .customLong("throws"), help: "Number of throws (default 8).") var throwCount: Int?
    @Option(help: "Throw styles in order, cycled: e.g. underhand,underleg,overhand.") var styles: String?
    @Option(help: "Seconds of camera panning and shaking before it is fixed.") var settle: Double?
    @Option(help: "Sensor noise, grey levels (standard deviation).") var noise: Double?
    @Option(help: "H.264 constant rate factor (compression).") var crf: Int?
    @Option(help: "Chance of a negative action (walking, picking up) between throws, 0–1.") var negativeRate: Double?
    @Option(help: "Aim spread: 0 = always at the hole, 1 = wide.") var aimSpread: Double?
    @Flag(help: "No nuisances: no noise, gain, gradient, distractors, blur, texture.") var clean = false
    @Option(help: "Every player's bag colour R,G,B (default: chosen to stand out from the ground in brightness).")
    var bagColour: String?
    @Option(help: "Ground colour R,G,B, e.g. one with the bag's luma to test colour-only contrast.") var groundColour: String?

    func apply(to settings: inout SynthSettings) throws {
        if let size {
            let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2, parts[0] >= 320, parts[1] >= 180, parts[0] % 2 == 0, parts[1] % 2 == 0 else {
                throw ValidationError("--size must be WxH with even numbers, e.g. 1280x720")
            }
            settings.width = parts[0]
            settings.height = parts[1]
        }
        if let fps {
            guard fps == 30 || fps == 60 else { throw ValidationError("--fps must be 30 or 60") }
            settings.fps = fps
        }
        if let side { settings.side = side }
        if let players {
            guard players == 1 || players == 2 else { throw ValidationError("--players must be 1 or 2") }
            settings.setPlayerCount(players)
        }
        if let throwCount {
            guard throwCount >= 1 else { throw ValidationError("--throws must be at least 1") }
            settings.throwCount = throwCount
        }
        if let styles {
            settings.styles = try styles.split(separator: ",").map {
                guard let s = ThrowStyle(rawValue: String($0)) else {
                    throw ValidationError("unknown style \($0); use overhand, underhand, underleg")
                }
                return s
            }
        }
        if let settle { settings.camera.settleSeconds = max(0, min(settle, 3)) }
        if let noise { settings.nuisances.noiseSigma = max(0, noise) }
        if let crf { settings.nuisances.crf = crf }
        if let negativeRate { settings.negativeActionRate = max(0, min(negativeRate, 1)) }
        if let aimSpread { settings.aimSpread = max(0, aimSpread) }
        if clean {
            settings.nuisances = .none(crf: settings.nuisances.crf)
        }
        try SynthColours.apply(bag: bagColour, ground: groundColour, to: &settings)
    }
}

/// Colour overrides of `synth game` and `synth corpus`: the synth normally picks bags that
/// differ from the ground in brightness; these make the hard case (a bag with the ground's luma)
/// on purpose.
enum SynthColours {
    static func apply(bag: String?, ground: String?, to settings: inout SynthSettings) throws {
        if let bag {
            let colour = try parse(bag, option: "--bag-colour")
            for i in settings.players.indices { settings.players[i].bag = colour }
        }
        if let ground { settings.groundColor = try parse(ground, option: "--ground-colour") }
    }

    static func parse(_ text: String, option: String) throws -> RGB {
        let v = text.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard v.count == 3, v.allSatisfy({ (0...255).contains($0) }) else {
            throw ValidationError("\(option) must be R,G,B with values 0–255, e.g. 210,30,35")
        }
        return RGB(v[0], v[1], v[2])
    }
}

extension ThrowerSide: ExpressibleByArgument {}

/// `pitchside synth [game]`: one game.
struct SynthGameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "game", abstract: "Render one game.")

    @Option(help: "Seed: picks everything not given.") var seed: UInt64 = 1
    @Option(help: "Output directory (game.mp4, truth.json).") var out: String
    @OptionGroup var overrides: SynthOverrides
    @Option(help: "Also save these frames as PNG (comma-separated indices).") var pngFrames: String?
    @Flag(help: "Write truth.json only.") var noVideo = false

    func run() throws {
        var settings = SynthSettings.random(seed: seed)
        try overrides.apply(to: &settings)
        let game = SynthGame(settings: settings)
        var writer = GameWriter(directory: out)
        writer.writeVideo = !noVideo
        writer.pngFrames = Set((pngFrames ?? "").split(separator: ",").compactMap { Int($0) })
        let timing = try writer.write(game)
        let truth = game.truth()
        print(String(format: "wrote %@: %d frames %dx%d @%d fps (%.1f s), %d throws, render %.1f s, encode %.1f s",
                     out, game.frameCount, settings.width, settings.height, settings.fps,
                     Double(game.frameCount) / Double(settings.fps), truth.throwsTruth.count,
                     timing.renderSeconds, timing.encodeSeconds))
        for t in truth.throwsTruth {
            print(String(format: "  throw %d  %@ %@  release %.2f s  %.1f m/s %.0f°  → %@ (%d)", t.index, t.player,
                         t.style.rawValue, t.releaseTime, t.releaseSpeedMps, t.launchAngleDeg, t.outcome.rawValue,
                         t.points))
        }
        print("  totals: \(truth.totals.scores)")
    }
}

import ArgumentParser

/// `pitchside synth`: renders synthetic games with exact ground truth.
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "synth", abstract: "Render a synthetic game (H.264 MP4 + truth.json).")
}

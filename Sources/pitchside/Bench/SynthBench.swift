import ArgumentParser

/// `pitchside bench synth`: owned by the synth work.
struct SynthBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "synth", abstract: "Synth benchmark.")
}

import ArgumentParser

/// `pitchside bench transport`: owned by the transport work.
struct TransportBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "transport", abstract: "Transport benchmark.")
}

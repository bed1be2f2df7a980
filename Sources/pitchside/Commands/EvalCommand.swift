import ArgumentParser

/// `pitchside eval`: compares a run's game events with ground truth.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval", abstract: "Compare a run's game events with a synthetic game's ground truth.")
}

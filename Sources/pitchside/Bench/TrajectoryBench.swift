import ArgumentParser

/// `pitchside bench trajectory`: owned by the trajectory work.
struct TrajectoryBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "trajectory", abstract: "Trajectory benchmark.")
}

import ArgumentParser

/// `pitchside inspect trajectory VIDEO`: owned by the trajectory work.
struct InspectTrajectoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trajectory", abstract: "Detect bag trajectories in a video and print them as JSON lines.")
}

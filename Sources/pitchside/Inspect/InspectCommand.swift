import ArgumentParser

/// `pitchside inspect <analyser>`: runs one analyser on a file, no cluster needed.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Run one analyser on an image or video file and print what it finds.",
        subcommands: [InspectTrajectoryCommand.self, InspectPoseCommand.self, InspectBoardCommand.self]
    )
}

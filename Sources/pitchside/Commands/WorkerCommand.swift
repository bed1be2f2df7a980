import ArgumentParser

/// `pitchside worker <kind>`: one analysis worker process.
struct WorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run one analysis worker (subscribes to frames, pushes results).",
        subcommands: [DetectionWorkerCommand.self, TrajectoryWorkerCommand.self, PoseWorkerCommand.self]
    )
}

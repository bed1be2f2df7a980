import ArgumentParser

/// `pitchside up`: the whole cluster as supervised child processes.
struct UpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "up",
        abstract: "Run the whole cluster locally as supervised processes."
    )
}

import ArgumentParser

/// `pitchside bench pose`: owned by the pose work.
struct PoseBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "pose", abstract: "Pose benchmark.")
}

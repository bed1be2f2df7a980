import ArgumentParser

/// `pitchside inspect pose IMAGE|VIDEO`: owned by the pose work.
struct InspectPoseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pose", abstract: "Find the body pose in an image or video.")
}

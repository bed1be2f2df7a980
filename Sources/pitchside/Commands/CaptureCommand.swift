import ArgumentParser

/// `pitchside capture`: decodes a video and publishes timestamped frames.
struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Decode a video (file, camera device or URL) and publish frames."
    )
}

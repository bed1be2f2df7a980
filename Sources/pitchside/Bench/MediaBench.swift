import ArgumentParser

/// `pitchside bench media`: owned by the media work.
struct MediaBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "media", abstract: "Media benchmark.")
}

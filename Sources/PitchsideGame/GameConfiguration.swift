import PitchsideCore

/// How a stream's game is played and what the aggregator knows about the video.
///
/// ```swift
/// var config = GameConfiguration(mode: .official, players: ["red", "blue"])
/// config.frameWidth = 1280; config.frameHeight = 720
/// ```
public struct GameConfiguration: Sendable, Equatable, Codable {
    /// Apple's single-player mode or the official two-player rules.
    public var mode: Mode
    /// Player names. Apple's mode uses the first; the official mode the first two.
    public var players: [String]
    /// Size of the analysed video in pixels: worker results are normalized,
    /// metres per pixel is per pixel of this size.
    public var frameWidth: Double
    public var frameHeight: Double
    /// Official mode: points to win (reached or exceeded at the end of an inning).
    public var targetScore: Int
    /// Official mode: bags each player throws per inning.
    public var bagsPerPlayer: Int
    /// Official mode, house variant: exactly `targetScore` wins; going over falls back to `bustScore`.
    public var bust: Bool
    public var bustScore: Int
    /// Official mode: stop after this many innings even without a winner (0 = no limit).
    public var maxInnings: Int

    public enum Mode: String, Sendable, Codable, Equatable {
        case apple
        case official
    }

    public init(
        mode: Mode = .apple, players: [String]? = nil, frameWidth: Double = 1920, frameHeight: Double = 1080,
        targetScore: Int = 21, bagsPerPlayer: Int = 4, bust: Bool = false, bustScore: Int = 15, maxInnings: Int = 0
    ) {
        self.mode = mode
        self.players = players ?? (mode == .apple ? ["player"] : ["player1", "player2"])
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        self.targetScore = targetScore
        self.bagsPerPlayer = bagsPerPlayer
        self.bust = bust
        self.bustScore = bustScore
        self.maxInnings = maxInnings
    }

    /// The wire enum for this mode.
    public var wireMode: PSScoringMode { mode == .apple ? .apple : .official }
}

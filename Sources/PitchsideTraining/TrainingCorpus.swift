import Foundation
import PitchsideSynth

/// The synthetic games the throw-type classifier learns from and is checked on.
///
/// Seeds: training 3000–3999, validation 4000–4099. Other ranges are refused:
/// 9000–9999 are kept for the final accuracy report and 1000–1019 are the
/// development corpus of the rest of the pipeline; neither may be seen here.
///
/// Each game's settings come from its seed (`SynthSettings.random`), then its
/// position in the corpus walks through picture sizes (the pose rendition sees
/// at most 1280 wide), frame rates, sides and one or two players; negative
/// actions are frequent so that `none` windows are plentiful.
public struct TrainingCorpus: Sendable {
    public static let trainingSeeds: ClosedRange<UInt64> = 3000...3999
    public static let validationSeeds: ClosedRange<UInt64> = 4000...4099

    public struct Game: Sendable {
        public var seed: UInt64
        public var settings: SynthSettings
        /// Directory name inside the corpus directory.
        public var name: String { "game-\(seed)" }
    }

    public let games: [Game]

    /// `count` games from `firstSeed`, all inside one allowed range.
    public init(firstSeed: UInt64, count: Int, throwsPerGame: Int = 8, negativeRate: Double = 0.8) throws {
        guard count >= 1 else { throw TrainingError.badSeeds("at least one game is needed") }
        let last = firstSeed &+ UInt64(count - 1)
        guard let range = [Self.trainingSeeds, Self.validationSeeds].first(where: { $0.contains(firstSeed) }),
              range.contains(last) else {
            throw TrainingError.badSeeds(
                "seeds \(firstSeed)…\(last) are outside the training (3000–3999) and validation (4000–4099) ranges")
        }
        let sizes = [(1280, 720), (960, 540), (640, 360), (1280, 720), (1920, 1080), (960, 540)]
        let styleOrders: [[ThrowStyle]] = [
            [.overhand, .underhand, .underleg], [.underleg, .overhand, .underhand], [.underhand, .underleg, .overhand],
        ]
        games = (0..<count).map { k in
            let seed = firstSeed + UInt64(k)
            var s = SynthSettings.random(seed: seed)
            (s.width, s.height) = sizes[k % sizes.count]
            s.fps = k % 4 == 3 ? 60 : 30
            s.side = k % 2 == 0 ? .left : .right
            s.setPlayerCount((k / 2) % 2 + 1)
            s.throwCount = throwsPerGame
            // Balanced styles, in an order that changes from game to game.
            s.styles = styleOrders[(k / 4) % styleOrders.count]
            s.negativeActionRate = negativeRate
            return Game(seed: seed, settings: s)
        }
    }
}

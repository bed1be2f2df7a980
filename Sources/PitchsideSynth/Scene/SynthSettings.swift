/// Which side of the picture the thrower stands on.
public enum ThrowerSide: String, Sendable, Codable, CaseIterable {
    case left, right
}

/// The throw styles of Apple's classifier (negative actions are not throws).
public enum ThrowStyle: String, Sendable, Codable, CaseIterable {
    case overhand, underhand, underleg
}

/// How a game is scored: Apple's sample (one player, 8 throws, ×5 underleg) or the official rules
/// (two players, innings of 4 bags each, cancellation).
public enum ScoringRules: String, Sendable, Codable, CaseIterable {
    case apple, official
}

/// An RGB colour, 0–255.
public struct RGB: Sendable, Equatable, Codable {
    public var r: Int
    public var g: Int
    public var b: Int

    public init(_ r: Int, _ g: Int, _ b: Int) {
        self.r = r
        self.g = g
        self.b = b
    }

    var unit: (Double, Double, Double) { (Double(r) / 255, Double(g) / 255, Double(b) / 255) }
    func scaled(_ k: Double) -> RGB {
        RGB(min(255, Int(Double(r) * k)), min(255, Int(Double(g) * k)), min(255, Int(Double(b) * k)))
    }
    var luma: Double { 0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b) }
}

/// Where the camera stands and how it settles.
public struct CameraSettings: Sendable, Equatable, Codable {
    /// Horizontal distance from the throw line, metres.
    public var distance: Double
    /// Height above the ground, metres.
    public var height: Double
    /// Seconds of panning and shaking before the camera is fixed (0 = fixed from the start).
    public var settleSeconds: Double
    /// Size of the pan during settling, pixels at 1280 px width.
    public var panPixels: Double
    /// Size of the shake during settling, pixels at 1280 px width.
    public var shakePixels: Double
}

/// The nuisances applied to a game's pictures.
public struct NuisanceSettings: Sendable, Equatable, Codable {
    /// Standard deviation of the sensor noise, grey levels.
    public var noiseSigma: Double
    /// Overall brightness gain.
    public var gain: Double
    /// Brightness change across the picture (0 = none, 0.3 = ±15%).
    public var gradient: Double
    public var gradientAngleDegrees: Double
    public var texturedGround: Bool
    public var texturedBackground: Bool
    public var bird: Bool
    public var farPerson: Bool
    public var motionBlur: Bool
    /// H.264 constant rate factor of the MP4 (higher = more compression).
    public var crf: Int
    /// Bags already lying on the board and the ground when the game starts.
    public var restingBags: Int

    /// No nuisance at all: a clean picture (only compression remains).
    public static func none(crf: Int = 18) -> NuisanceSettings {
        NuisanceSettings(noiseSigma: 0, gain: 1, gradient: 0, gradientAngleDegrees: 0, texturedGround: false,
                         texturedBackground: false, bird: false, farPerson: false, motionBlur: false, crf: crf,
                         restingBags: 0)
    }
}

/// A player's looks and body.
public struct PlayerSettings: Sendable, Equatable, Codable {
    public var name: String
    /// Standing height, metres.
    public var height: Double
    public var skin: RGB
    public var hair: RGB
    public var shirt: RGB
    public var trousers: RGB
    public var shoes: RGB
    public var bag: RGB
}

/// Everything that defines a synthetic game; a seed picks whatever is not given.
///
/// ```swift
/// var settings = SynthSettings.random(seed: 7)
/// settings.width = 640; settings.height = 360; settings.throwCount = 2
/// let game = SynthGame(settings: settings)
/// ```
public struct SynthSettings: Sendable, Equatable, Codable {
    public var seed: UInt64
    public var width: Int
    public var height: Int
    public var fps: Int
    public var side: ThrowerSide
    public var camera: CameraSettings
    public var nuisances: NuisanceSettings
    public var players: [PlayerSettings]
    public var rules: ScoringRules
    /// Throws in the game (Apple: 8; official: 8 per inning × innings).
    public var throwCount: Int
    /// Throw styles in order, cycled; empty = the seed picks each throw's style.
    public var styles: [ThrowStyle]
    /// Chance that the player does a negative action (walking, picking up a bag) between throws.
    public var negativeActionRate: Double
    /// Where throws aim, as a spread: 0 = always the hole, 1 = wide of the board.
    public var aimSpread: Double
    public var boardColor: RGB
    public var groundColor: RGB
    /// Height of the board's front edge, metres (0.076–0.10).
    public var boardFrontHeight: Double
}

import Foundation
import PitchsideCore

/// A synthetic game: its plan, its frames and its ground truth. Deterministic per settings.
///
/// ```swift
/// let game = SynthGame(settings: .random(seed: 7))
/// for i in 0..<game.frameCount { let image = game.render(frame: i) /* encode */ }
/// let json = try game.truthJSON()
/// ```
public final class SynthGame {
    public let settings: SynthSettings
    public let plan: GamePlan
    let renderer: FrameRenderer

    public init(settings: SynthSettings) {
        self.settings = settings
        plan = GamePlan(settings: settings)
        renderer = FrameRenderer(plan: plan)
    }

    public var frameCount: Int { plan.frameCount }

    /// Frame i as RGB24 with the nuisances applied.
    public func render(frame i: Int) -> ImageBuffer { renderer.render(frame: i) }

    /// Frame i without nuisances, as a PNG (for looking at the scene).
    public func writeCleanPNG(frame i: Int, to path: String) { renderer.writeCleanPNG(frame: i, to: path) }

    public func truth(videoFile: String = "game.mp4") -> GroundTruth { TruthBuilder.build(plan: plan, videoFile: videoFile) }

    /// The truth as JSON with sorted keys: the same bytes for the same settings.
    public func truthJSON(videoFile: String = "game.mp4") throws -> Data {
        try GroundTruth.encoder().encode(truth(videoFile: videoFile))
    }
}

extension GroundTruth {
    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return e
    }

    /// Reads a `truth.json`.
    public static func load(path: String) throws -> GroundTruth {
        try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}

/// Everything true about a rendered game, as written to `truth.json` (schema in docs/synth.md).
///
/// Coordinates: `*Pixel` fields are pixels (origin top-left, y down); other image positions are
/// normalized to [0, 1] with the same origin. World positions are metres (x along the throw line
/// toward the board, y up, z across).
public struct GroundTruth: Codable, Equatable, Sendable {
    public var schema = "pitchside-synth-truth/1"
    public var seed: UInt64
    public var settings: SynthSettings
    public var video: VideoTruth
    public var camera: CameraTruth
    public var board: BoardTruth
    public var throwsTruth: [ThrowTruth]
    public var actions: [ActionTruth]
    public var censuses: [CensusTruth]
    public var initialBags: [BagTruth]
    public var distractors: [DistractorTruth]
    public var totals: GameTotals
    public var frames: [FrameTruth]

    enum CodingKeys: String, CodingKey {
        case schema, seed, settings, video, camera, board, actions, censuses, initialBags, distractors, totals, frames
        case throwsTruth = "throws"
    }
}

public struct VideoTruth: Codable, Equatable, Sendable {
    public var file: String
    public var width: Int
    public var height: Int
    public var fps: Int
    public var frameCount: Int
    public var durationSeconds: Double
}

public struct CameraTruth: Codable, Equatable, Sendable {
    /// World position, metres.
    public var position: [Double]
    public var focalPixels: Double
    public var settleSeconds: Double
    /// First frame from which the camera no longer moves.
    public var firstSettledFrame: Int
    /// The standing thrower's height as a fraction of the frame height.
    public var throwerHeightFraction: Double
}

public struct BoardTruth: Codable, Equatable, Sendable {
    public var frontX: Double
    public var frontHeight: Double
    public var inclineDegrees: Double
    public var color: RGB
    /// Corners once the camera is settled (normalized): back-left, back-right, front-right, front-left.
    public var corners: [[Double]]
    public var hole: EllipseTruth
    public var metresPerPixel: Double
}

/// An ellipse in the picture: centre normalized, radii normalized by width (x) and height (y),
/// also in pixels; rotation of the x radius, degrees.
public struct EllipseTruth: Codable, Equatable, Sendable {
    public var cx: Double
    public var cy: Double
    public var rx: Double
    public var ry: Double
    public var rxPixels: Double
    public var ryPixels: Double
    public var angleDeg: Double
}

public struct FrameTruth: Codable, Equatable, Sendable {
    public var index: Int
    public var time: Double
    public var settled: Bool
    /// Whole-pixel camera shift of this frame (settle period), [dx, dy].
    public var offset: [Int]
    /// Top surface corners, normalized: back-left, back-right, front-right, front-left as seen.
    public var boardCorners: [[Double]]
    public var hole: EllipseTruth
    /// Metres per pixel along the throw line at the board (1.22 m / the top's length in pixels).
    public var metresPerPixel: Double
    /// Per player: the 18 joints in JointName order as [x, y, inFrame] (normalized).
    public var joints: [[[Double]]]
    /// Per player: what they are doing.
    public var actions: [String]
}

public struct ThrowTruth: Codable, Equatable, Sendable {
    public var index: Int
    public var player: String
    public var playerIndex: Int
    public var inning: Int
    public var style: ThrowStyle
    public var releaseFrame: Int
    public var releaseTime: Double
    public var landingFrame: Int
    public var landingTime: Double
    public var restFrame: Int
    public var restTime: Double
    public var outcome: ThrowOutcomeKind
    public var firstContact: FirstContact
    public var place: BagPlace
    public var points: Int
    public var releaseSpeedMps: Double
    public var releaseSpeedMph: Double
    public var launchAngleDeg: Double
    /// Right forearm (elbow → wrist) against the horizontal in the picture at release, degrees.
    public var releaseAngleDeg: Double
    public var releasePixel: [Double]
    public var landingPixel: [Double]
    public var restPixel: [Double]
    public var restWorld: [Double]
    public var bagID: Int
    public var bagColor: RGB
    /// The bag's centre per frame in flight (release … landing): [frame, x, y] in pixels.
    public var flight: [[Double]]
    /// After landing until rest: [frame, x, y] in pixels.
    public var afterLanding: [[Double]]
    /// The bag's shadow on the ground or the board's top, [frame, x, y] in pixels, for every
    /// frame it is drawn (in the air: flight, and falling off the board). Absent in truth
    /// files written before it was recorded.
    public var shadow: [[Double]]?
}

public struct ActionTruth: Codable, Equatable, Sendable {
    public var playerIndex: Int
    public var action: PlayerAction
    public var startFrame: Int
    public var endFrame: Int
    public var startTime: Double
    public var endTime: Double
}

public struct BagTruth: Codable, Equatable, Sendable {
    public var id: Int
    public var playerIndex: Int?
    public var throwIndex: Int?
    public var color: RGB
    public var place: BagPlace
    public var world: [Double]
    /// Normalized image position of the bag's centre.
    public var position: [Double]
    /// On the ground behind the board with more than half of it covered by the board in the
    /// picture (`BagVisibility`): counted as a miss, but no camera sees it. Absent in truth files
    /// written before it was recorded.
    public var hidden: Bool? = nil
}

/// The bags at rest once a throw's bag has stopped.
public struct CensusTruth: Codable, Equatable, Sendable {
    public var afterThrow: Int
    public var frame: Int
    public var time: Double
    public var bags: [BagTruth]
    public var onBoard: Int
    public var inHole: Int
    public var onGround: Int
}

public struct DistractorTruth: Codable, Equatable, Sendable {
    public var kind: DistractorKind
    public var startFrame: Int
    public var endFrame: Int
    public var startPixel: [Double]
    public var endPixel: [Double]
    /// The middle of the figure (a bird's body, a walking person's hips) per frame it shows:
    /// [frame, x, y] in pixels. Absent in truth files written before it was recorded.
    public var path: [[Double]]?
    /// Width and height of the figure in pixels (a bird's wingspan; a person's body), the largest
    /// over its path.
    public var extentPixels: [Double]?
}

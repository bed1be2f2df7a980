/// A rectangle in normalized image coordinates (origin top-left, x right, y down).
public struct NormalizedRect: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole image.
    public static let full = NormalizedRect(x: 0, y: 0, width: 1, height: 1)

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    public func contains(x px: Double, y py: Double) -> Bool {
        px >= x && px <= maxX && py >= y && py <= maxY
    }

    /// Clamped to the unit square.
    public var clamped: NormalizedRect {
        let x0 = min(max(x, 0), 1), y0 = min(max(y, 0), 1)
        let x1 = min(max(maxX, x0), 1), y1 = min(max(maxY, y0), 1)
        return NormalizedRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

/// What `TrajectoryDetector` looks for, Vision's `VNDetectTrajectoriesRequest` options plus
/// the knobs of its motion segmentation.
///
/// ```swift
/// var configuration = TrajectoryDetector.Configuration()
/// configuration.trajectoryLength = 10
/// configuration.minimumObjectSize = 6.0 / 1280    // normalized diameter
/// configuration.regionOfInterest = NormalizedRect(x: 0, y: 0, width: 0.5, height: 1)
/// ```
public struct TrajectoryConfiguration: Sendable, Equatable, Codable {
    /// Points a track needs before it is reported (Vision: at least 5; Apple's game uses 15).
    public var trajectoryLength: Int = 15 {
        didSet { trajectoryLength = max(trajectoryLength, Self.minimumTrajectoryLength) }
    }
    public static let minimumTrajectoryLength = 5

    /// Smallest object diameter, normalized by the image width.
    public var minimumObjectSize: Double = 0.004
    /// Largest object diameter, normalized by the image width (a player is larger).
    public var maximumObjectSize: Double = 0.04
    /// Only objects whose centre lies here, and whose extent does not cross its edge, are followed.
    public var regionOfInterest: NormalizedRect = .full
    /// Microseconds of media time to let pass between analysed frames (0: every frame).
    public var frameAnalysisSpacingUs: Int64 = 0

    /// Frames back (in analysed frames) of the three pictures whose per-pixel median is the background.
    public var backgroundLags: [Int] = [2, 4, 6]
    /// Detection threshold in noise standard deviations of the background difference.
    public var thresholdFactor: Double = 4.5
    /// Lowest detection threshold, in gray levels of the search image.
    public var minimumThreshold: Int = 10
    /// Search resolution reduction (1, 2 or 4); nil picks it from `minimumObjectSize`.
    public var searchScale: Int? = nil
    /// Fastest object followed, in image widths per second (gates the first association).
    public var maximumSpeed: Double = 1.6
    /// Slowest path reported, in image widths per second (mean speed over the track). With the
    /// court filling the picture, a thrown bag crosses at 0.45–0.8 widths per second, while a
    /// thrower's hand winding up with the bag (a short arc that can look like a lob) and a
    /// walking person stay below 0.3 (measured on synthetic games); so do slow bounces.
    public var minimumSpeed: Double = 0.35
    /// Analysed frames a track may go without a detection before it ends. A navy bag passing
    /// dark trees at 640×360 and 30 fps went unseen for 4 frames at its apex (held21-0018 throw
    /// 6): with 3 its flight broke into pieces of 14 and 13 points, each too short to report,
    /// and the throw was lost.
    public var maximumGap: Int = 4
    /// Fraction of the search area that may change at once before a frame is treated as a
    /// global change (a light switched, the camera knocked) and skipped.
    public var maximumChangedFraction: Double = 0.25

    public init() {}
}

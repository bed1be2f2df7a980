/// One rest state of the truth (after a throw's bag stopped) and the census the run reported for it.
public struct CensusCheck: Codable, Equatable, Sendable {
    public var afterThrow: Int
    /// Truth frame of the rest state.
    public var frame: Int
    /// Last frame whose census counts for this rest state.
    public var deadlineFrame: Int
    public var truthOnBoard: Int
    public var truthInHole: Int
    /// Bags on the ground near the board (within the census' reach of it) and in view.
    public var truthOnGround: Int
    /// Bags on the ground in view farther away (not expected in the census).
    public var truthOnGroundFar: Int
    /// Frame of the run's census in force at the deadline; nil when none had been reported.
    public var runFrame: Int?
    public var runOnBoard: Int
    public var runInHole: Int
    public var runOnGround: Int
    /// Where the truth has this throw's bag (`BagPlace` raw value), and what the first census
    /// after its landing (before the next release) said of it: the place of its new bag,
    /// "none" when it showed no new bag, nil when no census came.
    public var truthPlace: String? = nil
    public var runVerdict: String? = nil
    /// Bags on the ground the board hides from the camera (not expected in the census); nil in
    /// reports written before it was recorded.
    public var truthOnGroundHidden: Int? = nil
    /// Bags on the ground in view lying across the edge of the census' reach
    /// (`DetectionEvaluator.censusReachEdgeBags`): counted or not, either is right. Neither in
    /// `truthOnGround` nor in `truthOnGroundFar`; nil in reports written before it was recorded.
    public var truthOnGroundAcrossReach: Int? = nil
    /// The bags counted above (on the board, on the ground near it and in view) that no bag of
    /// the run's census lies near, in its place (`DetectionEvaluator.unseenBags`); nil in
    /// reports written before it was recorded.
    public var unseen: [UnseenBag]? = nil

    /// The census' word on the throw agrees with the truth: the new bag where the truth has it,
    /// or no new bag in view for a bag in the hole or on the ground (the score's reading of a
    /// quiet rest state: docs/game.md, Outcome).
    public var verdictRight: Bool {
        guard let v = runVerdict, let t = truthPlace else { return false }
        return v == t || (v == "none" && t != BagPlace.onBoard.rawValue)
    }

    /// On-board and on-ground counts right: what a side view can see. A ground bag the board
    /// hides (more than half of it covered) may be counted or not: what shows of it is a bag;
    /// so may one lying across the edge of the census' reach.
    public var visibleExact: Bool {
        let either = (truthOnGroundHidden ?? 0) + (truthOnGroundAcrossReach ?? 0)
        return runFrame != nil && runOnBoard == truthOnBoard
            && (truthOnGround...(truthOnGround + either)).contains(runOnGround)
    }
    /// All three counts right, in the hole included.
    public var allExact: Bool { visibleExact && runInHole == truthInHole }
}

/// A bag at rest that the census did not place: what it is and where it lay.
public struct UnseenBag: Codable, Equatable, Sendable {
    /// `BagPlace` raw value: on the board or on the ground.
    public var place: String
    public var color: RGB
    /// Centre in the video's pixels.
    public var x: Double
    public var y: Double
}

/// How often bags of one colour in one place went unseen over a corpus.
public struct UnseenTally: Codable, Equatable, Sendable {
    public var place: String
    public var color: RGB
    /// Rest states times bags: a bag unseen through a game's eight rest states counts eight.
    public var count: Int
}

/// How one game's detection results compare with its truth.
public struct DetectionGameReport: Codable, Equatable, Sendable {
    public var game: String
    public var width: Int
    public var height: Int
    public var fps: Int
    public var frames: Int

    /// Found board observations, and those without a board.
    public var boardFound: Int
    public var boardNotFound: Int
    /// Per found observation: the largest corner distance over the board's length in the picture.
    public var cornerErrors: [Double]
    /// Per found observation: hole centre distance over the hole's apparent diameter (major axis).
    public var holeErrors: [Double]
    /// Per found observation: |metres per pixel − truth| / truth.
    public var scaleErrors: [Double]
    /// Share of the settled frames during which a board was known (nil: no settled frame).
    public var boardCoverage: Double?

    public var firstSettledFrame: Int
    /// Last frame in which the picture still moved (−1: it never moved).
    public var lastMovingFrame: Int
    /// First frame judged stable at or after the picture stopped moving.
    public var firstStableFrame: Int?
    /// Seconds from the truth's first settled frame to the first stable verdict (0 when stable
    /// before it, in the still frames just before the flag); nil when never stable.
    public var stableLatencySeconds: Double?
    /// Frames judged stable while the picture was still moving (the verdict must be wrong).
    public var stableWhileMoving: Int
    /// Settled frames judged not stable after the first stable verdict (false alarms).
    public var unstableAfterSettling: Int
    /// Frames without a stability observation.
    public var stabilityMissing: Int
    /// Registered frames (a stability observation with a shift measured against the previous
    /// frame), those whose shift is more than a pixel of the analysed picture off the camera's
    /// true one, and the largest distance, in pixels of the analysed picture.
    public var registeredFrames: Int = 0
    public var registrationFramesOff: Int = 0
    public var registrationWorstPixels: Double = 0

    public var restStates: [CensusCheck]
}

/// Share of `values` at or below `limit`, the median and the worst.
public struct ToleranceStats: Codable, Equatable, Sendable {
    public var count: Int
    public var limit: Double
    public var withinShare: Double?
    public var median: Double?
    public var p90: Double?
    public var max: Double?

    public init(_ values: [Double], limit: Double) {
        count = values.count
        self.limit = limit
        guard !values.isEmpty else { return }
        let sorted = values.sorted()
        withinShare = Double(values.filter { $0 <= limit }.count) / Double(values.count)
        median = ErrorStats.quantile(sorted, 0.5)
        p90 = ErrorStats.quantile(sorted, 0.9)
        self.max = sorted.last
    }
}

/// The detection figures over a corpus, with each game's, and which requirements they meet.
public struct DetectionCorpusReport: Codable, Equatable, Sendable {
    public var games: [DetectionGameReport]
    /// Corner error as a fraction of the board length, over every found observation.
    public var corners: ToleranceStats
    /// Hole centre error as a fraction of the hole's apparent diameter.
    public var hole: ToleranceStats
    /// Metres-per-pixel error as a fraction.
    public var scale: ToleranceStats
    /// Games with a board found at all.
    public var gamesWithBoard: Int
    /// Settled frames with a board known, over all games.
    public var boardCoverage: Double?
    /// Stable-after-settling latency in seconds, per game that became stable.
    public var stableLatency: ToleranceStats
    public var gamesNeverStable: Int
    public var stableWhileMoving: Int
    public var unstableAfterSettling: Int
    /// Registered frames over all games, those more than a pixel off, and the largest error.
    public var registeredFrames: Int = 0
    public var registrationFramesOff: Int = 0
    public var registrationWorstPixels: Double = 0
    public var restStates: Int
    public var censusVisibleExact: Int
    public var censusAllExact: Int
    /// Throws whose first census after the landing agrees with the truth (`CensusCheck.verdictRight`).
    public var censusVerdictsRight: Int = 0
    /// The bags the census did not see, by place and colour, most often unseen first.
    public var unseenBags: [UnseenTally] = []
    /// Requirements not met, in words (empty: all met).
    public var failures: [String]

    public var censusVisibleExactShare: Double? { restStates > 0 ? Double(censusVisibleExact) / Double(restStates) : nil }
    public var censusAllExactShare: Double? { restStates > 0 ? Double(censusAllExact) / Double(restStates) : nil }
}

/// The requirements for the detection figures.
public struct DetectionRequirements: Codable, Equatable, Sendable {
    /// Corner error limit, fraction of the board length.
    public var cornerTolerance = 0.02
    /// Hole centre error limit, fraction of the hole's apparent diameter.
    public var holeTolerance = 0.15
    /// Metres-per-pixel error limit, fraction.
    public var scaleTolerance = 0.03
    /// Share of found board observations that must be within each tolerance.
    public var minBoardShare = 0.95
    /// Longest wait for a stable verdict after the camera settles, seconds.
    public var maxStableLatency = 1.0
    /// Rest states whose census counts must be exact (on board and on the ground near it).
    public var minCensusExact = 0.95

    public init() {}
}

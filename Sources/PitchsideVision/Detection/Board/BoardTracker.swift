import PitchsideCore

/// What the board tracker did with one frame.
public enum BoardTrackerEvent: Sendable {
    /// A search ran and found the board.
    case found(BoardDetection)
    /// A search ran and found nothing; the reason says why.
    case notFound(reason: String, bestConfidence: Double)
    /// The camera moved, so the board known until now is dropped.
    case lost(reason: String)
}

/// Keeps the board known across frames: searches until found, keeps it while the camera is
/// still, drops it when stability says the camera moved, and searches again once it is still.
///
/// ```swift
/// var tracker = BoardTracker()
/// let event = tracker.process(frame, stability: stabilityResult)   // nil: nothing new
/// ```
public struct BoardTracker: Sendable {
    public var detector = BoardDetector()
    /// Frames between searches while no board is known.
    public var retryInterval = 15
    public private(set) var board: BoardDetection?
    private var framesSinceSearch = Int.max / 2

    public init() {}

    /// `stability`: this frame's verdict, or nil when no stability analysis runs (then the board
    /// is searched for until found and kept).
    public mutating func process(_ frame: VideoFrame, stability: StabilityResult?) -> BoardTrackerEvent? {
        if let s = stability, s.moved, board != nil {
            board = nil
            framesSinceSearch = Int.max / 2
            return .lost(reason: "camera moved (shift \(String(format: "%.1f", s.summedShift)) px)")
        }
        framesSinceSearch += 1
        guard board == nil, framesSinceSearch >= retryInterval else { return nil }
        // Search only on a still camera when stability is known: a moving picture gives a board that is about to move.
        if let s = stability, !s.stable, s.registered { return nil }
        framesSinceSearch = 0
        let result = detector.search(in: frame.image)
        if let d = result.detection {
            board = d
            return .found(d)
        }
        return .notFound(reason: result.reason, bestConfidence: result.bestConfidence)
    }
}

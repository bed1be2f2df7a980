import PitchsideCore

/// The detection analysis of one video stream, frame by frame: scene stability every frame, the
/// board searched for, kept and dropped as the camera moves, and the bag census once things are
/// at rest; the results as wire messages.
///
/// The detection worker runs one per stream; `pitchside eval detection` runs the same over a
/// synthetic game's video to measure it against the truth.
///
/// ```swift
/// var stream = DetectionStream(producerID: "detection-1")
/// for frame in frames { for result in stream.process(frame) { publish(result) } }
/// ```
public struct DetectionStream: Sendable {
    public var stability = StabilityAnalyzer()
    public var tracker = BoardTracker()
    public var census = BagCensus()
    /// Frames between repeats of a known board (so a consumer that joins late learns it).
    public var boardInterval: Int
    public let producerID: String
    /// What the board tracker did with the last frame (nil: nothing new), for tools that say so
    /// in words (`pitchside inspect board`).
    public private(set) var lastBoardEvent: BoardTrackerEvent?
    private var framesSinceBoard = 0

    public init(producerID: String, boardInterval: Int = 30) {
        self.producerID = producerID
        self.boardInterval = max(1, boardInterval)
    }

    /// A `StabilityObservation` for every frame; a `BoardObservation` when the board is found,
    /// searched for in vain, lost, or due for a repeat; a `BoardCensus` when the bags at rest change.
    public mutating func process(_ frame: VideoFrame) -> [PSWorkerResult] {
        let header = PSHeader(frame: frame, producerID: producerID)
        let stable = stability.process(frame)
        var results = [PSWorkerResult.with { $0.stability = PSStabilityObservation(stable, header: header) }]
        framesSinceBoard += 1
        let event = tracker.process(frame, stability: stable, mayRefine: !census.hasSeenABagCome)
        lastBoardEvent = event
        // The bags at rest are forgotten only once the board is placed anew by a search: a camera
        // that seemed to move and did not (a walker in a plain scene) leaves them where they were,
        // and one whose picture was matched a few pixels away moved them as much.
        switch event {
        case .relocated(_, let dx, let dy)? where event?.movesTheBoard == true:
            census.follow(dx: Double(dx), dy: Double(dy))
        case .found?:
            census.reset()
        default:
            break
        }
        switch event {
        case .found(let board)?, .relocated(let board, _, _)?:
            results.append(PSWorkerResult.with { $0.board = PSBoardObservation(board, header: header) })
            framesSinceBoard = 0
        case .notFound(let reason, let confidence)?:
            results.append(PSWorkerResult.with { $0.board = PSBoardObservation(notFound: reason, confidence: confidence, header: header) })
        case .lost(let reason)?:
            results.append(PSWorkerResult.with { $0.board = PSBoardObservation(notFound: reason, confidence: 0, header: header) })
        case nil:
            if let board = tracker.board, framesSinceBoard >= boardInterval {
                results.append(PSWorkerResult.with { $0.board = PSBoardObservation(board, header: header) })
                framesSinceBoard = 0
            }
        }
        if let result = census.process(frame: frame, board: tracker.board, stable: stable.stable) {
            results.append(PSWorkerResult.with { $0.census = PSBoardCensus(result, header: header) })
        }
        return results
    }
}

/// What a game did with the results it was given (for metrics and tests).
public struct GameCounters: Sendable, Equatable {
    /// Results handled.
    public var handled = 0
    /// Results for another stream (dropped).
    public var wrongStream = 0
    /// Results at or before the restored progress mark (re-sent after a restart; dropped).
    public var replayed = 0
    /// Results without a header (heartbeats, empty messages).
    public var headerless = 0
    /// Trajectory observations seen while not tracking throws or without a board.
    public var trajectoriesIgnored = 0
    /// Throws started when what came before tracking began was played again (`PreTrackingBuffer`).
    public var throwsCaughtUp = 0
    /// Transitions the state machine refused.
    public var forbiddenTransitions = 0
    /// Throws whose outcome the board census confirmed.
    public var confirmedByCensus = 0

    public init() {}
}

/// What the merger did with the results it was given, per stream or in total.
public struct MergerCounters: Sendable, Equatable, Codable {
    /// Results taken into the re-order buffer.
    public var accepted = 0
    /// Results released in media-time order.
    public var released = 0
    /// Results older than what was already released (handed back as late, not dropped).
    public var late = 0
    /// Exact repeats of a result already buffered or recently released (dropped).
    public var duplicates = 0
    /// Results whose stream is not one the aggregator serves (dropped).
    public var unknownStream = 0
    /// Results without a header or with an empty stream id (dropped).
    public var missingStream = 0
    /// Results released early because the buffer hit its size or time bound.
    public var forcedReleases = 0
    /// Heartbeats and other messages that carry no frame result (not buffered).
    public var ignored = 0

    public init() {}
}

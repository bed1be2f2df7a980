/// Which frames a pose worker takes when a stream is shared by `count`
/// workers: frame `seq` goes to worker `seq mod count`. Every frame goes to
/// exactly one worker; the aggregator re-orders results by `pts_us`.
///
/// ```swift
/// let shard = try ShardSelector(parsing: "1/2")   // the second of two workers
/// shard.accepts(seq: 3)                            // true
/// ```
public struct ShardSelector: Sendable, Equatable, CustomStringConvertible {
    public let index: Int
    public let count: Int

    /// Every frame (one worker).
    public static let all = ShardSelector(uncheckedIndex: 0, count: 1)

    public init(index: Int, count: Int) throws {
        guard count >= 1, index >= 0, index < count else {
            throw ShardSelectorError.invalid("shard \(index)/\(count): need 0 ≤ k < N and N ≥ 1")
        }
        self.index = index
        self.count = count
    }

    private init(uncheckedIndex: Int, count: Int) {
        self.index = uncheckedIndex
        self.count = count
    }

    /// Parses "k/N", e.g. "0/2".
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            throw ShardSelectorError.invalid("shard \"\(text)\": expected k/N, e.g. 0/2")
        }
        try self.init(index: k, count: n)
    }

    public func accepts(seq: UInt64) -> Bool { seq % UInt64(count) == UInt64(index) }

    public var description: String { "\(index)/\(count)" }
}

public enum ShardSelectorError: Error, CustomStringConvertible, Equatable {
    case invalid(String)

    public var description: String {
        switch self {
        case .invalid(let message): return message
        }
    }
}

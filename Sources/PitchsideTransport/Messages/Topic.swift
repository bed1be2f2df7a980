/// A message topic, the first part of every Pitchside message: `<kind>/<stream>/<name>`.
///
/// - `frame/<stream>/<rendition>`  frames from capture (e.g. `frame/cam1/gray`)
/// - `result/<stream>/<kind>`      worker results (e.g. `result/cam1/trajectory`)
/// - `game/<stream>/<event>`       game events (e.g. `game/cam1/score`)
/// - `ack/_/<producer>`            the aggregator's receipts to one worker (`PSResultsAck`)
///
/// SUB filtering is by prefix, so `Topic.prefix(.frame, stream: "cam1")` (`frame/cam1/`)
/// receives every rendition of cam1 and never another stream's, thanks to the trailing slash.
///
/// ```swift
/// let topic = Topic.frame(stream: "cam1", rendition: "gray")
/// try Topic(parsing: "frame/cam1/gray") == topic   // true
/// ```
public struct Topic: Hashable, Sendable, CustomStringConvertible {
    /// The first segment of a topic: what the payload is.
    public enum Kind: String, Sendable, CaseIterable {
        case frame, result, game, ack
    }

    public let kind: Kind
    public let streamID: String
    /// The rendition of a frame, the kind of a result, or the event of a game topic.
    public let name: String

    /// Longest stream id or name accepted.
    public static let maxSegmentLength = 128

    /// Validates both segments; throws `TopicError` when one is empty or has a character outside
    /// letters, digits, `-`, `_`, `.`, `:` (so a topic can never contain a stray `/`).
    public init(kind: Kind, streamID: String, name: String) throws {
        try Self.validate(streamID, what: "stream id")
        try Self.validate(name, what: "\(kind.nameSegment)")
        self.kind = kind
        self.streamID = streamID
        self.name = name
    }

    /// Parses `kind/stream/name`; throws `TopicError` for anything else.
    public init(parsing text: String) throws {
        let segments = text.split(separator: "/", omittingEmptySubsequences: false)
        guard segments.count == 3 else {
            throw TopicError(topic: text, reason: "expected kind/stream/name, got \(segments.count) segments")
        }
        guard let kind = Kind(rawValue: String(segments[0])) else {
            throw TopicError(topic: text, reason: "unknown kind \"\(segments[0])\"")
        }
        do {
            try self.init(kind: kind, streamID: String(segments[1]), name: String(segments[2]))
        } catch let error as TopicError {
            throw TopicError(topic: text, reason: error.reason)
        }
    }

    /// Parses a topic, or nil when it is malformed.
    public static func parse(_ text: String) -> Topic? { try? Topic(parsing: text) }

    /// `frame/<stream>/<rendition>`. Traps on an invalid id: use `init(kind:streamID:name:)` for untrusted input.
    public static func frame(stream: String, rendition: String) -> Topic { trusted(.frame, stream, rendition) }
    /// `result/<stream>/<kind>`.
    public static func result(stream: String, kind: String) -> Topic { trusted(.result, stream, kind) }
    /// `game/<stream>/<event>`.
    public static func game(stream: String, event: String) -> Topic { trusted(.game, stream, event) }
    /// `ack/_/<producer>`: receipts are per worker, not per stream.
    public static func ack(producer: String) -> Topic { trusted(.ack, "_", producer) }

    /// A subscription prefix: `frame/`, `frame/cam1/` or `frame/cam1/gray`.
    public static func prefix(_ kind: Kind, stream: String? = nil, name: String? = nil) -> String {
        guard let stream else { return "\(kind.rawValue)/" }
        guard let name else { return "\(kind.rawValue)/\(stream)/" }
        return "\(kind.rawValue)/\(stream)/\(name)"
    }

    /// The topic as sent: `kind/stream/name`.
    public var string: String { "\(kind.rawValue)/\(streamID)/\(name)" }
    public var description: String { string }

    /// True when a SUB subscribed to `prefix` receives this topic.
    public func matches(prefix: String) -> Bool { string.hasPrefix(prefix) }

    private static func trusted(_ kind: Kind, _ stream: String, _ name: String) -> Topic {
        do {
            return try Topic(kind: kind, streamID: stream, name: name)
        } catch {
            preconditionFailure("\(error)")
        }
    }

    /// Whether `text` is a valid stream id or name segment.
    public static func isValidSegment(_ text: String) -> Bool {
        (try? validate(text, what: "segment")) != nil
    }

    private static func validate(_ segment: String, what: String) throws {
        guard !segment.isEmpty else { throw TopicError(topic: segment, reason: "empty \(what)") }
        guard segment.utf8.count <= maxSegmentLength else {
            throw TopicError(topic: segment, reason: "\(what) longer than \(maxSegmentLength) bytes")
        }
        for byte in segment.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
                UInt8(ascii: "."), UInt8(ascii: ":"):
                continue
            default:
                throw TopicError(topic: segment, reason: "\(what) \"\(segment)\" has a character outside [A-Za-z0-9._:-]")
            }
        }
    }
}

extension Topic.Kind {
    fileprivate var nameSegment: String {
        switch self {
        case .frame: return "rendition"
        case .result: return "result kind"
        case .game: return "event"
        case .ack: return "producer"
        }
    }
}

/// A topic that does not follow `kind/stream/name`.
public struct TopicError: Error, CustomStringConvertible, Equatable, Sendable {
    public var topic: String
    public var reason: String
    public var description: String { "malformed topic \"\(topic)\": \(reason)" }
}

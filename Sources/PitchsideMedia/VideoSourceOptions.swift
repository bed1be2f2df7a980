/// How a `VideoSource` opens and decodes its input.
///
/// ```swift
/// var options = VideoSourceOptions()
/// options.threads = 2                       // decoder threads (1 = deterministic, the default)
/// options.formatOptions = ["rw_timeout": "5000000"]   // e.g. for network URLs (µs)
/// ```
public struct VideoSourceOptions: Sendable {
    /// Decoder threads; 1 keeps decoding single-threaded, 0 lets FFmpeg pick.
    public var threads = 1
    /// Force a demuxer by FFmpeg name (e.g. "h264", "mjpeg"); nil probes the input.
    public var inputFormat: String?
    /// Options for the demuxer / protocol (FFmpeg's `-option value` pairs).
    public var formatOptions: [String: String] = [:]
    /// Force a decoder by FFmpeg name; nil picks the default one for the codec.
    public var decoderName: String?
    /// What to do when the picture size changes mid-stream.
    public var resolutionChange = ResolutionChangePolicy.allow

    public init() {}
}

/// What a `VideoSource` does when a picture's size differs from the first one's.
public enum ResolutionChangePolicy: Sendable {
    /// Deliver it and count it (`DecodeStatistics.resolutionChanges`); a
    /// `RenditionConverter` keeps its output sizes, so consumers see no change.
    case allow
    /// Stop with `MediaError.resolutionChanged`.
    case fail
}

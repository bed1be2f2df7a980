/// Why media could not be read or written; each case prints as one clear line.
///
/// ```swift
/// do { _ = try VideoSource(url: "missing.mp4") }
/// catch let error as MediaError { print(error) }   // "no such file: missing.mp4"
/// ```
public enum MediaError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The path does not exist.
    case noSuchFile(String)
    /// The file exists but holds no bytes.
    case emptyFile(String)
    /// A device input (e.g. a `v4l2` camera) whose path does not exist.
    case noSuchDevice(String, format: String)
    /// FFmpeg cannot open or identify the input (not a media file, unreachable URL, ...).
    case notAVideo(String, reason: String)
    /// The input opened but has no video stream (e.g. audio only).
    case noVideoStream(String)
    /// The video stream uses a codec this FFmpeg build cannot decode.
    case unsupportedCodec(String, codec: String)
    /// The file ended before its index said it would; the frames that were there were delivered.
    case truncated(String, framesDelivered: Int, framesExpected: Int?, reason: String)
    /// The picture size changed mid-stream and the source was asked to refuse that.
    case resolutionChanged(String, from: String, to: String, ptsUs: Int64)
    /// Decoding failed in a way that cannot be skipped.
    case decodeFailed(String, reason: String)
    /// Encoding or writing output failed.
    case encodeFailed(String, reason: String)
    /// An image given to an encoder does not match what it was set up for.
    case badImage(String)

    public var description: String {
        switch self {
        case .noSuchFile(let path):
            return "no such file: \(path)"
        case .emptyFile(let path):
            return "\(path) is empty (0 bytes)"
        case .noSuchDevice(let path, let format):
            return "no such \(format) device: \(path) (is the camera connected?)"
        case .notAVideo(let path, let reason):
            return "\(path) is not a video FFmpeg can read (\(reason))"
        case .noVideoStream(let path):
            return "\(path) has no video stream"
        case .unsupportedCodec(let path, let codec):
            return "\(path) uses codec \(codec), which this FFmpeg build cannot decode"
        case .truncated(let path, let delivered, let expected, let reason):
            let of = expected.map { " of \($0)" } ?? ""
            return "\(path) is truncated: decoded \(delivered)\(of) frames (\(reason))"
        case .resolutionChanged(let path, let from, let to, let ptsUs):
            return "\(path) changes picture size from \(from) to \(to) at \(ptsUs) µs"
        case .decodeFailed(let path, let reason):
            return "cannot decode \(path): \(reason)"
        case .encodeFailed(let path, let reason):
            return "cannot write \(path): \(reason)"
        case .badImage(let reason):
            return "bad image: \(reason)"
        }
    }
}

/// What is known about a video before (and while) decoding it.
public struct VideoSourceInfo: Sendable, Equatable {
    /// Size of the first picture (as the stream header declares it).
    public var width: Int
    public var height: Int
    /// Nominal frames per second (25 when the input does not say).
    public var framesPerSecond: Double
    /// Length in microseconds, when known (not for cameras or live streams).
    public var durationUs: Int64?
    /// Frames the index announces, or duration × rate; nil when unknown. For progress lines.
    public var estimatedFrameCount: Int?
    /// FFmpeg's name of the codec, e.g. "h264".
    public var codecName: String
    /// FFmpeg's name of the container, e.g. "mov,mp4,m4a,3gp,3g2,mj2".
    public var containerName: String
}

/// Running counts of what decoding met, for logs and metrics.
public struct DecodeStatistics: Sendable, Equatable {
    /// Pictures delivered.
    public var frames = 0
    /// Video packets read from the container.
    public var packets = 0
    /// Packets the container flagged as damaged or the decoder rejected (skipped).
    public var corruptPackets = 0
    /// Pictures the decoder delivered with concealed errors.
    public var corruptFrames = 0
    /// Times the picture size changed mid-stream.
    public var resolutionChanges = 0
    /// Pictures whose timestamp was missing or went backwards and was made up from the frame rate.
    public var synthesizedTimestamps = 0
    /// FFmpeg's most recent complaint, if any.
    public var lastWarning: String?
}

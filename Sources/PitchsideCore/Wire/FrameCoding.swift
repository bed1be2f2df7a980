import Foundation

/// Conversions between the wire `PSFrame` and the analysers' `VideoFrame`.
///
/// Decoding checks that the sizes add up (width × height × channels against the
/// data length), so a malformed frame is an error the node counts, never a crash.
public enum FrameCodingError: Error, CustomStringConvertible, Equatable {
    case unsupportedFormat(String)
    case inconsistentSize(String)

    public var description: String {
        switch self {
        case .unsupportedFormat(let m): return "unsupported pixel format: \(m)"
        case .inconsistentSize(let m): return "inconsistent frame size: \(m)"
        }
    }
}

extension PSPixelFormat {
    public init(_ layout: PixelLayout) {
        switch layout {
        case .gray8: self = .gray8
        case .rgb24: self = .rgb24
        case .yuv420p: self = .yuv420P
        }
    }

    public var layout: PixelLayout? {
        switch self {
        case .gray8: return .gray8
        case .rgb24: return .rgb24
        case .yuv420P: return .yuv420p
        default: return nil
        }
    }
}

extension PSFrame {
    /// A wire frame carrying `frame`'s pixels in rendition `rendition`.
    public init(_ frame: VideoFrame, rendition: String, producerID: String, sourceWidth: Int, sourceHeight: Int, frameRate: Double) {
        self.init()
        header = PSHeader(frame: frame, producerID: producerID)
        self.rendition = rendition
        format = PSPixelFormat(frame.image.layout)
        width = UInt32(frame.image.width)
        height = UInt32(frame.image.height)
        stride = UInt32(frame.image.stride)
        data = Data(frame.image.pixels)
        self.sourceWidth = UInt32(sourceWidth)
        self.sourceHeight = UInt32(sourceHeight)
        self.frameRate = frameRate
    }

    /// Every field of a frame but its pixels, which travel in a `FrameBuffer` (packed rows:
    /// stride = width × bytes per pixel). The same fields as `init(_:rendition:...)` gives.
    public init(streamID: String, seq: UInt64, ptsUs: Int64, captureUnixUs: Int64, rendition: String,
                layout: PixelLayout, width: Int, height: Int, producerID: String,
                sourceWidth: Int, sourceHeight: Int, frameRate: Double) {
        self.init()
        header.streamID = streamID
        header.seq = seq
        header.ptsUs = ptsUs
        header.captureUnixUs = captureUnixUs
        header.frameWidth = UInt32(width)
        header.frameHeight = UInt32(height)
        header.producerID = producerID
        header.producedUnixUs = WallClock.nowUnixUs()
        self.rendition = rendition
        format = PSPixelFormat(layout)
        self.width = UInt32(width)
        self.height = UInt32(height)
        stride = UInt32(width * layout.bytesPerPixel)
        self.sourceWidth = UInt32(sourceWidth)
        self.sourceHeight = UInt32(sourceHeight)
        self.frameRate = frameRate
    }

    /// The analysers' view of this frame; throws when the sizes do not add up.
    public func videoFrame() throws -> VideoFrame {
        try VideoFrame(header: header, format: format, width: width, height: height, stride: stride, data: data)
    }
}

extension VideoFrame {
    /// A frame from a wire message's fields (`PSFrame` or `FrameView`), the pixels copied
    /// once; throws when the format is unknown or the sizes do not add up.
    init(header: PSHeader, format: PSPixelFormat, width: UInt32, height: UInt32, stride: UInt32, data: Data) throws {
        guard let layout = format.layout else {
            throw FrameCodingError.unsupportedFormat("\(format)")
        }
        let width = Int(width), height = Int(height), stride = Int(stride)
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw FrameCodingError.inconsistentSize("\(width)×\(height)")
        }
        guard stride >= width * layout.bytesPerPixel, data.count == layout.byteCount(stride: stride, height: height) else {
            throw FrameCodingError.inconsistentSize(
                "\(width)×\(height) \(layout.rawValue) stride \(stride) needs \(layout.byteCount(stride: stride, height: height)) bytes, got \(data.count)")
        }
        let image = try ImageBuffer(width: width, height: height, layout: layout, stride: stride, pixels: [UInt8](data))
        self.init(streamID: header.streamID, seq: header.seq, ptsUs: header.ptsUs,
                  captureUnixUs: header.captureUnixUs, image: image)
    }
}

extension PSHeader {
    /// A header describing `frame`, produced now by `producerID`.
    public init(frame: VideoFrame, producerID: String) {
        self.init()
        streamID = frame.streamID
        seq = frame.seq
        ptsUs = frame.ptsUs
        captureUnixUs = frame.captureUnixUs
        frameWidth = UInt32(frame.image.width)
        frameHeight = UInt32(frame.image.height)
        self.producerID = producerID
        producedUnixUs = WallClock.nowUnixUs()
    }
}

/// Wall-clock time, for latency figures only (media time orders everything).
public enum WallClock {
    public static func nowUnixUs() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }

    /// Monotonic seconds, for pacing and timeouts.
    public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}

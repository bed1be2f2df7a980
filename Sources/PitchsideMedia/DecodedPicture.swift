import CFFmpeg

/// One decoded picture straight from FFmpeg, before any conversion.
///
/// It holds a reference to the decoder's buffer (no copy); turn it into
/// `ImageBuffer`s with a `RenditionConverter`. Safe to keep after the next
/// picture is decoded.
public final class DecodedPicture {
    /// 0-based position in decode output order (= presentation order).
    public let index: Int
    /// Microseconds from the start of the stream; strictly increasing.
    public let ptsUs: Int64
    public let width: Int
    public let height: Int
    /// FFmpeg's name of the pixel format, e.g. "yuv420p".
    public var pixelFormatName: String {
        av_get_pix_fmt_name(AVPixelFormat(rawValue: frame.pointee.format)).map { String(cString: $0) } ?? "unknown"
    }
    /// The decoder flagged this picture as damaged (concealed errors).
    public let isCorrupt: Bool

    let frame: UnsafeMutablePointer<AVFrame>

    /// Takes over `frame` (freed on deinit).
    init(frame: UnsafeMutablePointer<AVFrame>, index: Int, ptsUs: Int64, isCorrupt: Bool) {
        self.frame = frame
        self.index = index
        self.ptsUs = ptsUs
        self.width = Int(frame.pointee.width)
        self.height = Int(frame.pointee.height)
        self.isCorrupt = isCorrupt
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = self.frame
        av_frame_free(&frame)
    }

    var pixelFormat: AVPixelFormat { AVPixelFormat(rawValue: frame.pointee.format) }
    var isFullRange: Bool {
        frame.pointee.color_range == AVCOL_RANGE_JPEG || pixelFormat == AV_PIX_FMT_YUVJ420P
            || pixelFormat == AV_PIX_FMT_YUVJ422P || pixelFormat == AV_PIX_FMT_YUVJ444P
    }
}

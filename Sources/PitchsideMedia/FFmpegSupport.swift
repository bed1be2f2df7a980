import PitchsideCore
import Glibc
import CFFmpeg

/// Process-wide FFmpeg set-up and error text (internal).
///
/// FFmpeg's own logging is captured, not printed: its most recent lines are
/// attached to our errors instead. Set `PITCHSIDE_FFMPEG_LOG=1` to also echo them.
enum FFmpeg {
    /// Runs once, before the first FFmpeg call of any media type.
    static let prepared: Void = {
        let echo: Int32 = getenvFlag("PITCHSIDE_FFMPEG_LOG") ? 1 : 0
        pitchside_av_capture_log(AV_LOG_ERROR, echo)
        avformat_network_init()
        avdevice_register_all()  // cameras (v4l2), screen grabs, lavfi test sources as input formats
    }()

    static func prepare() { _ = prepared }

    static let eagain = pitchside_averror_eagain()
    static let eof = pitchside_averror_eof()
    static let noPTS = pitchside_av_nopts_value()

    /// FFmpeg's text for an error code, e.g. "Invalid data found when processing input".
    static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        pitchside_av_strerror(code, &buffer, buffer.count)
        return String(cString: buffer)
    }

    /// The log lines FFmpeg wrote since the last call (empty when none).
    static func takeLog() -> String {
        var buffer = [CChar](repeating: 0, count: 2048)
        let n = pitchside_av_take_log(&buffer, buffer.count)
        return n == 0 ? "" : String(cString: buffer)
    }

    /// `describe(code)` plus what FFmpeg logged, for one error line.
    static func explain(_ code: Int32) -> String {
        let log = takeLog()
        let text = describe(code)
        return log.isEmpty || log == text ? text : "\(text): \(log)"
    }

    /// Whether an input format is a libavdevice device (camera, screen grab, lavfi) rather than a demuxer.
    static func isDevice(_ format: UnsafePointer<AVInputFormat>) -> Bool {
        var device = av_input_video_device_next(nil)
        while let current = device {
            if current == format { return true }
            device = av_input_video_device_next(current)
        }
        return false
    }

    private static func getenvFlag(_ name: String) -> Bool {
        guard let value = getenv(name) else { return false }
        let text = String(cString: value)
        return !text.isEmpty && text != "0"
    }
}

/// Views an AVFrame's fixed-size `data`/`linesize` tuples as C arrays.
extension UnsafeMutablePointer where Pointee == AVFrame {
    func withPlanes<R>(
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>, UnsafeMutablePointer<Int32>) throws -> R
    ) rethrows -> R {
        try withUnsafeMutablePointer(to: &pointee.data) { data in
            try withUnsafeMutablePointer(to: &pointee.linesize) { lines in
                try data.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { planes in
                    try lines.withMemoryRebound(to: Int32.self, capacity: 8) { strides in
                        try body(planes, strides)
                    }
                }
            }
        }
    }
}

extension PixelLayout {
    /// The FFmpeg pixel format with the same memory layout.
    var avPixelFormat: AVPixelFormat {
        switch self {
        case .gray8: return AV_PIX_FMT_GRAY8
        case .rgb24: return AV_PIX_FMT_RGB24
        case .yuv420p: return AV_PIX_FMT_YUV420P
        }
    }
}

import CFFmpeg
import PitchsideCore

/// Writes `ImageBuffer`s as an H.264 video (libx264, yuv420p) at a constant frame rate.
///
/// Frame `i` gets presentation time `i / framesPerSecond`, so a decoder reads it back
/// at `ptsUs ≈ i × 1e6 / fps`. The container follows the file extension (`.mp4`,
/// `.mkv`, `.ts`, `.h264` for a raw stream); unknown extensions get MP4.
///
/// ```swift
/// let encoder = try VideoEncoder(path: "/tmp/clip.mp4", width: 640, height: 360, framesPerSecond: 30)
/// for image in images { try encoder.append(image) }   // rgb24 or gray8, 640×360
/// try encoder.finish()
/// ```
public final class VideoEncoder {
    public let path: String
    public let width: Int
    public let height: Int
    public let framesPerSecond: Int
    /// Frames accepted by `append` so far.
    public private(set) var framesWritten = 0
    /// The x264 speed presets, fastest first.
    public static let presets = [
        "ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo",
    ]

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var codec: UnsafeMutablePointer<AVCodecContext>?
    private var stream: UnsafeMutablePointer<AVStream>
    private var frame: UnsafeMutablePointer<AVFrame>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let scaler = Scaler()
    private var finished = false

    /// Opens `path` for writing.
    /// - Parameters:
    ///   - crf: x264 constant rate factor (0 lossless luma, 18 visually clean, 23 default, 51 worst).
    ///   - preset: x264 speed preset (`ultrafast` … `veryslow`).
    ///   - threads: encoder threads; 0 lets x264 choose.
    ///   - fastStart: put the MP4 index first (needed to decode a file cut short).
    ///   - keyframeInterval: frames between key frames; 0 keeps x264's default (250).
    public init(
        path: String, width: Int, height: Int, framesPerSecond: Int, crf: Int = 18, preset: String = "veryfast",
        threads: Int = 0, fastStart: Bool = false, keyframeInterval: Int = 0
    ) throws {
        FFmpeg.prepare()
        self.path = path
        self.width = width
        self.height = height
        self.framesPerSecond = framesPerSecond
        guard width > 0, height > 0, width % 2 == 0, height % 2 == 0 else {
            throw MediaError.badImage("H.264 yuv420p needs an even, positive size, not \(width)×\(height)")
        }
        guard framesPerSecond > 0 else { throw MediaError.badImage("frame rate must be positive") }
        // Checked here because x264 prints an unknown preset straight to stderr.
        guard Self.presets.contains(preset) else {
            throw MediaError.encodeFailed(
                path, reason: "libx264 refused the settings: unknown preset \(preset) (\(Self.presets.joined(separator: ", ")))")
        }

        var format: UnsafeMutablePointer<AVFormatContext>?
        if avformat_alloc_output_context2(&format, nil, nil, path) < 0 || format == nil {
            _ = FFmpeg.takeLog()
            avformat_alloc_output_context2(&format, nil, "mp4", path)
        }
        guard let format else { throw MediaError.encodeFailed(path, reason: "no muxer for this file name") }
        self.format = format
        guard let encoder = avcodec_find_encoder_by_name("libx264") else {
            avformat_free_context(format)
            throw MediaError.encodeFailed(path, reason: "this FFmpeg build has no libx264 encoder")
        }
        guard let stream = avformat_new_stream(format, nil), let codec = avcodec_alloc_context3(encoder) else {
            avformat_free_context(format)
            throw MediaError.encodeFailed(path, reason: "out of memory")
        }
        self.stream = stream
        self.codec = codec
        codec.pointee.width = Int32(width)
        codec.pointee.height = Int32(height)
        codec.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        codec.pointee.time_base = AVRational(num: 1, den: Int32(framesPerSecond))
        codec.pointee.framerate = AVRational(num: Int32(framesPerSecond), den: 1)
        codec.pointee.thread_count = Int32(threads)
        if keyframeInterval > 0 { codec.pointee.gop_size = Int32(keyframeInterval) }
        if format.pointee.oformat.pointee.flags & AVFMT_GLOBALHEADER != 0 {
            codec.pointee.flags |= AV_CODEC_FLAG_GLOBAL_HEADER
        }
        var options: OpaquePointer?
        av_dict_set(&options, "preset", preset, 0)
        av_dict_set(&options, "crf", String(crf), 0)
        let opened = avcodec_open2(codec, encoder, &options)
        av_dict_free(&options)
        if opened < 0 {
            let reason = FFmpeg.explain(opened)
            release()
            throw MediaError.encodeFailed(path, reason: "libx264 refused the settings: \(reason)")
        }
        avcodec_parameters_from_context(stream.pointee.codecpar, codec)
        stream.pointee.time_base = codec.pointee.time_base
        stream.pointee.avg_frame_rate = codec.pointee.framerate

        if format.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0 {
            let result = avio_open(&format.pointee.pb, path, AVIO_FLAG_WRITE)
            if result < 0 {
                let reason = FFmpeg.explain(result)
                release()
                throw MediaError.encodeFailed(path, reason: reason)
            }
        }
        var muxOptions: OpaquePointer?
        if fastStart { av_dict_set(&muxOptions, "movflags", "+faststart", 0) }
        let header = avformat_write_header(format, &muxOptions)
        av_dict_free(&muxOptions)
        if header < 0 {
            let reason = FFmpeg.explain(header)
            release()
            throw MediaError.encodeFailed(path, reason: reason)
        }
        frame = av_frame_alloc()
        packet = av_packet_alloc()
        guard let frame else { release(); throw MediaError.encodeFailed(path, reason: "out of memory") }
        frame.pointee.format = AV_PIX_FMT_YUV420P.rawValue
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        if av_frame_get_buffer(frame, 0) < 0 {
            release()
            throw MediaError.encodeFailed(path, reason: "cannot allocate a \(width)×\(height) frame")
        }
    }

    deinit { release() }

    /// Encodes one picture (rgb24, gray8 or yuv420p, the size given at init) as the next frame.
    public func append(_ image: ImageBuffer) throws {
        guard !finished, let codec, let frame else {
            throw MediaError.encodeFailed(path, reason: "append after finish")
        }
        guard image.width == width, image.height == height else {
            throw MediaError.badImage("image is \(image.width)×\(image.height), the video is \(width)×\(height)")
        }
        if av_frame_make_writable(frame) < 0 {
            throw MediaError.encodeFailed(path, reason: "cannot reuse the frame buffer")
        }
        let key = Scaler.Key(
            sourceWidth: Int32(width), sourceHeight: Int32(height), sourceFormat: image.layout.avPixelFormat.rawValue,
            targetWidth: Int32(width), targetHeight: Int32(height), targetFormat: AV_PIX_FMT_YUV420P.rawValue,
            flags: SWS_BILINEAR)
        guard let sws = scaler.context(for: key) else {
            throw MediaError.encodeFailed(path, reason: "no converter from \(image.layout.rawValue) to yuv420p")
        }
        image.pixels.withUnsafeBufferPointer { pixels in
            var source: [UnsafePointer<UInt8>?] = [pixels.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(image.stride), 0, 0, 0]
            if image.layout == .yuv420p {
                let chroma = image.chromaPlanes
                source[1] = pixels.baseAddress! + chroma.u
                source[2] = pixels.baseAddress! + chroma.v
                strides[1] = Int32(chroma.stride)
                strides[2] = Int32(chroma.stride)
            }
            frame.withPlanes { planes, lines in
                _ = sws_scale(sws, &source, &strides, 0, Int32(height), planes, lines)
            }
        }
        frame.pointee.pts = Int64(framesWritten)
        let sent = avcodec_send_frame(codec, frame)
        if sent < 0 { throw MediaError.encodeFailed(path, reason: FFmpeg.explain(sent)) }
        framesWritten += 1
        try drain()
    }

    /// Flushes the encoder and writes the container's trailer; the file is complete after this.
    public func finish() throws {
        guard !finished, let codec, let format else { return }
        finished = true
        let sent = avcodec_send_frame(codec, nil)
        if sent < 0 { throw MediaError.encodeFailed(path, reason: FFmpeg.explain(sent)) }
        try drain()
        let trailer = av_write_trailer(format)
        if trailer < 0 { throw MediaError.encodeFailed(path, reason: FFmpeg.explain(trailer)) }
        release()
    }

    /// Moves every packet the encoder has ready into the file.
    private func drain() throws {
        guard let codec, let packet, let format else { return }
        while true {
            let received = avcodec_receive_packet(codec, packet)
            if received == FFmpeg.eagain || received == FFmpeg.eof { return }
            if received < 0 { throw MediaError.encodeFailed(path, reason: FFmpeg.explain(received)) }
            av_packet_rescale_ts(packet, codec.pointee.time_base, stream.pointee.time_base)
            packet.pointee.stream_index = stream.pointee.index
            let written = av_interleaved_write_frame(format, packet)
            if written < 0 { throw MediaError.encodeFailed(path, reason: FFmpeg.explain(written)) }
        }
    }

    private func release() {
        if codec != nil { avcodec_free_context(&codec) }
        if frame != nil { av_frame_free(&frame) }
        if packet != nil { av_packet_free(&packet) }
        if let format {
            if format.pointee.oformat.pointee.flags & AVFMT_NOFILE == 0, format.pointee.pb != nil {
                avio_closep(&format.pointee.pb)
            }
            avformat_free_context(format)
            self.format = nil
        }
    }
}

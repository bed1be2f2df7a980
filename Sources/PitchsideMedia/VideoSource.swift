import CFFmpeg
import Foundation

/// Decodes the best video stream of anything libavformat reads: files, single
/// images (a PNG or JPEG is a one-frame video), raw streams and network URLs.
///
/// ```swift
/// let source = try VideoSource(url: "game.mp4")
/// while let picture = try source.nextPicture() {
///     print(picture.index, picture.ptsUs, picture.width, picture.height)
/// }
/// ```
///
/// Damaged packets are skipped and counted in `statistics`. A file that ends
/// before its index says (cut short) delivers every picture that is there and
/// then `nextPicture()` throws `MediaError.truncated` once; later calls return nil.
public final class VideoSource {
    public let url: String
    public let info: VideoSourceInfo
    public private(set) var statistics = DecodeStatistics()
    private let options: VideoSourceOptions

    private var format: UnsafeMutablePointer<AVFormatContext>?
    private var decoder: UnsafeMutablePointer<AVCodecContext>?
    private var packet: UnsafeMutablePointer<AVPacket>?
    private let streamIndex: Int32
    private let timeBase: AVRational
    private let startPts: Int64?
    private let frameDurationUs: Int64
    private let indexFrameCount: Int?

    private var firstPts: Int64?
    private var lastPtsUs: Int64?
    private var firstSize: (width: Int, height: Int)?
    private var lastSize: (width: Int, height: Int)?
    private var draining = false
    private var finished = false
    private var readError: String?

    public init(url: String, options: VideoSourceOptions = VideoSourceOptions()) throws {
        FFmpeg.prepare()
        self.url = url
        self.options = options
        _ = FFmpeg.takeLog()

        var inputFormat: UnsafePointer<AVInputFormat>?
        let formatName = options.inputFormat ?? Self.impliedInputFormat(url)
        if let name = formatName {
            inputFormat = av_find_input_format(name)
            if inputFormat == nil {
                throw MediaError.notAVideo(url, reason: "FFmpeg has no input format named \(name)")
            }
        }
        if let device = inputFormat, FFmpeg.isDevice(device) {
            // A device's "url" is a device path or a description (lavfi's filter graph).
            if url.hasPrefix("/dev/"), access(url, F_OK) != 0 {
                throw MediaError.noSuchDevice(url, format: formatName ?? String(cString: device.pointee.name))
            }
        } else {
            try Self.checkLocalFile(url)
        }

        var format: UnsafeMutablePointer<AVFormatContext>?
        var dictionary: OpaquePointer?
        for (key, value) in options.formatOptions { av_dict_set(&dictionary, key, value, 0) }
        let opened = avformat_open_input(&format, url, inputFormat, &dictionary)
        av_dict_free(&dictionary)
        guard opened >= 0, format != nil else { throw MediaError.notAVideo(url, reason: FFmpeg.explain(opened)) }
        var decoder: UnsafeMutablePointer<AVCodecContext>?
        var cleanup = true
        defer {
            if cleanup {
                avcodec_free_context(&decoder)
                avformat_close_input(&format)
            }
        }
        let input = format!

        let probed = avformat_find_stream_info(input, nil)
        if probed < 0 { throw MediaError.notAVideo(url, reason: FFmpeg.explain(probed)) }
        let best = av_find_best_stream(input, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard best >= 0, let stream = input.pointee.streams[Int(best)] else { throw MediaError.noVideoStream(url) }
        streamIndex = best
        let parameters = stream.pointee.codecpar!
        let codecName = String(cString: avcodec_get_name(parameters.pointee.codec_id))

        let codec: UnsafePointer<AVCodec>?
        if let name = options.decoderName {
            codec = avcodec_find_decoder_by_name(name)
            if let codec, codec.pointee.id != parameters.pointee.codec_id {
                throw MediaError.unsupportedCodec(url, codec: "\(codecName) (decoder \(name) is for another codec)")
            }
        } else {
            codec = avcodec_find_decoder(parameters.pointee.codec_id)
        }
        guard let codec else {
            var label = codecName
            if let name = options.decoderName { label += " (no decoder named \(name))" }
            else if parameters.pointee.codec_tag != 0 { label += " (tag \(Self.fourcc(parameters.pointee.codec_tag)))" }
            throw MediaError.unsupportedCodec(url, codec: label)
        }
        decoder = avcodec_alloc_context3(codec)
        guard let context = decoder else { throw MediaError.decodeFailed(url, reason: "out of memory") }
        avcodec_parameters_to_context(context, parameters)
        context.pointee.thread_count = Int32(max(0, options.threads))
        context.pointee.pkt_timebase = stream.pointee.time_base
        let decoderOpened = avcodec_open2(context, codec, nil)
        if decoderOpened < 0 {
            throw MediaError.unsupportedCodec(url, codec: "\(codecName) (\(FFmpeg.explain(decoderOpened)))")
        }
        packet = av_packet_alloc()

        timeBase = stream.pointee.time_base
        startPts = stream.pointee.start_time == FFmpeg.noPTS ? nil : stream.pointee.start_time
        let rate = Self.frameRate(stream)
        frameDurationUs = max(1, Int64((1_000_000 / rate).rounded()))
        let durationUs: Int64?
        if stream.pointee.duration != FFmpeg.noPTS, stream.pointee.duration > 0 {
            durationUs = av_rescale_q(stream.pointee.duration, stream.pointee.time_base, AVRational(num: 1, den: 1_000_000))
        } else if input.pointee.duration != FFmpeg.noPTS, input.pointee.duration > 0 {
            durationUs = input.pointee.duration  // AV_TIME_BASE is 1 MHz
        } else {
            durationUs = nil
        }
        indexFrameCount = stream.pointee.nb_frames > 0 ? Int(stream.pointee.nb_frames) : nil
        let estimate = indexFrameCount ?? durationUs.map { Int((Double($0) * rate / 1e6).rounded()) }
        info = VideoSourceInfo(
            width: Int(parameters.pointee.width), height: Int(parameters.pointee.height),
            framesPerSecond: rate, durationUs: durationUs, estimatedFrameCount: estimate,
            codecName: codecName, containerName: String(cString: input.pointee.iformat.pointee.name))
        self.format = input
        self.decoder = context
        cleanup = false
    }

    deinit {
        avcodec_free_context(&decoder)
        av_packet_free(&packet)
        avformat_close_input(&format)
    }

    /// The next picture in presentation order, or nil at the end of the stream.
    public func nextPicture() throws -> DecodedPicture? {
        guard !finished, let decoder, let format, let packet else { return nil }
        while true {
            guard let frame = av_frame_alloc() else { throw MediaError.decodeFailed(url, reason: "out of memory") }
            let received = avcodec_receive_frame(decoder, frame)
            if received >= 0 {
                return try deliver(frame)
            }
            var unused: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&unused)
            if received == FFmpeg.eof {
                return try end()
            }
            if received != FFmpeg.eagain {
                // A decode error on output: count it and keep going; the decoder resynchronises.
                statistics.corruptPackets += 1
                statistics.lastWarning = FFmpeg.explain(received)
                if draining { return try end() }
                continue
            }
            if draining { return try end() }  // EAGAIN while draining should not happen; never spin.
            let read = av_read_frame(format, packet)
            if read < 0 {
                if read != FFmpeg.eof { readError = FFmpeg.explain(read) }
                draining = true
                _ = avcodec_send_packet(decoder, nil)
                continue
            }
            defer { av_packet_unref(packet) }
            guard packet.pointee.stream_index == streamIndex else { continue }
            statistics.packets += 1
            if packet.pointee.flags & AV_PKT_FLAG_CORRUPT != 0 {
                statistics.corruptPackets += 1
                continue
            }
            let sent = avcodec_send_packet(decoder, packet)
            if sent < 0, sent != FFmpeg.eagain {
                statistics.corruptPackets += 1
                statistics.lastWarning = FFmpeg.explain(sent)
            }
        }
    }

    /// Stamps and checks one decoded frame.
    private func deliver(_ frame: UnsafeMutablePointer<AVFrame>) throws -> DecodedPicture {
        let size = (width: Int(frame.pointee.width), height: Int(frame.pointee.height))
        if let last = lastSize, last != size {
            statistics.resolutionChanges += 1
            if options.resolutionChange == .fail {
                var unused: UnsafeMutablePointer<AVFrame>? = frame
                av_frame_free(&unused)
                finished = true
                throw MediaError.resolutionChanged(
                    url, from: "\(last.width)×\(last.height)", to: "\(size.width)×\(size.height)",
                    ptsUs: (lastPtsUs ?? 0) + frameDurationUs)
            }
        }
        if firstSize == nil { firstSize = size }
        lastSize = size

        let ptsUs = stamp(frame.pointee.best_effort_timestamp)
        let corrupt = frame.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 || frame.pointee.decode_error_flags != 0
        if corrupt { statistics.corruptFrames += 1 }
        let picture = DecodedPicture(frame: frame, index: statistics.frames, ptsUs: ptsUs, isCorrupt: corrupt)
        statistics.frames += 1
        return picture
    }

    /// Microseconds from the stream start; made up from the frame rate when missing or not increasing.
    private func stamp(_ pts: Int64) -> Int64 {
        var result: Int64?
        if pts != FFmpeg.noPTS {
            let origin = startPts ?? firstPts ?? pts
            if firstPts == nil { firstPts = pts }
            result = av_rescale_q(pts - origin, timeBase, AVRational(num: 1, den: 1_000_000))
        }
        if let last = lastPtsUs, result == nil || result! <= last {
            statistics.synthesizedTimestamps += 1
            result = last + frameDurationUs
        }
        let value = result ?? 0
        lastPtsUs = value
        return value
    }

    /// End of stream: report a cut-short file once, then stay finished.
    private func end() throws -> DecodedPicture? {
        finished = true
        let log = FFmpeg.takeLog()
        if !log.isEmpty { statistics.lastWarning = log }
        if let expected = indexFrameCount, statistics.packets < expected {
            throw MediaError.truncated(
                url, framesDelivered: statistics.frames, framesExpected: expected,
                reason: readError ?? "the index lists \(expected) frames, the file holds \(statistics.packets)")
        }
        if let readError {
            throw MediaError.truncated(url, framesDelivered: statistics.frames, framesExpected: nil, reason: readError)
        }
        return nil
    }

    /// `/dev/videoN` is a V4L2 camera: FFmpeg cannot probe a device, so name its input format.
    static func impliedInputFormat(_ url: String) -> String? {
        url.hasPrefix("/dev/video") ? "v4l2" : nil
    }

    private static func checkLocalFile(_ url: String) throws {
        // Only plain paths and file: URLs; devices, pipes and network URLs go straight to FFmpeg.
        var path = url
        if url.hasPrefix("file:") { path = String(url.dropFirst(5)) }
        else if url.contains("://") || url.hasPrefix("pipe:") { return }
        var status = stat()
        guard stat(path, &status) == 0 else { throw MediaError.noSuchFile(url) }
        if (status.st_mode & S_IFMT) == S_IFREG, status.st_size == 0 { throw MediaError.emptyFile(url) }
    }

    private static func frameRate(_ stream: UnsafeMutablePointer<AVStream>) -> Double {
        for rate in [stream.pointee.avg_frame_rate, stream.pointee.r_frame_rate] where rate.num > 0 && rate.den > 0 {
            let value = av_q2d(rate)
            if value > 0.5, value < 1000 { return value }
        }
        return 25
    }

    private static func fourcc(_ tag: UInt32) -> String {
        let bytes = (0..<4).map { UInt8((tag >> (8 * $0)) & 0xFF) }
        let printable = bytes.allSatisfy { $0 >= 32 && $0 < 127 }
        return printable ? String(decoding: bytes, as: UTF8.self) : String(format: "0x%08x", tag)
    }
}

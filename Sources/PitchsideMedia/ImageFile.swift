import CFFmpeg
import Foundation
import PitchsideCore

/// Reads and writes single pictures through FFmpeg: PNG out, anything FFmpeg decodes in.
///
/// ```swift
/// try ImageFile.writePNG(overlay, to: "/tmp/overlay.png")
/// let photo = try ImageFile.read("board.jpg")          // rgb24
/// ```
public enum ImageFile {
    /// The first picture of `path` (PNG, JPEG, or any video), at full size.
    public static func read(_ path: String, layout: PixelLayout = .rgb24) throws -> ImageBuffer {
        let source = try VideoSource(url: path)
        guard let picture = try source.nextPicture() else {
            throw MediaError.decodeFailed(path, reason: "it holds no picture")
        }
        return try RenditionConverter(renditions: []).image(
            from: picture, rendition: Rendition(name: "image", layout: layout))
    }

    /// The PNG encoding of `image` (gray8 or rgb24, losslessly).
    public static func pngData(_ image: ImageBuffer) throws -> Data {
        try encodeStill(image, codecID: AV_CODEC_ID_PNG, pixelFormat: image.layout.avPixelFormat, name: "PNG") { _ in }
    }

    /// The JPEG encoding of `image`; `quality` is the JPEG quantiser, 2 (best) … 31 (worst).
    public static func jpegData(_ image: ImageBuffer, quality: Int = 3) throws -> Data {
        try encodeStill(image, codecID: AV_CODEC_ID_MJPEG, pixelFormat: AV_PIX_FMT_YUVJ420P, name: "JPEG") { context in
            context.pointee.color_range = AVCOL_RANGE_JPEG
            context.pointee.flags |= AV_CODEC_FLAG_QSCALE
            context.pointee.global_quality = Int32(FF_QP2LAMBDA) * Int32(max(2, min(31, quality)))
        }
    }

    /// Writes `image` as a JPEG file (lossy; for test inputs and previews).
    public static func writeJPEG(_ image: ImageBuffer, to path: String, quality: Int = 3) throws {
        try write(jpegData(image, quality: quality), to: path)
    }

    private static func encodeStill(
        _ image: ImageBuffer, codecID: AVCodecID, pixelFormat: AVPixelFormat, name: String,
        configure: (UnsafeMutablePointer<AVCodecContext>) -> Void
    ) throws -> Data {
        guard image.layout != .yuv420p else { throw MediaError.badImage("\(name) files are written from gray8 or rgb24, not yuv420p") }
        FFmpeg.prepare()
        guard let codec = avcodec_find_encoder(codecID) else {
            throw MediaError.encodeFailed(name, reason: "this FFmpeg build has no \(name) encoder")
        }
        var context = avcodec_alloc_context3(codec)
        var frame = av_frame_alloc()
        var packet = av_packet_alloc()
        defer {
            avcodec_free_context(&context)
            av_frame_free(&frame)
            av_packet_free(&packet)
        }
        guard let context, let frame, let packet else { throw MediaError.encodeFailed(name, reason: "out of memory") }
        context.pointee.width = Int32(image.width)
        context.pointee.height = Int32(image.height)
        context.pointee.pix_fmt = pixelFormat
        context.pointee.time_base = AVRational(num: 1, den: 1)
        configure(context)
        let opened = avcodec_open2(context, codec, nil)
        if opened < 0 { throw MediaError.encodeFailed(name, reason: FFmpeg.explain(opened)) }
        frame.pointee.width = Int32(image.width)
        frame.pointee.height = Int32(image.height)
        frame.pointee.format = pixelFormat.rawValue
        frame.pointee.quality = context.pointee.global_quality
        if av_frame_get_buffer(frame, 0) < 0 { throw MediaError.encodeFailed(name, reason: "out of memory") }
        let key = Scaler.Key(
            sourceWidth: Int32(image.width), sourceHeight: Int32(image.height), sourceFormat: image.layout.avPixelFormat.rawValue,
            targetWidth: Int32(image.width), targetHeight: Int32(image.height), targetFormat: pixelFormat.rawValue,
            flags: SWS_BILINEAR)
        let scaler = Scaler()
        guard let sws = scaler.context(for: key) else {
            throw MediaError.encodeFailed(name, reason: "no converter from \(image.layout.rawValue)")
        }
        image.pixels.withUnsafeBufferPointer { pixels in
            var source: [UnsafePointer<UInt8>?] = [pixels.baseAddress, nil, nil, nil]
            var strides: [Int32] = [Int32(image.stride), 0, 0, 0]
            frame.withPlanes { planes, lines in
                _ = sws_scale(sws, &source, &strides, 0, Int32(image.height), planes, lines)
            }
        }
        var result = avcodec_send_frame(context, frame)
        if result >= 0 { result = avcodec_send_frame(context, nil) }
        if result < 0 { throw MediaError.encodeFailed(name, reason: FFmpeg.explain(result)) }
        var data = Data()
        while avcodec_receive_packet(context, packet) >= 0 {
            data.append(packet.pointee.data, count: Int(packet.pointee.size))
            av_packet_unref(packet)
        }
        guard !data.isEmpty else { throw MediaError.encodeFailed(name, reason: "the encoder produced nothing") }
        return data
    }

    /// Writes `image` as a PNG file.
    public static func writePNG(_ image: ImageBuffer, to path: String) throws {
        try write(pngData(image), to: path)
    }

    private static func write(_ data: Data, to path: String) throws {
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw MediaError.encodeFailed(path, reason: error.localizedDescription)
        }
    }
}

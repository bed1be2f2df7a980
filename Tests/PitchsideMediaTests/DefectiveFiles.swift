import CFFmpeg
import Foundation

/// Inputs with known defects, made on the spot for the error-handling tests.
enum DefectiveFiles {
    /// A text file.
    static func text(at url: URL) throws -> String {
        try "not a video, just words\n".write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// A zero-byte file.
    static func empty(at url: URL) throws -> String {
        _ = FileManager.default.createFile(atPath: url.path, contents: Data())
        return url.path
    }

    /// Half a second of silent 8 kHz mono PCM WAV: a valid media file with no video.
    static func audioOnly(at url: URL) throws -> String {
        let samples = 4000
        var data = Data()
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        func u16(_ v: UInt16) { withUnsafeBytes(of: v.littleEndian) { data.append(contentsOf: $0) } }
        data.append(contentsOf: Array("RIFF".utf8)); u32(UInt32(36 + samples * 2))
        data.append(contentsOf: Array("WAVEfmt ".utf8)); u32(16); u16(1); u16(1); u32(8000); u32(16000); u16(2); u16(16)
        data.append(contentsOf: Array("data".utf8)); u32(UInt32(samples * 2))
        data.append(Data(count: samples * 2))
        try data.write(to: url)
        return url.path
    }

    /// An MPEG-TS whose video stream is AVS2, which this FFmpeg build can mux but has no decoder for.
    static func undecodableCodec(at url: URL) throws -> String {
        var format: UnsafeMutablePointer<AVFormatContext>?
        guard avformat_alloc_output_context2(&format, nil, "mpegts", url.path) >= 0, let format,
              let stream = avformat_new_stream(format, nil) else { throw CocoaError(.fileWriteUnknown) }
        defer { avformat_free_context(format) }
        stream.pointee.codecpar.pointee.codec_type = AVMEDIA_TYPE_VIDEO
        stream.pointee.codecpar.pointee.codec_id = AV_CODEC_ID_AVS2
        stream.pointee.codecpar.pointee.width = 320
        stream.pointee.codecpar.pointee.height = 240
        stream.pointee.time_base = AVRational(num: 1, den: 90000)
        guard avio_open(&format.pointee.pb, url.path, AVIO_FLAG_WRITE) >= 0,
              avformat_write_header(format, nil) >= 0 else { throw CocoaError(.fileWriteUnknown) }
        var generator = SystemRandomNumberGenerator()
        for i in 0..<20 {
            var packet = av_packet_alloc()
            defer { av_packet_free(&packet) }
            guard let packet, av_new_packet(packet, 1500) >= 0 else { throw CocoaError(.fileWriteUnknown) }
            let bytes = packet.pointee.data!
            for j in 0..<1500 { bytes[j] = UInt8.random(in: 0...255, using: &generator) }
            // An AVS2 sequence start code, so the payload looks the part.
            bytes[0] = 0; bytes[1] = 0; bytes[2] = 1; bytes[3] = 0xB0
            packet.pointee.pts = Int64(i * 3000)
            packet.pointee.dts = Int64(i * 3000)
            packet.pointee.flags = AV_PKT_FLAG_KEY
            packet.pointee.stream_index = 0
            guard av_interleaved_write_frame(format, packet) >= 0 else { throw CocoaError(.fileWriteUnknown) }
        }
        av_write_trailer(format)
        avio_closep(&format.pointee.pb)
        return url.path
    }

    /// A copy of `path` keeping only the first `fraction` of its bytes.
    static func truncated(_ path: String, fraction: Double, to url: URL) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try data.prefix(Int(Double(data.count) * fraction)).write(to: url)
        return url.path
    }

    /// A copy of `path` with `count` pseudo-random bytes written over it at `fraction` of its length.
    static func corrupted(_ path: String, at fraction: Double, count: Int, to url: URL) throws -> String {
        var data = try Data(contentsOf: URL(fileURLWithPath: path))
        var state: UInt32 = 12345
        let start = Int(Double(data.count) * fraction)
        for i in start..<min(data.count, start + count) {
            state = state &* 1_103_515_245 &+ 12345
            data[i] = UInt8(truncatingIfNeeded: state >> 16)
        }
        try data.write(to: url)
        return url.path
    }
}

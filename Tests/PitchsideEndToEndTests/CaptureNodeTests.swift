import Foundation
import PitchsideCore
import PitchsideTransport
import XCTest

/// The capture node as a real process, read by a consumer over real sockets.
final class CaptureNodeTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = try TestVideo.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    /// A consumer: SUB on the frames, DEALER on the credit gate; `delay` seconds per frame.
    private func consume(endpoints: Endpoints, rendition: String, delay: Double, timeout: Double = 60)
        throws -> (frames: [PSFrame], gaps: SequenceGapCounter, sawEnd: Bool)
    {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let sub = try context.socket(.sub)
        defer { sub.close() }
        try sub.set(.linger, 0)
        try sub.setHighWaterMarks(send: 4, receive: 2)
        try sub.set(.receiveBuffer, 65_536)  // so the kernel cannot hide a slow consumer
        try sub.connect(endpoints.frames)
        let credits = try CreditClient(context: context, endpoint: endpoints.credits, consumerID: "test-\(rendition)",
                                       subscriptions: [Topic.frame(stream: "default", rendition: rendition).string],
                                       window: 2, subscriber: sub)
        defer { credits.close() }
        let receiver = MessageReceiver<PSFrame>(socket: sub, credits: credits)
        var frames: [PSFrame] = []
        var gaps = SequenceGapCounter(expectedFirst: 0)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard let received = try receiver.receive(timeout: 0.2) else { continue }
            let frame = received.message
            if frame.endOfStream {
                gaps.finish(lastSeq: frame.header.seq)
                try credits.acknowledgeEndOfStream(streamID: frame.header.streamID, lastSeq: frame.header.seq, counts: gaps)
                return (frames, gaps, true)
            }
            _ = gaps.record(frame.header.seq)
            frames.append(frame)
            if delay > 0 { usleep(UInt32(delay * 1e6)) }
            try credits.acknowledge(streamID: frame.header.streamID, seq: frame.header.seq, counts: gaps)
        }
        return (frames, gaps, false)
    }

    func testLockstepDeliversEveryFrameToASlowConsumerWithExactTimestampsAndPixels() throws {
        let video = dir.appendingPathComponent("clip.mp4").path
        try TestVideo.write(to: video, frames: 40, fps: 30)
        let endpoints = Endpoints(basePort: TestPorts.base())
        let capture = try ChildProcess([
            "capture", "--input", video, "--pacing", "lockstep", "--consumers", "1", "--quiet",
            "--frames-endpoint", endpoints.frames, "--credits-endpoint", endpoints.credits,
        ])
        let result = try consume(endpoints: endpoints, rendition: "gray", delay: 0.02)
        XCTAssertEqual(capture.wait(timeout: 30), 0, capture.stderr)
        XCTAssertTrue(result.sawEnd)
        XCTAssertEqual(result.frames.count, 40)
        XCTAssertEqual(result.gaps.dropped, 0)
        for (i, wire) in result.frames.enumerated() {
            XCTAssertEqual(wire.header.seq, UInt64(i))
            XCTAssertEqual(Double(wire.header.ptsUs), Double(i) * 1e6 / 30, accuracy: 1, "pts of frame \(i)")
            let frame = try wire.videoFrame()
            XCTAssertEqual(frame.image.width, 320)
            XCTAssertEqual(frame.image.height, 240)
            XCTAssertGreaterThan(wire.header.captureUnixUs, 0)
            // The square is where it was drawn, the background where it was not.
            let p = TestVideo.squarePosition(frame: i, width: 320, height: 240)
            XCTAssertEqual(Double(frame.image[p.x + 16, p.y + 16]), 230, accuracy: 12, "square centre, frame \(i)")
            XCTAssertEqual(Double(frame.image[p.x + 16, 30]), 96, accuracy: 12, "background, frame \(i)")
        }
    }

    func testLockstepSendsOnlyTheRenditionsConsumersAskFor() throws {
        let video = dir.appendingPathComponent("clip.mp4").path
        try TestVideo.write(to: video, frames: 10)
        let endpoints = Endpoints(basePort: TestPorts.base())
        let capture = try ChildProcess([
            "capture", "--input", video, "--pacing", "lockstep", "--rendition", "small:rgb24:160",
            "--rendition", "gray:gray8", "--frames-endpoint", endpoints.frames, "--credits-endpoint", endpoints.credits,
        ])
        let result = try consume(endpoints: endpoints, rendition: "small", delay: 0)
        XCTAssertEqual(capture.wait(timeout: 30), 0, capture.stderr)
        XCTAssertEqual(result.frames.count, 10)
        let frame = try result.frames[0].videoFrame()
        XCTAssertEqual(frame.image.layout, .rgb24)
        XCTAssertEqual(frame.image.width, 160)
        XCTAssertEqual(frame.image.height, 120)
        // Only the requested rendition was converted and sent: 10 messages, not 20.
        XCTAssertTrue(capture.stderr.contains("published 10 frames (10 messages"), capture.stderr)
    }

    /// The default `yuv` rendition (the trajectory worker's): full-size YUV420P whose luma plane
    /// holds the picture, published only to the consumer that asked for it.
    func testTheDefaultYUVRenditionCarriesTheDecodersPlanes() throws {
        let video = dir.appendingPathComponent("clip.mp4").path
        try TestVideo.write(to: video, frames: 10, fps: 30)
        let endpoints = Endpoints(basePort: TestPorts.base())
        let capture = try ChildProcess([
            "capture", "--input", video, "--pacing", "lockstep", "--consumers", "1",
            "--frames-endpoint", endpoints.frames, "--credits-endpoint", endpoints.credits,
        ])
        let result = try consume(endpoints: endpoints, rendition: "yuv", delay: 0)
        XCTAssertEqual(capture.wait(timeout: 30), 0, capture.stderr)
        XCTAssertEqual(result.frames.count, 10)
        for (i, wire) in result.frames.enumerated() {
            XCTAssertEqual(wire.format, .yuv420P)
            let frame = try wire.videoFrame()
            XCTAssertEqual(frame.image.layout, .yuv420p)
            XCTAssertEqual([frame.image.width, frame.image.height], [320, 240])
            XCTAssertEqual(frame.image.pixels.count, 320 * 240 * 3 / 2)
            // Limited-range luma: the square (230 in full range) and the background (96).
            let p = TestVideo.squarePosition(frame: i, width: 320, height: 240)
            XCTAssertEqual(Double(frame.image[p.x + 16, p.y + 16]), 16 + 230 * 219 / 255, accuracy: 12, "square, frame \(i)")
            XCTAssertEqual(Double(frame.image[p.x + 16, 30]), 16 + 96 * 219 / 255, accuracy: 12, "background, frame \(i)")
        }
        XCTAssertTrue(capture.stderr.contains("published 10 frames (10 messages"), capture.stderr)
    }

    func testLivePacingWithASlowConsumerCountsEveryLostFrame() throws {
        let video = dir.appendingPathComponent("clip.mp4").path
        try TestVideo.write(to: video, width: 640, height: 360, frames: 60, fps: 30)
        let endpoints = Endpoints(basePort: TestPorts.base())
        let capture = try ChildProcess([
            "capture", "--input", video, "--pacing", "live", "--quiet",
            "--frames-endpoint", endpoints.frames, "--credits-endpoint", endpoints.credits,
        ])
        // 0.1 s a frame against 1/30 s between frames: about two thirds must be lost.
        let result = try consume(endpoints: endpoints, rendition: "gray", delay: 0.1)
        XCTAssertEqual(capture.wait(timeout: 60), 0, capture.stderr)
        XCTAssertTrue(result.sawEnd, "end-of-stream marker must arrive")
        XCTAssertGreaterThan(result.gaps.dropped, 0)
        // Frames published before the consumer joined count as lost too: received + dropped = published.
        XCTAssertEqual(result.gaps.received + result.gaps.dropped, 60)
        XCTAssertEqual(result.frames.count, result.gaps.received)
        // Capture's per-consumer figures (from the consumer's credits) are the consumer's own.
        XCTAssertTrue(capture.stderr.contains(
            "consumer test-gray: \(result.gaps.received) received, \(result.gaps.dropped) lost of 60 published"), capture.stderr)
    }

    /// A libavdevice input: lavfi's virtual source, read like a camera.
    func testLockstepCaptureFromTheLavfiVirtualDevice() throws {
        let endpoints = Endpoints(basePort: TestPorts.base())
        let capture = try ChildProcess([
            "capture", "--input-format", "lavfi", "--input", "color=c=white:size=160x120:rate=25:duration=0.8",
            "--pacing", "lockstep", "--quiet", "--frames-endpoint", endpoints.frames, "--credits-endpoint", endpoints.credits,
        ])
        let result = try consume(endpoints: endpoints, rendition: "gray", delay: 0)
        XCTAssertEqual(capture.wait(timeout: 60), 0, capture.stderr)
        XCTAssertTrue(result.sawEnd, capture.stderr)
        XCTAssertEqual(result.frames.map(\.header.seq), Array(0..<20), capture.stderr)
        XCTAssertEqual(result.frames.map(\.header.ptsUs), (0..<20).map { Int64($0) * 40_000 })
        for frame in result.frames {
            XCTAssertEqual(frame.width, 160)
            XCTAssertEqual(frame.height, 120)
            XCTAssertEqual(frame.data.count, 160 * 120)
            XCTAssertGreaterThanOrEqual(frame.data.min() ?? 0, 250, "white")
        }
        XCTAssertTrue(capture.stderr.contains("160×120 rawvideo at 25 frames/s"), capture.stderr)
    }

    func testBadInputsGiveOneClearLineAndANonZeroExit() throws {
        let missing = dir.appendingPathComponent("missing.mp4").path
        let empty = dir.appendingPathComponent("empty.mp4").path
        XCTAssertTrue(FileManager.default.createFile(atPath: empty, contents: Data()))
        let text = dir.appendingPathComponent("notes.mp4").path
        try "just some text\n".write(toFile: text, atomically: true, encoding: .utf8)
        let good = dir.appendingPathComponent("good.mp4").path
        try TestVideo.write(to: good, frames: 30)
        let truncated = dir.appendingPathComponent("truncated.mp4").path
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        let audio = dir.appendingPathComponent("tone.wav").path
        var wav = Data("RIFF".utf8)
        func le32(_ v: UInt32) -> Data { withUnsafeBytes(of: v.littleEndian) { Data($0) } }
        func le16(_ v: UInt16) -> Data { withUnsafeBytes(of: v.littleEndian) { Data($0) } }
        wav += le32(36 + 800) + Data("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(1) + le32(8000) + le32(16000) + le16(2) + le16(16)
        wav += Data("data".utf8) + le32(800) + Data(count: 800)
        try wav.write(to: URL(fileURLWithPath: audio))

        let cases: [([String], String)] = [
            ([missing], "no such file"), ([empty], "empty"), ([text], "not a video"),
            ([truncated], "truncated.mp4"), ([audio], "no video stream"),
            (["/dev/video99"], "no such v4l2 device: /dev/video99"),
            (["no_such_filter=1", "--input-format", "lavfi"], "not a video"),
            ([good, "--input-format", "no-such-format"], "no input format named no-such-format"),
        ]
        for (input, expected) in cases {
            let path = input[0]
            let endpoints = Endpoints(basePort: TestPorts.base())
            let capture = try ChildProcess([
                "capture", "--input", path, "--pacing", "max", "--quiet",
                "--frames-endpoint", endpoints.frames, "--credits-endpoint", endpoints.credits,
            ] + input.dropFirst())
            let status = capture.wait(timeout: 30)
            XCTAssertNotNil(status, "\(path): capture hung")
            XCTAssertNotEqual(status, 0, "\(path): must fail")
            let errorLines = capture.stderr.split(separator: "\n").filter { $0.hasPrefix("pitchside: error:") }
            XCTAssertEqual(errorLines.count, 1, "\(path): \(capture.stderr)")
            XCTAssertTrue(errorLines.first?.contains(expected) ?? false, "\(path): \(capture.stderr)")
        }
    }
}

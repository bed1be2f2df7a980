import Foundation
import PitchsideCore
@testable import PitchsideTransport
import XCTest

/// Frames sent from a `FrameBuffer` (no user-space copy) and read as `FrameView`s (pixels
/// viewed in the received message), over real sockets, against swift-protobuf on either side.
final class FrameTransportTests: XCTestCase {
    private func pixels(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ seed) }
    }

    private func fields(seq: UInt64, width: Int, height: Int) -> PSFrame {
        PSFrame(streamID: "cam1", seq: seq, ptsUs: Int64(seq) * 33_333, captureUnixUs: 77, rendition: "gray",
                layout: .gray8, width: width, height: height, producerID: "capture", sourceWidth: width * 2,
                sourceHeight: height * 2, frameRate: 30)
    }

    func testAFrameBufferArrivesAsSwiftProtobufSerializesItAndReadsBackAsAView() throws {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let pub = try context.socket(.pub)
        defer { pub.close() }
        let endpoint = try pub.bind("tcp://127.0.0.1:*")
        let sub = try context.socket(.sub)
        defer { sub.close() }
        try sub.connect(endpoint)
        try sub.subscribe("frame/")
        usleep(200_000)  // let the subscription reach the PUB

        let width = 320, height = 240   // 76,800 bytes: the zero-copy path on both sides
        let pool = FrameBufferPool()
        var expected: [PSFrame] = []
        var sent: [FrameBuffer] = []
        for seq in 0..<4 {
            let buffer = pool.take(pixelCount: width * height)
            sent.append(buffer)
            let bytes = pixels(width * height, seed: seq)
            bytes.withUnsafeBytes { buffer.pixels.copyMemory(from: $0) }
            var frame = fields(seq: UInt64(seq), width: width, height: height)
            try buffer.encode(frame)
            try pub.send(topic: .frame(stream: "cam1", rendition: "gray"), frame: buffer)
            frame.data = Data(bytes)
            expected.append(frame)
        }
        for frame in expected {
            let parts = try XCTUnwrap(try sub.receive(timeout: 10))
            XCTAssertEqual(parts.count, 2)
            XCTAssertEqual(String(decoding: parts[0], as: UTF8.self), "frame/cam1/gray")
            XCTAssertEqual(parts[1], try frame.serializedData(), "the bytes swift-protobuf would have sent")
            let view = try FrameView(serializedBytes: parts[1])
            XCTAssertEqual(try view.message, try PSFrame(serializedBytes: parts[1]))
            XCTAssertEqual(try view.videoFrame().image.pixels, [UInt8](frame.data))
        }
        XCTAssertEqual(Set(sent.map(ObjectIdentifier.init)).count, 4, "a buffer in flight is never handed out again")
        // libzmq lets go of every buffer once the messages have left; then the pool reuses them.
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && sent.contains(where: \.isInFlight) { usleep(10_000) }
        XCTAssertFalse(sent.contains(where: \.isInFlight))
        sent = []
        _ = pool.take(pixelCount: width * height)
        XCTAssertEqual(pool.count, 4, "a released buffer is reused")
    }

    func testAFrameViewReceiverReadsSwiftProtobufFramesAndSkipsBadOnes() throws {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let pull = try context.socket(.pull)
        defer { pull.close() }
        let endpoint = try pull.bind("tcp://127.0.0.1:*")
        let push = try context.socket(.push)
        defer { push.close() }
        try push.connect(endpoint)
        let receiver = MessageReceiver<FrameView>(socket: pull, maxPayloadBytes: 200_000)
        var rejections: [MessageRejection] = []
        receiver.onReject = { rejections.append($0) }

        let topic = Topic.frame(stream: "cam1", rendition: "gray")
        var big = fields(seq: 1, width: 256, height: 256)
        big.data = Data(pixels(256 * 256, seed: 1))
        var small = fields(seq: 2, width: 8, height: 4)
        small.data = Data(pixels(32, seed: 2))
        let good = try big.serializedData()
        try push.send([Data(topic.string.utf8), Data([0x0A, 0xFF])])                          // does not decode
        try push.send([Data(topic.string.utf8), good.prefix(good.count - 10)])                   // pixels cut short
        try push.send([Data(topic.string.utf8), Data([0x12, 0x02, 0xC3, 0x28])])                 // rendition not UTF-8
        try push.send([Data(topic.string.utf8), Data(count: 300_000)])                           // oversized
        try push.send(big, topic: topic)
        try push.send(small, topic: topic)

        let first = try XCTUnwrap(try receiver.receive(timeout: 10)).message
        XCTAssertEqual(first.header.seq, 1)
        XCTAssertEqual(first.data, big.data)
        XCTAssertEqual(try first.message, big)
        let second = try XCTUnwrap(try receiver.receive(timeout: 10)).message
        XCTAssertEqual(try second.message, small)
        XCTAssertEqual(receiver.stats.malformed, 3)
        XCTAssertEqual(receiver.stats.oversized, 1)
        XCTAssertEqual(rejections.first?.detail.hasPrefix("pitchside.v1.Frame does not decode"), true, "\(rejections)")
    }
}

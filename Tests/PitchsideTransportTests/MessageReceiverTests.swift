import Foundation
import PitchsideCore
@testable import PitchsideTransport
import XCTest

final class MessageReceiverTests: XCTestCase {
    /// Bad messages are counted and skipped; the next good one still arrives.
    func testMalformedOversizedAndWrongShapeAreCountedAndSkipped() throws {
        let context = try ZMQContext()
        let pull = try context.socket(.pull)
        let endpoint = try pull.bind("tcp://127.0.0.1:*")
        let push = try context.socket(.push)
        try push.connect(endpoint)

        let receiver = MessageReceiver<PSFrame>(socket: pull, maxPayloadBytes: 10_000)
        var rejections: [MessageRejection] = []
        receiver.onReject = { rejections.append($0) }

        let topic = Data("frame/a/gray".utf8)
        // Field 1 (header), length-delimited, with a truncated length: does not decode.
        try push.send([topic, Data([0x0A, 0xFF])])
        try push.send([topic, try testFrame(stream: "a", seq: 1, bytes: 20_000).serializedData()])  // oversized
        try push.send([topic])                                                                        // one part
        try push.send([topic, Data(), Data()])                                                        // three parts
        try push.send([Data("frame/a".utf8), try testFrame(stream: "a", seq: 2).serializedData()])    // bad topic
        try push.send(testFrame(stream: "a", seq: 3), topic: .frame(stream: "a", rendition: "gray"))  // good

        let good = try XCTUnwrap(try receiver.receive(timeout: 10))
        XCTAssertEqual(good.message.header.seq, 3)
        XCTAssertEqual(good.topic, .frame(stream: "a", rendition: "gray"))
        XCTAssertEqual(receiver.stats.received, 6)
        XCTAssertEqual(receiver.stats.delivered, 1)
        XCTAssertEqual(receiver.stats.malformed, 2)
        XCTAssertEqual(receiver.stats.oversized, 1)
        XCTAssertEqual(receiver.stats.wrongShape, 2)
        XCTAssertEqual(receiver.stats.received, receiver.stats.delivered + receiver.stats.rejected)
        XCTAssertEqual(rejections.map(\.reason), [.malformed, .oversized, .wrongShape, .wrongShape, .malformed])

        // The validator's refusals count as malformed too, and the receiver keeps going.
        receiver.validate = { _, frame in frame.endOfStream || (try? frame.videoFrame()) != nil ? nil : "sizes do not add up" }
        var inconsistent = testFrame(stream: "a", seq: 4)
        inconsistent.height = 7
        try push.send(inconsistent, topic: .frame(stream: "a", rendition: "gray"))
        try push.send(testFrame(stream: "a", seq: 5), topic: .frame(stream: "a", rendition: "gray"))
        XCTAssertEqual(try receiver.receive(timeout: 10)?.message.header.seq, 5)
        XCTAssertEqual(receiver.stats.malformed, 3)

        // Nothing left: a timeout, not an error.
        XCTAssertNil(try receiver.receive(timeout: 0.05))
    }
}

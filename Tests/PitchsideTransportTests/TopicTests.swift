import Foundation
import PitchsideCore
@testable import PitchsideTransport
import XCTest

final class TopicTests: XCTestCase {
    func testBuildAndParse() throws {
        XCTAssertEqual(Topic.frame(stream: "cam1", rendition: "gray").string, "frame/cam1/gray")
        XCTAssertEqual(Topic.result(stream: "cam1", kind: "trajectory").string, "result/cam1/trajectory")
        XCTAssertEqual(Topic.game(stream: "cam-2", event: "score").string, "game/cam-2/score")
        let parsed = try Topic(parsing: "frame/cam1/rgb-small")
        XCTAssertEqual(parsed.kind, .frame)
        XCTAssertEqual(parsed.streamID, "cam1")
        XCTAssertEqual(parsed.name, "rgb-small")
        XCTAssertEqual(Topic.parse("game/x/summary"), Topic.game(stream: "x", event: "summary"))
    }

    func testPrefixes() {
        XCTAssertEqual(Topic.prefix(.frame), "frame/")
        XCTAssertEqual(Topic.prefix(.frame, stream: "a"), "frame/a/")
        XCTAssertEqual(Topic.prefix(.frame, stream: "a", name: "gray"), "frame/a/gray")
        // The trailing slash keeps stream "a" from matching stream "ab".
        XCTAssertFalse(Topic.frame(stream: "ab", rendition: "gray").matches(prefix: Topic.prefix(.frame, stream: "a")))
        XCTAssertTrue(Topic.frame(stream: "a", rendition: "gray").matches(prefix: Topic.prefix(.frame, stream: "a")))
    }

    func testRejectsMalformedTopics() {
        for text in ["", "frame", "frame/a", "frame/a/", "frame//gray", "frame/a/gray/extra", "video/a/gray",
                     "frame/a b/gray", "frame/a/gr\u{0}ay", "Frame/a/gray", "frame/é/gray",
                     "frame/\(String(repeating: "x", count: 129))/gray"] {
            XCTAssertNil(Topic.parse(text), text)
            XCTAssertThrowsError(try Topic(parsing: text), text) { XCTAssertTrue($0 is TopicError) }
        }
        XCTAssertThrowsError(try Topic(kind: .frame, streamID: "a/b", name: "gray"))
    }

    /// A SUB for `frame/a/gray` gets only those; `frame/a/` gets both renditions of a; neither
    /// ever gets stream b or stream ab.
    func testPubSubFilteringOverTCP() throws {
        let context = try ZMQContext()
        let pub = try context.socket(.pub)
        let endpoint = try pub.bind("tcp://127.0.0.1:*")
        let gotGray = Shared<[String]>([]), gotAll = Shared<[String]>([])
        let total = 20
        let marker: UInt64 = 1_000_000

        func subscriber(_ prefix: String, _ got: Shared<[String]>) -> TestThread {
            TestThread("sub \(prefix)") {
                let sub = try context.socket(.sub)
                try sub.connect(endpoint)
                try sub.subscribe(prefix)
                let receiver = MessageReceiver<PSFrame>(socket: sub)
                while let received = try receiver.receive(timeout: 20) {
                    if received.message.endOfStream { break }
                    // Markers (sent until the subscription is in place) are recorded as such.
                    let seq = received.message.header.seq
                    got.mutate { $0.append(seq == marker ? "marker" : received.topic.string) }
                }
            }
        }
        let gray = subscriber("frame/a/gray", gotGray)
        let all = subscriber("frame/a/", gotAll)

        // The slow-joiner wait: markers until both subscriptions have reached the publisher.
        let deadline = WallClock.monotonicSeconds() + 20
        while gotGray.value.isEmpty || gotAll.value.isEmpty {
            guard WallClock.monotonicSeconds() < deadline else { return XCTFail("subscribers never connected") }
            try pub.send(testFrame(stream: "a", seq: marker, bytes: 1), topic: .frame(stream: "a", rendition: "gray"))
            Thread.sleep(forTimeInterval: 0.01)
        }

        for seq in 0..<UInt64(total) {
            for (stream, rendition) in [("a", "gray"), ("a", "rgb-small"), ("b", "gray"), ("ab", "gray")] {
                try pub.send(testFrame(stream: stream, seq: seq, bytes: 64, rendition: rendition),
                             topic: .frame(stream: stream, rendition: rendition))
            }
        }
        try pub.send(endOfStream(stream: "a", lastSeq: UInt64(total - 1)), topic: .frame(stream: "a", rendition: "gray"))
        gray.wait()
        all.wait()
        XCTAssertEqual(gotGray.value.filter { $0 != "marker" }, Array(repeating: "frame/a/gray", count: total))
        let allFrames = gotAll.value.filter { $0 != "marker" }
        XCTAssertEqual(allFrames.filter { $0 == "frame/a/gray" }.count, total)
        XCTAssertEqual(allFrames.filter { $0 == "frame/a/rgb-small" }.count, total)
        XCTAssertEqual(allFrames.count, 2 * total)
    }
}

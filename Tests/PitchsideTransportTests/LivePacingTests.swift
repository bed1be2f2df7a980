import Foundation
import PitchsideCore
@testable import PitchsideTransport
import XCTest

/// `live` pacing: no credits, the publisher runs at its own rate and a slow subscriber loses
/// frames at its high-water mark; every loss is accounted for by sequence number.
final class LivePacingTests: XCTestCase {
    func testSlowSubscriberAccountsForEveryFrame() throws {
        let context = try ZMQContext()
        let pub = try context.socket(.pub)
        try pub.set(.sendHighWaterMark, 2)
        try pub.set(.sendBuffer, 64 * 1024)
        let endpoint = try pub.bind("tcp://127.0.0.1:*")
        let total: UInt64 = 300
        let connected = Flag(), done = Flag()
        let counter = Shared(SequenceGapCounter(expectedFirst: 0))

        let subscriber = TestThread("slow subscriber") {
            let sub = try context.socket(.sub)
            try sub.set(.receiveHighWaterMark, 2)
            try sub.set(.receiveBuffer, 64 * 1024)
            try sub.connect(endpoint)
            try sub.subscribe(Topic.prefix(.frame, stream: "live"))
            let receiver = MessageReceiver<PSFrame>(socket: sub)
            var gaps = SequenceGapCounter(expectedFirst: 0)
            let deadline = WallClock.monotonicSeconds() + 60
            while WallClock.monotonicSeconds() < deadline {
                guard let received = try receiver.receive(timeout: 0.1) else { continue }
                let frame = received.message
                if received.topic.name == "marker" {
                    connected.set()
                    continue
                }
                if frame.endOfStream {
                    gaps.finish(lastSeq: frame.header.seq)
                    break
                }
                gaps.record(frame.header.seq)
                Thread.sleep(forTimeInterval: 0.003)  // slower than the publisher
            }
            counter.value = gaps
            done.set()
        }

        // Wait until the subscription is in place, so that the subscriber sees some frames at all.
        let deadline = WallClock.monotonicSeconds() + 20
        while !connected.isSet && WallClock.monotonicSeconds() < deadline {
            try pub.send(testFrame(stream: "live", seq: 0, bytes: 1, rendition: "marker"), topic: .frame(stream: "live", rendition: "marker"))
            Thread.sleep(forTimeInterval: 0.01)
        }
        XCTAssertTrue(connected.isSet)

        for seq in 0..<total {
            try pub.send(testFrame(stream: "live", seq: seq, bytes: 64 * 1024), topic: .frame(stream: "live", rendition: "gray"))
        }
        // The end-of-stream marker can itself be dropped at the high-water mark: repeat it until
        // the subscriber has it. It carries the last seq, so the accounting is exact either way.
        let eos = endOfStream(stream: "live", lastSeq: total - 1)
        while !done.isSet && WallClock.monotonicSeconds() < deadline + 40 {
            try pub.send(eos, topic: .frame(stream: "live", rendition: "gray"))
            Thread.sleep(forTimeInterval: 0.02)
        }
        subscriber.wait()

        let gaps = counter.value
        XCTAssertTrue(gaps.isFinished)
        XCTAssertEqual(gaps.received + gaps.dropped, Int(total))
        XCTAssertGreaterThan(gaps.dropped, 0)
        XCTAssertGreaterThan(gaps.received, 0)
        XCTAssertEqual(gaps.duplicates, 0)
    }
}

@testable import PitchsideTransport
import XCTest

final class SequenceGapCounterTests: XCTestCase {
    func testGapsAndTail() {
        var counter = SequenceGapCounter(expectedFirst: 0)
        XCTAssertEqual(counter.record(0), .inOrder)
        XCTAssertEqual(counter.record(1), .inOrder)
        XCTAssertEqual(counter.record(5), .afterGap(missed: 3))
        XCTAssertEqual(counter.record(6), .inOrder)
        counter.finish(lastSeq: 9)
        XCTAssertEqual(counter.received, 4)
        XCTAssertEqual(counter.dropped, 3 + 3)
        XCTAssertEqual(counter.accounted, 10)
        counter.finish(lastSeq: 9)  // a repeated end-of-stream marker changes nothing
        XCTAssertEqual(counter.accounted, 10)
    }

    func testMissingHeadCountsWhenTheFirstSeqIsKnown() {
        var counter = SequenceGapCounter(expectedFirst: 0)
        XCTAssertEqual(counter.record(3), .afterGap(missed: 3))
        counter.finish(lastSeq: 3)
        XCTAssertEqual(counter.received, 1)
        XCTAssertEqual(counter.dropped, 3)

        var joinedLate = SequenceGapCounter()
        joinedLate.record(100)
        joinedLate.record(101)
        joinedLate.finish(lastSeq: 101)
        XCTAssertEqual(joinedLate.dropped, 0)
    }

    func testDuplicatesAndOutOfOrder() {
        var counter = SequenceGapCounter(expectedFirst: 0)
        counter.record(0)
        counter.record(2)                       // 1 missing
        XCTAssertEqual(counter.record(1), .late) // 1 arrives late: no longer dropped
        XCTAssertEqual(counter.record(1), .duplicate)
        XCTAssertEqual(counter.record(2), .duplicate)
        counter.record(3)
        counter.finish(lastSeq: 3)
        XCTAssertEqual(counter.received, 4)
        XCTAssertEqual(counter.dropped, 0)
        XCTAssertEqual(counter.duplicates, 2)
        XCTAssertEqual(counter.outOfOrder, 1)
    }

    func testNothingReceived() {
        var counter = SequenceGapCounter(expectedFirst: 0)
        counter.finish(lastSeq: 4)
        XCTAssertEqual(counter.dropped, 5)
        XCTAssertEqual(counter.received, 0)
    }
}

/// Capture-to-aggregator latency: a frame counts once every expected role reported it done.
final class FrameLatencyTests: XCTestCase {
    func testAFrameIsCompleteWhenItsSlowestRoleReportsIt() {
        var latency = FrameLatency(roles: ["detection", "pose"])
        latency.frameDone(stream: "cam1", role: "detection", ptsUs: 0, captureUnixUs: 1_000_000, nowUnixUs: 1_010_000)
        latency.frameDone(stream: "cam1", role: "detection", ptsUs: 33_333, captureUnixUs: 1_033_333, nowUnixUs: 1_040_000)
        XCTAssertNil(latency.summary(), "pose has reported nothing")
        latency.frameDone(stream: "cam1", role: "pose", ptsUs: 0, captureUnixUs: 1_000_000, nowUnixUs: 1_050_000)
        XCTAssertEqual(latency.measured, 1)
        XCTAssertEqual(latency.summary()?.p50 ?? 0, 50, accuracy: 0.001)
        // Pose lost frames 1 and 2 (live pacing): its report of frame 3 settles them unmeasured.
        latency.frameDone(stream: "cam1", role: "detection", ptsUs: 66_667, captureUnixUs: 1_066_667, nowUnixUs: 1_070_000)
        latency.frameDone(stream: "cam1", role: "detection", ptsUs: 100_000, captureUnixUs: 1_100_000, nowUnixUs: 1_110_000)
        latency.frameDone(stream: "cam1", role: "pose", ptsUs: 100_000, captureUnixUs: 1_100_000, nowUnixUs: 1_120_000)
        XCTAssertEqual(latency.measured, 2)
        XCTAssertEqual(latency.partial, 2)
        latency.frameDone(stream: "cam1", role: "pose", ptsUs: 133_333, captureUnixUs: 1_133_333, nowUnixUs: 1_160_000)
        latency.frameDone(stream: "cam1", role: "detection", ptsUs: 133_333, captureUnixUs: 1_133_333, nowUnixUs: 1_170_000)
        XCTAssertEqual(latency.measured, 3)
        let s = try! XCTUnwrap(latency.summary())
        XCTAssertEqual(s.max, 50, accuracy: 0.01)
        XCTAssertEqual(s.p50, 36.667, accuracy: 0.01, "latencies 50, 20, 36.7")
        // Other roles, other streams and frames without a capture time are not measured.
        latency.frameDone(stream: "cam1", role: "census", ptsUs: 133_333, captureUnixUs: 1_133_333, nowUnixUs: 1_140_000)
        latency.frameDone(stream: "cam2", role: "detection", ptsUs: 0, captureUnixUs: 0, nowUnixUs: 1_140_000)
        latency.frameDone(stream: "cam2", role: "pose", ptsUs: 0, captureUnixUs: 0, nowUnixUs: 1_140_000)
        XCTAssertEqual(latency.measured, 3)
        XCTAssertEqual(s.description, "3 frames, p50 36.7 ms, p90 50.0 ms, p99 50.0 ms, max 50.0 ms (2 frames not analysed by every role)")
    }
}

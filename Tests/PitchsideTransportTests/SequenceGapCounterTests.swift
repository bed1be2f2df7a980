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

import PitchsideCore
import XCTest
@testable import PitchsideTransport

/// The worker's half of at-least-once delivery: numbering, forgetting what is durable,
/// and sending again from where a restarted or stalled aggregator stands.
final class ResultOutboxTests: XCTestCase {
    private func result(_ frame: UInt64) -> PSWorkerResult {
        PSWorkerResult.with { $0.frameDone = PSFrameDone.with { $0.header.seq = frame; $0.role = "pose" } }
    }

    private func ack(_ outbox: ResultOutbox, aggregator: UInt64 = 1, committed: UInt64, next: UInt64) -> PSResultsAck {
        PSResultsAck.with {
            $0.aggregatorEpoch = aggregator
            $0.producerID = outbox.producerID
            $0.epoch = outbox.epoch
            $0.committed = committed
            $0.next = next
        }
    }

    /// Sends everything the outbox will give; returns the seqs sent.
    private func sendAll(_ outbox: inout ResultOutbox) -> [UInt64] {
        var sent: [UInt64] = []
        while let (_, r) = outbox.nextToSend() {
            XCTAssertEqual(r.delivery.producerID, outbox.producerID)
            XCTAssertEqual(r.delivery.epoch, outbox.epoch)
            sent.append(r.delivery.seq)
            outbox.didSend()
        }
        return sent
    }

    func testNumbersResultsAndForgetsWhatIsCommitted() {
        var outbox = ResultOutbox(producerID: "pose", epoch: 7)
        for f in 0..<5 { outbox.append(result(UInt64(f)), topic: "result/cam1/pose") }
        XCTAssertEqual(outbox.nextToSend()?.result.delivery.retainedFrom, 1)
        XCTAssertEqual(sendAll(&outbox), [1, 2, 3, 4, 5])
        XCTAssertEqual(outbox.count, 5, "kept until committed")
        XCTAssertFalse(outbox.receive(ack(outbox, committed: 3, next: 6), now: 0))
        XCTAssertEqual(outbox.count, 2)
        XCTAssertEqual(outbox.retainedFrom, 4)
        XCTAssertNil(outbox.nextToSend(), "nothing to send again: the aggregator has everything")
        outbox.receive(ack(outbox, committed: 5, next: 6), now: 0.2)
        XCTAssertTrue(outbox.isEmpty)
        XCTAssertEqual(outbox.counters.sent, 5)
        XCTAssertEqual(outbox.counters.resent, 0)
    }

    func testARestartedAggregatorGetsEverythingAfterItsLogAgain() {
        var outbox = ResultOutbox(producerID: "trajectory", epoch: 3)
        for f in 0..<10 { outbox.append(result(UInt64(f)), topic: "t") }
        XCTAssertEqual(sendAll(&outbox).count, 10)
        outbox.receive(ack(outbox, aggregator: 1, committed: 4, next: 9), now: 0)
        // The aggregator is killed; its successor's log ends at 6.
        XCTAssertTrue(outbox.receive(ack(outbox, aggregator: 2, committed: 6, next: 7), now: 0.5))
        XCTAssertEqual(outbox.nextToSend()?.result.delivery.retainedFrom, 7)
        XCTAssertEqual(sendAll(&outbox), [7, 8, 9, 10])
        XCTAssertEqual(outbox.counters.resent, 4)
        XCTAssertEqual(outbox.counters.rewinds, 1)
        // Receipts from the same aggregator, moving along: no more resends.
        XCTAssertFalse(outbox.receive(ack(outbox, aggregator: 2, committed: 6, next: 9), now: 0.7))
        XCTAssertFalse(outbox.receive(ack(outbox, aggregator: 2, committed: 10, next: 11), now: 0.9))
        XCTAssertTrue(outbox.isEmpty)
    }

    func testAStalledAggregatorIsAskedAgainOnlyAfterAWhile() {
        var outbox = ResultOutbox(producerID: "detection", epoch: 1, resendAfter: 2)
        for f in 0..<4 { outbox.append(result(UInt64(f)), topic: "t") }
        _ = sendAll(&outbox)
        XCTAssertFalse(outbox.receive(ack(outbox, committed: 0, next: 3), now: 0), "a first receipt is no restart")
        XCTAssertFalse(outbox.receive(ack(outbox, committed: 0, next: 3), now: 1.0), "in flight, not lost yet")
        XCTAssertNil(outbox.nextToSend())
        XCTAssertTrue(outbox.receive(ack(outbox, committed: 2, next: 3), now: 2.1), "stuck at 3 for 2 s")
        XCTAssertEqual(sendAll(&outbox), [3, 4])
        XCTAssertFalse(outbox.receive(ack(outbox, committed: 2, next: 3), now: 2.5), "asked again just now")
    }

    func testReceiptsForSomebodyElseAreIgnoredAndAFullOutboxSaysSo() {
        var outbox = ResultOutbox(producerID: "pose", epoch: 9, capacity: 3)
        for f in 0..<3 { outbox.append(result(UInt64(f)), topic: "t") }
        XCTAssertTrue(outbox.isFull)
        _ = sendAll(&outbox)
        var other = ack(outbox, committed: 3, next: 4)
        other.epoch = 8  // the same worker's previous process
        XCTAssertFalse(outbox.receive(other, now: 0))
        other = ack(outbox, committed: 3, next: 4)
        other.producerID = "pose-1of2"
        XCTAssertFalse(outbox.receive(other, now: 0))
        XCTAssertEqual(outbox.count, 3)
        outbox.receive(ack(outbox, committed: 1, next: 4), now: 0)
        XCTAssertFalse(outbox.isFull)
    }

    func testCompactionKeepsOrderAcrossManyResults() {
        var outbox = ResultOutbox(producerID: "pose", epoch: 1)
        var committed: UInt64 = 0
        for round in 0..<10 {
            for f in 0..<500 { outbox.append(result(UInt64(round * 500 + f)), topic: "t") }
            let sent = sendAll(&outbox)
            XCTAssertEqual(sent.first, UInt64(round * 500 + 1))
            XCTAssertEqual(sent.count, 500)
            committed += 450
            outbox.receive(ack(outbox, committed: committed, next: committed + 51), now: Double(round))
            XCTAssertEqual(outbox.retainedFrom, committed + 1)
        }
        XCTAssertEqual(outbox.count, 500)
    }
}

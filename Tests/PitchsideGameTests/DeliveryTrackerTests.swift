import PitchsideCore
import PitchsideTransport
import XCTest
@testable import PitchsideGame

/// The aggregator's half of at-least-once delivery: every numbered result taken once and in
/// order, across resends, duplicates, gaps, a restarted worker and a restarted aggregator.
final class DeliveryTrackerTests: XCTestCase {
    private func numbered(_ seq: UInt64, producer: String = "pose", epoch: UInt64 = 1, retainedFrom: UInt64 = 1) -> PSWorkerResult {
        PSWorkerResult.with {
            $0.frameDone = PSFrameDone.with { $0.header.streamID = "cam1"; $0.header.seq = seq; $0.role = "pose" }
            $0.delivery = PSDelivery.with {
                $0.producerID = producer
                $0.epoch = epoch
                $0.seq = seq
                $0.retainedFrom = retainedFrom
            }
        }
    }

    func testTakesEachResultOnceAndInOrder() {
        var t = DeliveryTracker()
        XCTAssertEqual(t.admit(numbered(1)), .accepted)
        XCTAssertEqual(t.admit(numbered(2)), .accepted)
        XCTAssertEqual(t.admit(numbered(2)), .duplicate)
        XCTAssertEqual(t.admit(numbered(1)), .duplicate)
        XCTAssertEqual(t.admit(numbered(4)), .gap(expected: 3), "3 is missing: 4 waits for the resend")
        XCTAssertEqual(t.admit(numbered(3)), .accepted)
        XCTAssertEqual(t.admit(numbered(4)), .accepted)
        XCTAssertEqual(t.counters, DeliveryTracker.Counters(accepted: 4, duplicates: 2, gaps: 1))
        var plain = PSWorkerResult()
        plain.frameDone = PSFrameDone()
        XCTAssertEqual(t.admit(plain), .unsequenced, "a result without numbers is taken as it comes")
    }

    func testMarksStopAtTheFirstResultNotYetLogged() {
        var t = DeliveryTracker()
        for s in UInt64(1)...5 { XCTAssertEqual(t.admit(numbered(s)), .accepted) }
        XCTAssertEqual(t.marks(), [DeliveryMark(producerID: "pose", epoch: 1, committed: 0)])
        for s in [1, 2, 4] { t.finish(numbered(UInt64(s))) }
        XCTAssertEqual(t.marks().first?.committed, 2, "3 is still in the re-order buffer")
        t.finish(numbered(3))
        t.finish(numbered(5))
        XCTAssertEqual(t.marks().first?.committed, 5)
        let ack = t.acks(aggregatorEpoch: 42, durable: [DeliveryMark(producerID: "pose", epoch: 1, committed: 2)])
        XCTAssertEqual(ack.map(\.committed), [2], "receipts report what the log holds")
        XCTAssertEqual(ack.map(\.next), [6])
        XCTAssertEqual(ack.map(\.aggregatorEpoch), [42])
    }

    func testRestoredMarksMakeEverythingOlderADuplicate() {
        var t = DeliveryTracker(restoring: [DeliveryMark(producerID: "pose", epoch: 1, committed: 10)])
        XCTAssertEqual(t.admit(numbered(9)), .duplicate)
        XCTAssertEqual(t.admit(numbered(12)), .gap(expected: 11), "queued while the aggregator was down")
        XCTAssertEqual(t.admit(numbered(11)), .accepted)
        XCTAssertEqual(t.acks(aggregatorEpoch: 1, durable: []).first?.next, 12)
    }

    func testARestartedWorkerStartsAgainAndLostResultsAreCounted() {
        var t = DeliveryTracker()
        for s in UInt64(1)...3 { _ = t.admit(numbered(s)) }
        XCTAssertEqual(t.admit(numbered(1, epoch: 2)), .accepted, "a new process numbers from 1")
        XCTAssertEqual(t.counters.newEpochs, 1)
        t.finish(numbered(2))  // the old process's result: nothing to settle any more
        XCTAssertEqual(t.marks(), [DeliveryMark(producerID: "pose", epoch: 2, committed: 0)])
        // A worker whose outbox overflowed no longer has 2...5: take 6 and count the loss.
        XCTAssertEqual(t.admit(numbered(6, epoch: 2, retainedFrom: 6)), .accepted)
        XCTAssertEqual(t.counters.unrecoverable, 4)
    }

    func testBogusNumbersCannotBlockAWorker() {
        var t = DeliveryTracker()
        for s in UInt64(1)...3 { _ = t.admit(numbered(s)) }
        XCTAssertEqual(t.admit(numbered(0)), .duplicate, "seq 0 is never valid")
        var anonymous = numbered(4)
        anonymous.delivery.producerID = ""
        XCTAssertEqual(t.admit(anonymous), .unsequenced, "no producer: taken as it comes, nothing tracked")
        // Somebody else using the worker's id with another epoch and absurd numbers...
        XCTAssertEqual(t.admit(numbered(1_000_000, epoch: 99, retainedFrom: 1_000_000)), .accepted)
        // ...only costs the real worker a resend: its next result starts a fresh count at what it still has.
        XCTAssertEqual(t.admit(numbered(5, epoch: 1, retainedFrom: 4)), .gap(expected: 4))
        XCTAssertEqual(t.admit(numbered(4, epoch: 1, retainedFrom: 4)), .accepted)
        XCTAssertEqual(t.admit(numbered(5, epoch: 1, retainedFrom: 4)), .accepted)
    }

    /// A worker outbox and the aggregator's tracker across an aggregator killed with results
    /// in its buffers and more queued while it was down: every result is logged exactly once.
    func testNothingIsLostOrTakenTwiceAcrossAnAggregatorRestart() {
        var outbox = ResultOutbox(producerID: "pose", epoch: 5)
        var wire: [PSWorkerResult] = []  // the PUSH socket's queue, in order
        func flush() { while let (_, r) = outbox.nextToSend() { wire.append(r); outbox.didSend() } }
        func produce(_ n: Int) {
            for _ in 0..<n { outbox.append(PSWorkerResult.with { $0.frameDone = PSFrameDone() }, topic: "t") }
            flush()
        }
        var logged: [UInt64] = []  // what the game handled and the log kept
        var buffered: [PSWorkerResult] = []  // taken, waiting in the re-order buffer
        var tracker = DeliveryTracker()
        var marks: [DeliveryMark] = []
        func aggregate(epoch: UInt64, count: Int? = nil) {
            let n = count ?? wire.count
            for r in wire.prefix(n) where tracker.admit(r) == .accepted { buffered.append(r) }
            wire.removeFirst(n)
            // One producer's results leave the re-order buffer in its own order; the last two wait.
            for r in buffered.dropLast(2) {
                tracker.finish(r)
                logged.append(r.delivery.seq)
            }
            buffered = Array(buffered.suffix(2))
            marks = tracker.marks()  // committed with what was logged
            for ack in tracker.acks(aggregatorEpoch: epoch, durable: marks) { outbox.receive(ack, now: 0) }
            flush()
        }
        produce(10)
        aggregate(epoch: 1)
        XCTAssertEqual(marks.first?.committed, 8)
        produce(10)
        aggregate(epoch: 1, count: 4)  // killed after taking 11...14; 15...20 die in its socket
        wire.removeAll()
        buffered.removeAll()  // and 13, 14 with its re-order buffer
        produce(10)  // 21...30 queued while it is down
        // Restarted from its log: the results after the mark come again, nothing twice.
        tracker = DeliveryTracker(restoring: marks)
        aggregate(epoch: 2)  // the queued copies are out of sequence; the receipt asks for a resend
        aggregate(epoch: 2)
        XCTAssertEqual(logged, Array(1...28))
        XCTAssertEqual(buffered.map(\.delivery.seq), [29, 30])
        XCTAssertGreaterThan(tracker.counters.gaps, 0)
        XCTAssertEqual(outbox.counters.rewinds, 1)
    }
}

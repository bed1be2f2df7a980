@testable import PitchsideTransport
import XCTest

final class CreditLedgerTests: XCTestCase {
    func testWindowAndAcknowledgements() {
        var ledger = CreditLedger()
        ledger.hello(id: "w", subscriptions: ["frame/a/gray"], window: 2, now: 0)
        // Not counted until its subscriptions are confirmed.
        XCTAssertEqual(ledger.blockers(streamID: "a", seq: 10), [])
        ledger.synchronise(id: "w", now: 0)
        XCTAssertEqual(ledger.synchronisedCount, 1)
        XCTAssertEqual(ledger.blockers(streamID: "a", seq: 0), [])
        XCTAssertEqual(ledger.blockers(streamID: "a", seq: 1), [])
        XCTAssertEqual(ledger.blockers(streamID: "a", seq: 2), ["w"])  // 0 and 1 outstanding
        ledger.acknowledge(id: "w", streamID: "a", seq: 0, now: 1)
        XCTAssertEqual(ledger.blockers(streamID: "a", seq: 2), [])
        XCTAssertEqual(ledger.blockers(streamID: "a", seq: 3), ["w"])
        // Another stream is not its business.
        XCTAssertEqual(ledger.blockers(streamID: "b", seq: 100), [])
        // Stale acknowledgements never move it back.
        ledger.acknowledge(id: "w", streamID: "a", seq: 2, now: 2)
        ledger.acknowledge(id: "w", streamID: "a", seq: 1, now: 3)
        XCTAssertEqual(ledger.consumers["w"]?.ackedThrough["a"], 2)
        XCTAssertEqual(ledger.consumers["w"]?.lastHeard, 3)
        ledger.remove(id: "w")
        XCTAssertEqual(ledger.blockers(streamID: "a", seq: 100), [])
    }

    func testSubscriptionMatching() {
        var ledger = CreditLedger()
        for (id, subscriptions) in [("gray", ["frame/a/gray"]), ("stream", ["frame/a/"]), ("all", []),
                                    ("frames", ["frame/"]), ("other", ["frame/ab/"])] {
            ledger.hello(id: id, subscriptions: subscriptions, window: 1, now: 0)
            ledger.synchronise(id: id, now: 0)
        }
        _ = ledger.blockers(streamID: "a", seq: 0)
        XCTAssertEqual(ledger.blockers(streamID: "a", seq: 1), ["all", "frames", "gray", "stream"])
    }

    func testJoiningMidStreamStartsWithNothingOutstanding() {
        var ledger = CreditLedger()
        ledger.hello(id: "late", subscriptions: [], window: 4, now: 0)
        ledger.synchronise(id: "late", now: 0)
        XCTAssertEqual(ledger.blockers(streamID: "a", seq: 500), [])
        XCTAssertEqual(ledger.blockers(streamID: "a", seq: 503), [])
        XCTAssertEqual(ledger.blockers(streamID: "a", seq: 504), ["late"])
        // A restarted consumer (hello again) starts afresh once confirmed.
        ledger.hello(id: "late", subscriptions: [], window: 4, now: 1)
        XCTAssertEqual(ledger.blockers(streamID: "a", seq: 504), [])
        ledger.synchronise(id: "late", now: 1)
        XCTAssertEqual(ledger.blockers(streamID: "a", seq: 600), [])
    }
}

import Foundation
import PitchsideCore
@testable import PitchsideTransport
import XCTest

/// Lockstep pacing over real TCP sockets: a publisher behind a `CreditGate`, consumers with
/// `CreditClient`s on their own threads.
final class CreditGateTests: XCTestCase {
    /// A consumer thread: receives frames of stream "a" until end of stream (or `stop`),
    /// sleeping `delay` per frame and acknowledging each one, up to `ackUntil` if given (then it
    /// goes silent like a hung worker). It says goodbye at the end unless it went silent.
    private func consumer(_ context: ZMQContext, frames: String, credits: String, id: String, window: Int,
                          delay: Double = 0, acknowledges: Bool = true, ackUntil: UInt64? = nil, goodbyeWhen: Flag? = nil,
                          stop: Flag, got: Shared<[UInt64]>) -> TestThread {
        TestThread(id) {
            let sub = try context.socket(.sub)
            try sub.set(.receiveHighWaterMark, CreditGate.recommendedHighWaterMark(window: window))
            try sub.connect(frames)
            let client = try CreditClient(context: context, endpoint: credits, consumerID: id,
                                          subscriptions: ["frame/a/"], window: window, subscriber: sub)
            let receiver = MessageReceiver<PSFrame>(socket: sub, credits: client)
            let deadline = WallClock.monotonicSeconds() + 60
            while !stop.isSet, WallClock.monotonicSeconds() < deadline {
                if let goodbyeWhen, goodbyeWhen.isSet {
                    try client.goodbye()
                    break
                }
                guard let received = try receiver.receive(timeout: 0.05) else { continue }
                let frame = received.message
                if frame.endOfStream { break }
                got.mutate { $0.append(frame.header.seq) }
                if delay > 0 { Thread.sleep(forTimeInterval: delay) }
                if let ackUntil, frame.header.seq > ackUntil {
                    // Hung: no more reading, no credits, no goodbye, sockets left open.
                    while !stop.isSet { Thread.sleep(forTimeInterval: 0.01) }
                    return
                }
                if acknowledges { try client.acknowledge(streamID: frame.header.streamID, seq: frame.header.seq) }
            }
            client.close()
        }
    }

    private func makePublisher(_ context: ZMQContext, silenceTimeout: Double = 10) throws -> (ZMQSocket, String, CreditGate) {
        let pub = try context.socket(.pub)
        // Credits, not the high-water mark, bound the queue: 64 frames of 64 KiB could be queued,
        // but the window lets at most 4 be outstanding.
        try pub.set(.sendHighWaterMark, CreditGate.recommendedHighWaterMark(window: 4))
        let frames = try pub.bind("tcp://127.0.0.1:*")
        let gate = try CreditGate(context: context, endpoint: "tcp://127.0.0.1:*", publisher: pub,
                                  configuration: .init(silenceTimeout: silenceTimeout))
        return (pub, frames, gate)
    }

    func testLockstepWithASlowConsumerLosesNoFrame() throws {
        let context = try ZMQContext()
        let (pub, frames, gate) = try makePublisher(context)
        let stop = Flag(), got = Shared<[UInt64]>([])
        let slow = consumer(context, frames: frames, credits: gate.endpoint, id: "slow", window: 4,
                            delay: 0.002, stop: stop, got: got)
        XCTAssertTrue(try gate.waitForConsumers(count: 1, timeout: 30))
        XCTAssertEqual(gate.consumers, ["slow"])

        let total: UInt64 = 200
        for seq in 0..<total {
            XCTAssertEqual(try gate.waitUntilAllowed(streamID: "a", seq: seq, timeout: 30), .allowed)
            try pub.send(testFrame(stream: "a", seq: seq, bytes: 64 * 1024), topic: .frame(stream: "a", rendition: "gray"))
        }
        XCTAssertEqual(try gate.waitUntilAllowed(streamID: "a", seq: total, timeout: 30), .allowed)
        try pub.send(endOfStream(stream: "a", lastSeq: total - 1), topic: .frame(stream: "a", rendition: "gray"))
        slow.wait()
        stop.set()
        XCTAssertEqual(got.value, Array(0..<total))
        XCTAssertEqual(gate.droppedConsumers, [])
    }

    func testASilentConsumerIsDroppedAndThePublisherContinues() throws {
        let context = try ZMQContext()
        let (pub, frames, gate) = try makePublisher(context, silenceTimeout: 1.0)
        let stop = Flag(), gotAlive = Shared<[UInt64]>([]), gotDead = Shared<[UInt64]>([])
        let alive = consumer(context, frames: frames, credits: gate.endpoint, id: "alive", window: 2, stop: stop, got: gotAlive)
        let dead = consumer(context, frames: frames, credits: gate.endpoint, id: "dead", window: 2, ackUntil: 4, stop: stop, got: gotDead)
        defer { stop.set(); alive.wait(); dead.wait() }
        XCTAssertTrue(try gate.waitForConsumers(count: 2, timeout: 30))

        let total: UInt64 = 30
        let start = WallClock.monotonicSeconds()
        for seq in 0..<total {
            XCTAssertEqual(try gate.waitUntilAllowed(streamID: "a", seq: seq, timeout: 30), .allowed)
            try pub.send(testFrame(stream: "a", seq: seq), topic: .frame(stream: "a", rendition: "gray"))
        }
        XCTAssertGreaterThanOrEqual(WallClock.monotonicSeconds() - start, 1.0)  // it did wait for the silent one
        XCTAssertEqual(gate.droppedConsumers, ["dead"])
        XCTAssertEqual(gate.consumers, ["alive"])
        try pub.send(endOfStream(stream: "a", lastSeq: total - 1), topic: .frame(stream: "a", rendition: "gray"))
        alive.wait()
        XCTAssertEqual(gotAlive.value, Array(0..<total))
    }

    func testGoodbyeUnregistersAtOnceAndWaitsCanTimeOutOrBeCancelled() throws {
        let context = try ZMQContext()
        let (pub, frames, gate) = try makePublisher(context, silenceTimeout: 120)
        let stop = Flag(), leave = Flag(), got = Shared<[UInt64]>([])
        // Window 1, never acknowledges (it leaves instead).
        let polite = consumer(context, frames: frames, credits: gate.endpoint, id: "polite", window: 1,
                              acknowledges: false, goodbyeWhen: leave, stop: stop, got: got)
        defer { stop.set(); polite.wait() }
        XCTAssertTrue(try gate.waitForConsumers(count: 1, timeout: 30))

        XCTAssertEqual(try gate.waitUntilAllowed(streamID: "a", seq: 0), .allowed)
        try pub.send(testFrame(stream: "a", seq: 0), topic: .frame(stream: "a", rendition: "gray"))
        XCTAssertEqual(try gate.waitUntilAllowed(streamID: "b", seq: 0, timeout: 0), .allowed)  // not its stream
        XCTAssertEqual(try gate.waitUntilAllowed(streamID: "a", seq: 1, timeout: 0.2), .timedOut)
        XCTAssertEqual(try gate.waitUntilAllowed(streamID: "a", seq: 1, isCancelled: { true }), .cancelled)

        leave.set()
        let start = WallClock.monotonicSeconds()
        XCTAssertEqual(try gate.waitUntilAllowed(streamID: "a", seq: 1, timeout: 60), .allowed)
        XCTAssertLessThan(WallClock.monotonicSeconds() - start, 30)  // far below the 120 s silence timeout
        XCTAssertEqual(gate.consumers, [])
        XCTAssertEqual(gate.droppedConsumers, [])
    }

    func testWaitForConsumersTimesOut() throws {
        let context = try ZMQContext()
        let (_, _, gate) = try makePublisher(context)
        XCTAssertFalse(try gate.waitForConsumers(count: 1, timeout: 0.2))
    }
}

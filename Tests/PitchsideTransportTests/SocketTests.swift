import Foundation
import PitchsideCore
@testable import PitchsideTransport
import XCTest

final class SocketTests: XCTestCase {
    func testBindReturnsTheActualEndpoint() throws {
        let context = try ZMQContext()
        let socket = try context.socket(.pull)
        let endpoint = try socket.bind("tcp://127.0.0.1:*")
        XCTAssertTrue(endpoint.hasPrefix("tcp://127.0.0.1:"), endpoint)
        XCTAssertNotEqual(endpoint, "tcp://127.0.0.1:*")
        XCTAssertGreaterThan(Int(endpoint.split(separator: ":").last!) ?? 0, 0)
    }

    func testBindErrorNamesTheEndpoint() throws {
        let context = try ZMQContext()
        let first = try context.socket(.pub)
        let endpoint = try first.bind("tcp://127.0.0.1:*")
        let second = try context.socket(.pub)
        XCTAssertThrowsError(try second.bind(endpoint)) { error in
            let error = error as! TransportError
            XCTAssertEqual(error.code, EADDRINUSE)
            XCTAssertEqual("\(error)", "cannot bind \(endpoint): Address already in use")
        }
        XCTAssertThrowsError(try second.connect("nonsense://x")) { error in
            XCTAssertTrue("\(error)".hasPrefix("cannot connect nonsense://x: "), "\(error)")
        }
    }

    func testMultipartRoundTripOverTCP() throws {
        let context = try ZMQContext()
        let pull = try context.socket(.pull)
        let endpoint = try pull.bind("tcp://127.0.0.1:*")
        let push = try context.socket(.push)
        try push.connect(endpoint)

        // Empty, small, and large (zero-copy on both sides) parts.
        let large = Data((0..<(3 * ZMQSocket.zeroCopyThreshold + 7)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let parts = [Data("frame/a/gray".utf8), Data(), Data([1, 2, 3]), large]
        XCTAssertTrue(try push.send(parts))
        let received = try XCTUnwrap(try pull.receive(timeout: 10))
        XCTAssertEqual(received, parts)

        // Byte arrays.
        try push.send([[9, 8, 7], [], [UInt8](large)])
        let bytes = try XCTUnwrap(try pull.receiveBytes(timeout: 10))
        XCTAssertEqual(bytes, [[9, 8, 7], [], [UInt8](large)])

        // A large part outlives the sender's copy (zero-copy keeps it alive).
        do {
            var payload = Data(repeating: 0xAB, count: 1 << 20)
            try push.send([Data("t".utf8), payload])
            payload[0] = 0  // mutating our copy must not change what was sent
        }
        let big = try XCTUnwrap(try pull.receive(timeout: 10))
        XCTAssertEqual(big[1].count, 1 << 20)
        XCTAssertTrue(big[1].allSatisfy { $0 == 0xAB })
    }

    func testReceiveTimeoutReturnsNil() throws {
        let context = try ZMQContext()
        let pull = try context.socket(.pull)
        try pull.bind("inproc://timeout")
        let start = WallClock.monotonicSeconds()
        XCTAssertNil(try pull.receive(timeout: 0.2))
        XCTAssertGreaterThanOrEqual(WallClock.monotonicSeconds() - start, 0.19)
        XCTAssertNil(try pull.receive(timeout: 0))
    }

    func testNonBlockingSendReportsEAGAIN() throws {
        let context = try ZMQContext()
        let push = try context.socket(.push)
        try push.set(.sendHighWaterMark, 1)
        try push.set(.linger, 0)
        // No peer connected: a PUSH cannot queue anything and would block.
        XCTAssertFalse(try push.send([Data([1])], dontWait: true))
    }

    func testOptionsRoundTrip() throws {
        let context = try ZMQContext()
        let socket = try context.socket(.sub)
        try socket.setHighWaterMarks(send: 3, receive: 5)
        try socket.set(.maxMessageSize, 10_000_000_000)
        try socket.set(.linger, 0)
        XCTAssertEqual(try socket.get(.sendHighWaterMark), 3)
        XCTAssertEqual(try socket.get(.receiveHighWaterMark), 5)
        XCTAssertEqual(try socket.get(.maxMessageSize), 10_000_000_000)
        XCTAssertEqual(try socket.get(.linger), 0)
        socket.close()
        XCTAssertThrowsError(try socket.bind("inproc://closed"))
    }

    func testPollerReportsTheReadySocket() throws {
        let context = try ZMQContext()
        let a = try context.socket(.pull)
        let b = try context.socket(.pull)
        try a.bind("inproc://poll-a")
        try b.bind("inproc://poll-b")
        let push = try context.socket(.push)
        try push.connect("inproc://poll-b")

        let poller = ZMQPoller()
        poller.add(a)
        poller.add(b)
        XCTAssertEqual(try poller.poll(timeout: 0.05), 0)
        try push.send([Data("x".utf8)])
        XCTAssertEqual(try poller.poll(timeout: 10), 1)
        XCTAssertFalse(poller.isReadable(a))
        XCTAssertTrue(poller.isReadable(b))
        XCTAssertEqual(try b.receive(timeout: 0), [Data("x".utf8)])
    }

    func testShutdownWakesABlockedReceive() throws {
        let context = try ZMQContext()
        let error = Shared<TransportError?>(nil)
        let thread = TestThread("blocked") {
            let pull = try context.socket(.pull)
            try pull.bind("inproc://blocked")
            do { _ = try pull.receive() } catch let e as TransportError { error.value = e }
            pull.close()
        }
        Thread.sleep(forTimeInterval: 0.1)
        context.shutdown()
        thread.wait(timeout: 10)
        XCTAssertEqual(error.value?.isTerminated, true)
    }
}

import Foundation
import PitchsideCore
@testable import PitchsideTransport
import XCTest

/// Runs `body` on its own thread; `wait` joins it (sockets are made and used inside the thread).
final class TestThread: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var failure: Error?
    private var joined = false

    init(_ name: String, _ body: @escaping () throws -> Void) {
        let thread = Thread { [self] in
            do { try body() } catch { lock.withLock { failure = error } }
            done.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Waits for the thread; fails the test on timeout or if the body threw.
    func wait(timeout: Double = 60, file: StaticString = #filePath, line: UInt = #line) {
        if joined { return }
        joined = true
        guard done.wait(timeout: .now() + timeout) == .success else {
            XCTFail("thread did not finish within \(timeout) s", file: file, line: line)
            return
        }
        if let failure = lock.withLock({ failure }) { XCTFail("thread failed: \(failure)", file: file, line: line) }
    }
}

/// A flag shared between threads.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

/// A value shared between threads.
final class Shared<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: T
    init(_ value: T) { storage = value }
    var value: T {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }
    func mutate(_ body: (inout T) -> Void) { lock.withLock { body(&storage) } }
}

/// A gray frame of `bytes` bytes (1 row) with the given seq.
func testFrame(stream: String, seq: UInt64, bytes: Int = 1024, rendition: String = "gray") -> PSFrame {
    var frame = PSFrame()
    frame.header.streamID = stream
    frame.header.seq = seq
    frame.header.ptsUs = Int64(seq) * 33_333
    frame.rendition = rendition
    frame.format = .gray8
    frame.width = UInt32(bytes)
    frame.height = 1
    frame.stride = UInt32(bytes)
    frame.data = Data(repeating: UInt8(truncatingIfNeeded: seq), count: bytes)
    return frame
}

/// The end-of-stream marker: `header.seq` is the last seq published.
func endOfStream(stream: String, lastSeq: UInt64, rendition: String = "gray") -> PSFrame {
    var frame = PSFrame()
    frame.header.streamID = stream
    frame.header.seq = lastSeq
    frame.rendition = rendition
    frame.endOfStream = true
    return frame
}

/// Publishes `ready/` on `pub` until `received` is set by the subscriber (the slow-joiner wait
/// for tests that do not use the credit protocol).
func publishReadyUntil(_ received: Flag, on pub: ZMQSocket, timeout: Double = 20) throws {
    let deadline = WallClock.monotonicSeconds() + timeout
    while !received.isSet {
        guard WallClock.monotonicSeconds() < deadline else { throw TransportError(operation: "sync subscribers", code: ETIMEDOUT) }
        try pub.send([Data("ready/".utf8), Data()])
        Thread.sleep(forTimeInterval: 0.01)
    }
}

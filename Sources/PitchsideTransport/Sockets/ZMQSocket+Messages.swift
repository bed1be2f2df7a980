import CZeroMQ
import Foundation
import PitchsideCore

/// Multipart send and receive.
///
/// Large parts move without copying: a sent `Data` of at least `zeroCopyThreshold` bytes is
/// handed to libzmq with `zmq_msg_init_data` (kept alive until libzmq has written it), and a
/// received part that large is wrapped in a `Data` that owns the `zmq_msg_t`.
extension ZMQSocket {
    /// Parts at least this big travel without a user-space copy; smaller ones are cheaper to copy.
    public static let zeroCopyThreshold = 16 * 1024

    // MARK: Send

    /// Sends one multipart message. Returns false when `dontWait` is set and the socket would block
    /// (EAGAIN: a PUSH or DEALER at its high-water mark); nothing is then queued.
    /// A PUB never blocks: at the high-water mark it drops the message and returns true.
    @discardableResult
    public func send(_ parts: [Data], dontWait: Bool = false) throws -> Bool {
        precondition(!parts.isEmpty, "a message has at least one part")
        let handle = try openHandle("send")
        for (index, part) in parts.enumerated() {
            var flags: Int32 = index < parts.count - 1 ? ZMQ_SNDMORE : 0
            if dontWait { flags |= ZMQ_DONTWAIT }
            var message = zmq_msg_t()
            try Self.initMessage(&message, with: part)
            guard try sendMessage(&message, handle: handle, flags: flags, isFirst: index == 0) else { return false }
        }
        return true
    }

    /// Sends one multipart message of byte arrays (copied; use `Data` parts for large payloads).
    @discardableResult
    public func send(_ parts: [[UInt8]], dontWait: Bool = false) throws -> Bool {
        precondition(!parts.isEmpty, "a message has at least one part")
        let handle = try openHandle("send")
        for (index, part) in parts.enumerated() {
            var flags: Int32 = index < parts.count - 1 ? ZMQ_SNDMORE : 0
            if dontWait { flags |= ZMQ_DONTWAIT }
            var message = zmq_msg_t()
            guard zmq_msg_init_size(&message, part.count) == 0 else { throw TransportError.last("allocate a message") }
            if !part.isEmpty {
                part.withUnsafeBytes { raw in
                    zmq_msg_data(&message).copyMemory(from: raw.baseAddress!, byteCount: raw.count)
                }
            }
            guard try sendMessage(&message, handle: handle, flags: flags, isFirst: index == 0) else { return false }
        }
        return true
    }

    /// Sends `[topic, payload]`.
    @discardableResult
    public func send(topic: String, payload: Data, dontWait: Bool = false) throws -> Bool {
        try send([Data(topic.utf8), payload], dontWait: dontWait)
    }

    private func sendMessage(_ message: inout zmq_msg_t, handle: UnsafeMutableRawPointer, flags: Int32, isFirst: Bool) throws -> Bool {
        while zmq_msg_send(&message, handle, flags) < 0 {
            let code = zmq_errno()
            if code == EINTR { continue }
            zmq_msg_close(&message)
            // libzmq admits a multipart message whole or not at all, so EAGAIN can only come first.
            if code == EAGAIN && isFirst { return false }
            throw TransportError(operation: "send on \(type) socket", code: code)
        }
        return true
    }

    private static func initMessage(_ message: inout zmq_msg_t, with part: Data) throws {
        if part.count >= zeroCopyThreshold {
            // Keep an immutable copy of the Data (sharing its storage) alive until libzmq calls back.
            let box = Unmanaged.passRetained(DataBox(part))
            let pointer = box.takeUnretainedValue().data.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress!) }
            let rc = zmq_msg_init_data(&message, pointer, part.count, { _, hint in
                Unmanaged<DataBox>.fromOpaque(hint!).release()
            }, box.toOpaque())
            guard rc == 0 else {
                box.release()
                throw TransportError.last("wrap a message")
            }
            return
        }
        guard zmq_msg_init_size(&message, part.count) == 0 else { throw TransportError.last("allocate a message") }
        if !part.isEmpty {
            part.withUnsafeBytes { raw in
                zmq_msg_data(&message).copyMemory(from: raw.baseAddress!, byteCount: raw.count)
            }
        }
    }

    // MARK: Receive

    /// Receives one multipart message. `timeout` in seconds: nil waits forever, 0 only takes
    /// what is already queued. Returns nil when the time runs out.
    public func receive(timeout: Double? = nil) throws -> [Data]? {
        let handle = try openHandle("receive")
        guard try waitForFirstPart(handle: handle, timeout: timeout) else { return nil }
        var parts: [Data] = []
        var more = true
        // With a timeout the first part is known to be there; without one, block for it.
        var flags: Int32 = timeout == nil ? 0 : ZMQ_DONTWAIT
        while more {
            let message = UnsafeMutablePointer<zmq_msg_t>.allocate(capacity: 1)
            zmq_msg_init(message)
            while zmq_msg_recv(message, handle, flags) < 0 {
                let code = zmq_errno()
                if code == EINTR { continue }
                zmq_msg_close(message)
                message.deallocate()
                if code == EAGAIN && parts.isEmpty { return nil }  // readable, then taken: a timeout
                throw TransportError(operation: "receive on \(type) socket", code: code)
            }
            more = zmq_msg_more(message) != 0
            parts.append(Self.adopt(message))
            flags = 0  // the other parts of a message arrive together with the first
        }
        return parts
    }

    /// Receives one multipart message as byte arrays (see `receive(timeout:)`).
    public func receiveBytes(timeout: Double? = nil) throws -> [[UInt8]]? {
        try receive(timeout: timeout)?.map { [UInt8]($0) }
    }

    /// Waits until a message can be received; false on timeout.
    private func waitForFirstPart(handle: UnsafeMutableRawPointer, timeout: Double?) throws -> Bool {
        guard let timeout else { return true }  // a blocking receive follows
        let deadline = WallClock.monotonicSeconds() + max(0, timeout)
        while true {
            var item = zmq_pollitem_t(socket: handle, fd: 0, events: Int16(ZMQ_POLLIN), revents: 0)
            let remaining = deadline - WallClock.monotonicSeconds()
            let milliseconds = remaining <= 0 ? 0 : Int(ceil(remaining * 1000))
            let rc = zmq_poll(&item, 1, milliseconds)
            if rc < 0 {
                if zmq_errno() == EINTR { continue }
                throw TransportError.last("poll \(type) socket")
            }
            if rc > 0 { return true }
            if remaining <= 0 { return false }
        }
    }

    /// A `Data` over the message's bytes: copied when small, else owning the message itself.
    private static func adopt(_ message: UnsafeMutablePointer<zmq_msg_t>) -> Data {
        let size = zmq_msg_size(message)
        if size < zeroCopyThreshold {
            let data = size == 0 ? Data() : Data(bytes: zmq_msg_data(message), count: size)
            zmq_msg_close(message)
            message.deallocate()
            return data
        }
        return Data(bytesNoCopy: zmq_msg_data(message), count: size, deallocator: .custom { _, _ in
            zmq_msg_close(message)
            message.deallocate()
        })
    }
}

/// Holds a sent `Data` until libzmq has finished with its bytes.
private final class DataBox {
    let data: Data
    init(_ data: Data) { self.data = data }
}

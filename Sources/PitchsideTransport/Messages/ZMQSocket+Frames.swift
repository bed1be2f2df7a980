import CZeroMQ
import Foundation
import PitchsideCore

/// Sending frames without copying their pixels: the `FrameBuffer`'s encoded message goes to
/// libzmq as is (`zmq_msg_init_data`); the buffer stays alive, and marked in flight, until
/// libzmq lets go of it (after the last subscriber's copy has left).
extension ZMQSocket {
    /// Sends `[topic, frame.message]`; `frame` must have been encoded. False when `dontWait` and
    /// the socket would block (nothing is queued then).
    @discardableResult
    public func send(topic: Topic, frame: FrameBuffer, dontWait: Bool = false) throws -> Bool {
        let topicBytes = Array(topic.string.utf8)
        let payload = frame.message
        precondition(payload.count > 0 || frame.pixelCount == 0, "encode the frame buffer before sending it")
        let handle = try openHandle("send")
        let more: Int32 = ZMQ_SNDMORE | (dontWait ? ZMQ_DONTWAIT : 0)
        var topicMessage = zmq_msg_t()
        guard zmq_msg_init_size(&topicMessage, topicBytes.count) == 0 else { throw TransportError.last("allocate a message") }
        topicBytes.withUnsafeBytes { zmq_msg_data(&topicMessage).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        guard try sendFramePart(&topicMessage, handle: handle, flags: more, isFirst: true) else { return false }

        var body = zmq_msg_t()
        frame.beginSend()
        let owner = Unmanaged.passRetained(frame)
        let rc = zmq_msg_init_data(&body, UnsafeMutableRawPointer(mutating: payload.baseAddress), payload.count, { _, hint in
            let frame = Unmanaged<FrameBuffer>.fromOpaque(hint!).takeRetainedValue()
            frame.endSend()
        }, owner.toOpaque())
        guard rc == 0 else {
            owner.release()
            frame.endSend()
            throw TransportError.last("wrap a message")
        }
        return try sendFramePart(&body, handle: handle, flags: dontWait ? ZMQ_DONTWAIT : 0, isFirst: false)
    }

    private func sendFramePart(_ message: inout zmq_msg_t, handle: UnsafeMutableRawPointer, flags: Int32, isFirst: Bool) throws -> Bool {
        while zmq_msg_send(&message, handle, flags) < 0 {
            let code = zmq_errno()
            if code == EINTR { continue }
            zmq_msg_close(&message)  // for the pixels: libzmq calls the free function, which ends the send
            if code == EAGAIN && isFirst { return false }
            throw TransportError(operation: "send on \(type) socket", code: code)
        }
        return true
    }
}

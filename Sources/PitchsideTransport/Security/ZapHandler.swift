import CZeroMQ
import Foundation
import Logging

/// The ZeroMQ Authentication Protocol handler of one context (RFC 27): libzmq asks it about
/// every CURVE client that completes a handshake with one of the context's servers, and it
/// admits the client only if its public key is allowed.
///
/// It owns a REP socket at `inproc://zeromq.zap.01` on its own thread. The socket is made
/// without a `ZMQSocket` (which would keep the context alive forever); it closes when the
/// context is shut down or terminated.
final class ZapHandler: @unchecked Sendable {
    static let endpoint = "inproc://zeromq.zap.01"

    private let socket: UnsafeMutableRawPointer
    private let allowed: Set<String>
    private let logger: Logger
    private let lock = NSLock()
    private var admittedCount = 0
    private var refusedCount = 0
    private var refusals: [String: Int] = [:]  // used by the handler's thread only

    /// Binds the handler's socket now (before any server socket binds) and starts answering.
    init(context: UnsafeMutableRawPointer, allowed: Set<String>, logger: Logger) throws {
        guard let socket = zmq_socket(context, ZMQ_REP) else { throw TransportError.last("create the ZAP handler's socket") }
        var linger: Int32 = 0
        zmq_setsockopt(socket, ZMQ_LINGER, &linger, MemoryLayout<Int32>.size)
        guard zmq_bind(socket, Self.endpoint) == 0 else {
            let error = TransportError.last("bind", endpoint: Self.endpoint)
            zmq_close(socket)
            throw error
        }
        self.socket = socket
        self.allowed = allowed
        self.logger = logger
        let thread = Thread { [self] in serve() }
        thread.name = "pitchside-zap"
        thread.start()
    }

    /// Clients admitted and refused so far.
    var counts: (admitted: Int, refused: Int) { lock.withLock { (admittedCount, refusedCount) } }

    private func serve() {
        while let request = receive() {
            // version, request id, domain, address, identity, mechanism, credentials...
            guard request.count >= 6 else { continue }
            let mechanism = String(decoding: request[5], as: UTF8.self)
            let address = String(decoding: request[3], as: UTF8.self)
            let clientKey = mechanism == "CURVE" && request.count >= 7 ? CurveKeys.z85(request[6]) : nil
            let admit = clientKey.map { allowed.contains($0) } ?? false
            lock.withLock { if admit { admittedCount += 1 } else { refusedCount += 1 } }
            if admit {
                logger.debug("admitted CURVE client \(clientKey!) from \(address)")
            } else {
                // A refused client keeps reconnecting: say so the first time, then every 100th.
                let key = clientKey ?? mechanism
                refusals[key, default: 0] += 1
                let times = refusals[key]!
                if times == 1 || times % 100 == 0 {
                    logger.warning("refused a \(mechanism) client from \(address)\(clientKey.map { ": key \($0) is not allowed" } ?? "")\(times > 1 ? " (\(times) times)" : "")")
                }
            }
            let reply: [Data] = [
                request[0], request[1], Data((admit ? "200" : "400").utf8), Data((admit ? "OK" : "key not allowed").utf8),
                Data((clientKey ?? "").utf8), Data(),
            ]
            if !send(reply) { break }
        }
        zmq_close(socket)
    }

    /// One request, or nil once the context is shutting down.
    private func receive() -> [Data]? {
        var parts: [Data] = []
        repeat {
            var message = zmq_msg_t()
            zmq_msg_init(&message)
            while zmq_msg_recv(&message, socket, 0) < 0 {
                if zmq_errno() == EINTR { continue }
                zmq_msg_close(&message)
                return nil
            }
            parts.append(Data(bytes: zmq_msg_data(&message), count: zmq_msg_size(&message)))
            zmq_msg_close(&message)
        } while more()
        return parts
    }

    private func more() -> Bool {
        var value: Int32 = 0
        var size = MemoryLayout<Int32>.size
        return zmq_getsockopt(socket, ZMQ_RCVMORE, &value, &size) == 0 && value != 0
    }

    private func send(_ parts: [Data]) -> Bool {
        for (index, part) in parts.enumerated() {
            let flags: Int32 = index < parts.count - 1 ? ZMQ_SNDMORE : 0
            let sent = part.withUnsafeBytes { raw in zmq_send(socket, raw.baseAddress, raw.count, flags) }
            if sent < 0 { return false }
        }
        return true
    }
}

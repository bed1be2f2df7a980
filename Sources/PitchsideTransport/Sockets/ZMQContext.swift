import CZeroMQ
import Foundation
import Logging

/// A ZeroMQ context: the I/O threads and the owner of every socket made from it.
///
/// Make one per process and share it between threads (a context is thread-safe, sockets are not).
/// Sockets keep their context alive; the context is terminated when the last reference goes,
/// after every socket is closed. Call `shutdown()` from another thread to make blocked calls
/// on its sockets fail with `TransportError.isTerminated`.
///
/// ```swift
/// let context = try ZMQContext(ioThreads: 2)
/// let pub = try context.socket(.pub)
/// let endpoint = try pub.bind("tcp://127.0.0.1:*")
/// ```
public final class ZMQContext: @unchecked Sendable {
    let handle: UnsafeMutableRawPointer
    /// CURVE for the `tcp://` sockets of this context (see `TransportSecurity`); nil: plain.
    public let security: TransportSecurity?
    private let zapLock = NSLock()
    private var zap: ZapHandler?

    /// - Parameters:
    ///   - ioThreads: libzmq I/O threads; one moves about a gigabyte a second,
    ///     so fan-out of full-resolution frames to several subscribers wants two.
    ///   - security: CURVE for tcp sockets; by default what the process installed, if anything.
    public init(ioThreads: Int = 1, security: TransportSecurity? = TransportSecurity.forProcess) throws {
        guard let handle = zmq_ctx_new() else {
            throw TransportError.last("create a context")
        }
        self.handle = handle
        self.security = security
        if zmq_ctx_set(handle, ZMQ_IO_THREADS, Int32(ioThreads)) != 0 {
            let error = TransportError.last("set \(ioThreads) I/O threads")
            zmq_ctx_term(handle)
            throw error
        }
    }

    /// A new socket of `type`, owned by the caller (closed when released or by `close()`).
    public func socket(_ type: ZMQSocketType) throws -> ZMQSocket {
        try ZMQSocket(context: self, type: type)
    }

    /// The ZAP handler that admits CURVE clients, started with the first secured bind.
    func startZapHandler() throws {
        guard let security else { return }
        try zapLock.withLock {
            guard zap == nil else { return }
            zap = try ZapHandler(context: handle, allowed: security.allowedClients,
                                 logger: Logger(label: "pitchside.transport.security"))
        }
    }

    /// CURVE clients this context's servers admitted and refused so far.
    public var curveClients: (admitted: Int, refused: Int) {
        zapLock.withLock { zap?.counts ?? (0, 0) }
    }

    /// Makes every blocking call on this context's sockets return ETERM. Sockets must still be closed.
    public func shutdown() {
        zmq_ctx_shutdown(handle)
    }

    deinit {
        // Sockets hold a reference to their context, so none is open here and this cannot block.
        while zmq_ctx_term(handle) != 0 && zmq_errno() == EINTR {}
    }

    /// libzmq's version, e.g. "4.3.4".
    public static var libraryVersion: String {
        var major: Int32 = 0, minor: Int32 = 0, patch: Int32 = 0
        zmq_version(&major, &minor, &patch)
        return "\(major).\(minor).\(patch)"
    }
}

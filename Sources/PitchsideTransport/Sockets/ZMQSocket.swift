import CZeroMQ

/// One ZeroMQ socket, owned by one thread at a time, closed on `close()` or when released.
///
/// ```swift
/// let sub = try context.socket(.sub)
/// try sub.set(.receiveHighWaterMark, 4)
/// try sub.connect(endpoint)
/// try sub.subscribe("frame/cam1/gray")
/// if let parts = try sub.receive(timeout: 1.0) { ... }   // nil after a second of silence
/// ```
///
/// Sockets are not thread-safe: create, use and close each one on a single thread, or hand it
/// over with a synchronising operation (a lock, a queue, a thread start) in between.
public final class ZMQSocket {
    /// The default linger: long enough to flush results on exit, short enough never to hang it.
    public static let defaultLingerMilliseconds = 500

    public let type: ZMQSocketType
    /// Keeps the context alive while the socket is open (the context is terminated after its sockets).
    public let context: ZMQContext
    private(set) var handle: UnsafeMutableRawPointer?

    init(context: ZMQContext, type: ZMQSocketType) throws {
        guard let handle = zmq_socket(context.handle, type.rawValue) else {
            throw TransportError.last("create a \(type) socket")
        }
        self.context = context
        self.type = type
        self.handle = handle
        try set(.linger, Self.defaultLingerMilliseconds)
    }

    deinit {
        close()
    }

    /// Closes the socket; pending outbound messages get `linger` to leave. Safe to call twice.
    public func close() {
        if let handle {
            zmq_close(handle)
            self.handle = nil
        }
    }

    public var isClosed: Bool { handle == nil }

    func openHandle(_ operation: String, endpoint: String? = nil) throws -> UnsafeMutableRawPointer {
        guard let handle else {
            throw TransportError(operation: operation, endpoint: endpoint, code: ENOTSOCK, reason: "socket is closed")
        }
        return handle
    }

    // MARK: Endpoints

    /// Binds and returns the endpoint actually bound (ZMQ_LAST_ENDPOINT), so that
    /// `tcp://127.0.0.1:*` yields e.g. `tcp://127.0.0.1:41234`.
    @discardableResult
    public func bind(_ endpoint: String) throws -> String {
        let handle = try openHandle("bind", endpoint: endpoint)
        if let security = context.security, TransportSecurity.applies(to: endpoint) {
            // A CURVE server whose clients the context's ZAP handler admits by key.
            try context.startZapHandler()
            try setInt32(ZMQ_CURVE_SERVER, 1, name: "make a CURVE server")
            try setText(ZMQ_CURVE_SECRETKEY, security.keyPair.secretKey, name: "set the CURVE secret key")
            try setText(ZMQ_ZAP_DOMAIN, TransportSecurity.domain, name: "set the ZAP domain")
        }
        guard zmq_bind(handle, endpoint) == 0 else {
            throw TransportError.last("bind", endpoint: endpoint)
        }
        return try lastEndpoint()
    }

    public func unbind(_ endpoint: String) throws {
        let handle = try openHandle("unbind", endpoint: endpoint)
        guard zmq_unbind(handle, endpoint) == 0 else {
            throw TransportError.last("unbind", endpoint: endpoint)
        }
    }

    /// Connects (asynchronously: the connection is made, and remade, in the background).
    public func connect(_ endpoint: String) throws {
        let handle = try openHandle("connect", endpoint: endpoint)
        if let security = context.security, TransportSecurity.applies(to: endpoint) {
            // A CURVE client that only talks to the server holding this public key.
            let serverKey: String
            do { serverKey = try security.serverKey(for: endpoint) } catch {
                throw TransportError(operation: "connect", endpoint: endpoint, code: EINVAL, reason: "\(error)")
            }
            try setText(ZMQ_CURVE_SERVERKEY, serverKey, name: "set the CURVE server key")
            try setText(ZMQ_CURVE_PUBLICKEY, security.keyPair.publicKey, name: "set the CURVE public key")
            try setText(ZMQ_CURVE_SECRETKEY, security.keyPair.secretKey, name: "set the CURVE secret key")
        }
        guard zmq_connect(handle, endpoint) == 0 else {
            throw TransportError.last("connect", endpoint: endpoint)
        }
    }

    public func disconnect(_ endpoint: String) throws {
        let handle = try openHandle("disconnect", endpoint: endpoint)
        guard zmq_disconnect(handle, endpoint) == 0 else {
            throw TransportError.last("disconnect", endpoint: endpoint)
        }
    }

    /// The endpoint of the last bind or connect (ZMQ_LAST_ENDPOINT).
    public func lastEndpoint() throws -> String {
        let handle = try openHandle("read ZMQ_LAST_ENDPOINT")
        var buffer = [CChar](repeating: 0, count: 1024)
        var size = buffer.count
        guard zmq_getsockopt(handle, ZMQ_LAST_ENDPOINT, &buffer, &size) == 0 else {
            throw TransportError.last("read ZMQ_LAST_ENDPOINT")
        }
        return String(cString: buffer)
    }

    // MARK: Subscriptions (SUB)

    /// Receive messages whose first part starts with `prefix` ("" for everything).
    public func subscribe(_ prefix: String) throws {
        try setBytes(ZMQ_SUBSCRIBE, Array(prefix.utf8), name: "subscribe to \"\(prefix)\"")
    }

    public func unsubscribe(_ prefix: String) throws {
        try setBytes(ZMQ_UNSUBSCRIBE, Array(prefix.utf8), name: "unsubscribe from \"\(prefix)\"")
    }

    // MARK: Options

    /// Sets an integer option, e.g. `try socket.set(.sendHighWaterMark, 4)`.
    public func set(_ option: ZMQOption, _ value: Int) throws {
        let handle = try openHandle("set \(option)")
        let rc: Int32
        if option.is64Bit {
            var v = Int64(value)
            rc = zmq_setsockopt(handle, option.rawValue, &v, MemoryLayout<Int64>.size)
        } else {
            var v = Int32(clamping: value)
            rc = zmq_setsockopt(handle, option.rawValue, &v, MemoryLayout<Int32>.size)
        }
        guard rc == 0 else { throw TransportError.last("set \(option) to \(value)") }
    }

    /// Reads an integer option.
    public func get(_ option: ZMQOption) throws -> Int {
        let handle = try openHandle("read \(option)")
        if option.is64Bit {
            var v: Int64 = 0
            var size = MemoryLayout<Int64>.size
            guard zmq_getsockopt(handle, option.rawValue, &v, &size) == 0 else { throw TransportError.last("read \(option)") }
            return Int(v)
        }
        var v: Int32 = 0
        var size = MemoryLayout<Int32>.size
        guard zmq_getsockopt(handle, option.rawValue, &v, &size) == 0 else { throw TransportError.last("read \(option)") }
        return Int(v)
    }

    /// Sets both high-water marks (messages queued per peer).
    public func setHighWaterMarks(send: Int, receive: Int) throws {
        try set(.sendHighWaterMark, send)
        try set(.receiveHighWaterMark, receive)
    }

    /// The identity a ROUTER peer sees for this socket (ZMQ_ROUTING_ID); set before connecting.
    public func setRoutingID(_ id: [UInt8]) throws {
        try setBytes(ZMQ_ROUTING_ID, id, name: "set ZMQ_ROUTING_ID")
    }

    private func setInt32(_ option: Int32, _ value: Int32, name: String) throws {
        let handle = try openHandle(name)
        var v = value
        guard zmq_setsockopt(handle, option, &v, MemoryLayout<Int32>.size) == 0 else { throw TransportError.last(name) }
    }

    /// A text option (a Z85 key is 40 characters: libzmq reads it as text from its length).
    private func setText(_ option: Int32, _ text: String, name: String) throws {
        try setBytes(option, Array(text.utf8), name: name)
    }

    private func setBytes(_ option: Int32, _ bytes: [UInt8], name: String) throws {
        let handle = try openHandle(name)
        let rc = bytes.withUnsafeBytes { raw in
            zmq_setsockopt(handle, option, raw.baseAddress, raw.count)
        }
        guard rc == 0 else { throw TransportError.last(name) }
    }
}

import CZeroMQ
import PitchsideCore

/// Waits on several sockets at once (zmq_poll), e.g. a worker's frame SUB and its control socket.
///
/// ```swift
/// let poller = ZMQPoller()
/// poller.add(frames)
/// poller.add(control)
/// if try poller.poll(timeout: 0.5) > 0 {
///     if poller.isReadable(frames) { ... }
/// }
/// ```
public final class ZMQPoller {
    /// What to wait for on a socket.
    public struct Events: OptionSet, Sendable {
        public let rawValue: Int16
        public init(rawValue: Int16) { self.rawValue = rawValue }
        public static let readable = Events(rawValue: Int16(ZMQ_POLLIN))
        public static let writable = Events(rawValue: Int16(ZMQ_POLLOUT))
    }

    private var sockets: [ZMQSocket] = []
    private var items: [zmq_pollitem_t] = []

    public init() {}

    /// Adds a socket (kept alive by the poller).
    public func add(_ socket: ZMQSocket, events: Events = .readable) {
        sockets.append(socket)
        items.append(zmq_pollitem_t(socket: socket.handle, fd: 0, events: events.rawValue, revents: 0))
    }

    public func remove(_ socket: ZMQSocket) {
        guard let index = sockets.firstIndex(where: { $0 === socket }) else { return }
        sockets.remove(at: index)
        items.remove(at: index)
    }

    /// Waits up to `timeout` seconds (nil: forever) and returns how many sockets are ready.
    @discardableResult
    public func poll(timeout: Double?) throws -> Int {
        for index in items.indices {
            items[index].revents = 0
            items[index].socket = sockets[index].handle
        }
        guard !items.isEmpty else { return 0 }
        let deadline = timeout.map { WallClock.monotonicSeconds() + max(0, $0) }
        while true {
            var milliseconds = -1
            if let deadline {
                let remaining = deadline - WallClock.monotonicSeconds()
                milliseconds = remaining <= 0 ? 0 : Int((remaining * 1000).rounded(.up))
            }
            let rc = items.withUnsafeMutableBufferPointer { zmq_poll($0.baseAddress, Int32($0.count), milliseconds) }
            if rc >= 0 { return Int(rc) }
            if zmq_errno() == EINTR { continue }
            throw TransportError.last("poll \(items.count) sockets")
        }
    }

    /// The events seen on `socket` by the last `poll`.
    public func events(of socket: ZMQSocket) -> Events {
        guard let index = sockets.firstIndex(where: { $0 === socket }) else { return [] }
        return Events(rawValue: items[index].revents)
    }

    public func isReadable(_ socket: ZMQSocket) -> Bool { events(of: socket).contains(.readable) }
    public func isWritable(_ socket: ZMQSocket) -> Bool { events(of: socket).contains(.writable) }
}

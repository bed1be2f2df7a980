import CZeroMQ

/// The ZeroMQ socket patterns Pitchside uses.
public enum ZMQSocketType: Sendable, CustomStringConvertible {
    /// Frames and game events out (fan-out, drops at the high-water mark).
    case pub
    /// Frames and game events in, filtered by topic prefix.
    case sub
    /// A publisher that also sees its subscribers' subscriptions.
    case xpub
    /// Worker results out (load-balanced, blocks at the high-water mark).
    case push
    /// Worker results in (fair-queued).
    case pull
    /// The server side of credits and queries: every message starts with the peer's identity.
    case router
    /// The client side of credits and queries.
    case dealer

    var rawValue: Int32 {
        switch self {
        case .pub: return ZMQ_PUB
        case .sub: return ZMQ_SUB
        case .xpub: return ZMQ_XPUB
        case .push: return ZMQ_PUSH
        case .pull: return ZMQ_PULL
        case .router: return ZMQ_ROUTER
        case .dealer: return ZMQ_DEALER
        }
    }

    public var description: String {
        switch self {
        case .pub: return "PUB"
        case .sub: return "SUB"
        case .xpub: return "XPUB"
        case .push: return "PUSH"
        case .pull: return "PULL"
        case .router: return "ROUTER"
        case .dealer: return "DEALER"
        }
    }
}

/// Integer socket options (see zmq_setsockopt(3)). Sizes are bytes, times milliseconds.
public enum ZMQOption: Sendable, CustomStringConvertible {
    /// Messages queued for sending per peer before PUB drops / PUSH blocks (ZMQ_SNDHWM).
    case sendHighWaterMark
    /// Messages queued on receipt per peer (ZMQ_RCVHWM).
    case receiveHighWaterMark
    /// How long `close` waits to flush pending messages, -1 forever (ZMQ_LINGER).
    case linger
    /// Largest inbound message; a peer that sends a bigger one is disconnected (ZMQ_MAXMSGSIZE).
    case maxMessageSize
    /// Queue messages only to completed connections (ZMQ_IMMEDIATE).
    case immediate
    /// ROUTER: fail with EHOSTUNREACH instead of dropping a message to an unknown peer (ZMQ_ROUTER_MANDATORY).
    case routerMandatory
    /// ROUTER: a new peer with a known identity takes over the old one (ZMQ_ROUTER_HANDOVER).
    case routerHandover
    /// Kernel send buffer, 0 for the OS default (ZMQ_SNDBUF).
    case sendBuffer
    /// Kernel receive buffer, 0 for the OS default (ZMQ_RCVBUF).
    case receiveBuffer
    /// Blocking send timeout, -1 forever (ZMQ_SNDTIMEO).
    case sendTimeout
    /// Blocking receive timeout, -1 forever (ZMQ_RCVTIMEO).
    case receiveTimeout
    /// XPUB: pass every subscription to the application, not only new ones (ZMQ_XPUB_VERBOSE).
    case xpubVerbose
    /// Reconnect interval after a lost connection (ZMQ_RECONNECT_IVL).
    case reconnectInterval

    var rawValue: Int32 {
        switch self {
        case .sendHighWaterMark: return ZMQ_SNDHWM
        case .receiveHighWaterMark: return ZMQ_RCVHWM
        case .linger: return ZMQ_LINGER
        case .maxMessageSize: return ZMQ_MAXMSGSIZE
        case .immediate: return ZMQ_IMMEDIATE
        case .routerMandatory: return ZMQ_ROUTER_MANDATORY
        case .routerHandover: return ZMQ_ROUTER_HANDOVER
        case .sendBuffer: return ZMQ_SNDBUF
        case .receiveBuffer: return ZMQ_RCVBUF
        case .sendTimeout: return ZMQ_SNDTIMEO
        case .receiveTimeout: return ZMQ_RCVTIMEO
        case .xpubVerbose: return ZMQ_XPUB_VERBOSE
        case .reconnectInterval: return ZMQ_RECONNECT_IVL
        }
    }

    /// ZMQ_MAXMSGSIZE is the one 64-bit option; the others are C ints.
    var is64Bit: Bool {
        if case .maxMessageSize = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .sendHighWaterMark: return "ZMQ_SNDHWM"
        case .receiveHighWaterMark: return "ZMQ_RCVHWM"
        case .linger: return "ZMQ_LINGER"
        case .maxMessageSize: return "ZMQ_MAXMSGSIZE"
        case .immediate: return "ZMQ_IMMEDIATE"
        case .routerMandatory: return "ZMQ_ROUTER_MANDATORY"
        case .routerHandover: return "ZMQ_ROUTER_HANDOVER"
        case .sendBuffer: return "ZMQ_SNDBUF"
        case .receiveBuffer: return "ZMQ_RCVBUF"
        case .sendTimeout: return "ZMQ_SNDTIMEO"
        case .receiveTimeout: return "ZMQ_RCVTIMEO"
        case .xpubVerbose: return "ZMQ_XPUB_VERBOSE"
        case .reconnectInterval: return "ZMQ_RECONNECT_IVL"
        }
    }
}

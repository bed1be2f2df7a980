import Foundation

/// A frame's pixels with room before and after them, so the `pitchside.v1.Frame` message can be
/// written around the pixels in place: the pixels are never copied in user space on their way
/// to the socket (the transport hands `message` to libzmq with `zmq_msg_init_data`).
///
/// The bytes of `message` are exactly what swift-protobuf's `PSFrame.serializedData()` gives
/// for the same field values with `data` = the pixels (fields in number order, defaults
/// left out, unknown fields last), so every reader of the schema reads it.
///
/// ```swift
/// let buffer = pool.take(pixelCount: width * height)
/// fill(buffer.pixels)                      // e.g. the converter writes the rendition here
/// try buffer.encode(frameWithoutData)      // header, sizes… around the pixels
/// try publisher.send(topic: topic, frame: buffer)
/// ```
///
/// While libzmq holds a sent buffer (`isInFlight`) it must not be written; `FrameBufferPool`
/// hands out only buffers that are not in flight.
public final class FrameBuffer: @unchecked Sendable {
    /// Room for every field before the pixels (header, rendition, sizes, the pixel field's tag
    /// and length); stream, producer and rendition names are at most 128 bytes each.
    public static let headroom = 1024
    /// Room for the fields after the pixels (source size, frame rate, end of stream: ≤ 23
    /// bytes) and a few unknown fields a caller may carry along.
    public static let tailroom = 256

    public let pixelCount: Int
    private let storage: UnsafeMutableRawPointer
    private var messageStart = 0
    private var messageEnd = 0
    private let lock = NSLock()
    private var sendsInFlight = 0

    public init(pixelCount: Int) {
        precondition(pixelCount >= 0)
        self.pixelCount = pixelCount
        storage = UnsafeMutableRawPointer.allocate(byteCount: Self.headroom + pixelCount + Self.tailroom, alignment: 64)
    }

    deinit { storage.deallocate() }

    /// Where the pixels go (tightly packed planes, as `PSFrame.data` holds them).
    public var pixels: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: storage + Self.headroom, count: pixelCount)
    }

    /// The serialized message, valid after `encode`.
    public var message: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage + messageStart, count: messageEnd - messageStart)
    }

    /// Writes every field of `frame` but `data` around `pixels`, which become the `data` field.
    /// `frame.data` must be empty (its bytes would be ignored). Throws when the fields before
    /// or after the pixels do not fit their room.
    public func encode(_ frame: PSFrame) throws {
        precondition(frame.data.isEmpty, "the pixels come from the buffer, not from frame.data")
        precondition(!isInFlight, "a frame buffer cannot be rewritten while libzmq holds it")
        let header: [UInt8]? = frame.hasHeader ? try frame.header.serializedBytes() : nil
        let rendition = Array(frame.rendition.utf8)
        let format = UInt64(bitPattern: Int64(frame.format.rawValue))
        let unknown = frame.unknownFields.data

        var prefixSize = 0
        if let header { prefixSize += 1 + ProtobufWire.varintSize(UInt64(header.count)) + header.count }
        if !rendition.isEmpty { prefixSize += 1 + ProtobufWire.varintSize(UInt64(rendition.count)) + rendition.count }
        if format != 0 { prefixSize += 1 + ProtobufWire.varintSize(format) }
        for value in [frame.width, frame.height, frame.stride] where value != 0 {
            prefixSize += 1 + ProtobufWire.varintSize(UInt64(value))
        }
        if pixelCount > 0 { prefixSize += 1 + ProtobufWire.varintSize(UInt64(pixelCount)) }
        var suffixSize = unknown.count
        for value in [frame.sourceWidth, frame.sourceHeight] where value != 0 {
            suffixSize += 1 + ProtobufWire.varintSize(UInt64(value))
        }
        if frame.frameRate.bitPattern != 0 { suffixSize += 9 }
        if frame.endOfStream { suffixSize += 2 }
        guard prefixSize <= Self.headroom, suffixSize <= Self.tailroom else {
            throw FrameWireError.tooLarge(
                "the frame's fields take \(prefixSize) bytes before and \(suffixSize) after the pixels; room is \(Self.headroom) and \(Self.tailroom)")
        }

        messageStart = Self.headroom - prefixSize
        var w = ProtobufWriter(at: storage + messageStart)
        if let header {
            w.tag(1, .lengthDelimited)
            w.varint(UInt64(header.count))
            header.withUnsafeBytes { w.bytes($0) }
        }
        if !rendition.isEmpty {
            w.tag(2, .lengthDelimited)
            w.varint(UInt64(rendition.count))
            rendition.withUnsafeBytes { w.bytes($0) }
        }
        if format != 0 { w.tag(3, .varint); w.varint(format) }
        if frame.width != 0 { w.tag(4, .varint); w.varint(UInt64(frame.width)) }
        if frame.height != 0 { w.tag(5, .varint); w.varint(UInt64(frame.height)) }
        if frame.stride != 0 { w.tag(6, .varint); w.varint(UInt64(frame.stride)) }
        if pixelCount > 0 { w.tag(7, .lengthDelimited); w.varint(UInt64(pixelCount)) }
        assert(w.p == storage + Self.headroom)

        w = ProtobufWriter(at: storage + Self.headroom + pixelCount)
        if frame.sourceWidth != 0 { w.tag(8, .varint); w.varint(UInt64(frame.sourceWidth)) }
        if frame.sourceHeight != 0 { w.tag(9, .varint); w.varint(UInt64(frame.sourceHeight)) }
        if frame.frameRate.bitPattern != 0 { w.tag(10, .fixed64); w.fixed64(frame.frameRate.bitPattern) }
        if frame.endOfStream { w.tag(11, .varint); w.varint(1) }
        unknown.withUnsafeBytes { w.bytes($0) }
        messageEnd = Self.headroom + pixelCount + suffixSize
        assert(w.p == storage + messageEnd)
    }

    /// True while a sent message still points into this buffer.
    public var isInFlight: Bool {
        lock.lock(); defer { lock.unlock() }
        return sendsInFlight > 0
    }

    /// The transport calls this before handing `message` to libzmq...
    public func beginSend() {
        lock.lock(); sendsInFlight += 1; lock.unlock()
    }

    /// ...and this when libzmq lets go of it (from libzmq's I/O thread).
    public func endSend() {
        lock.lock(); sendsInFlight -= 1; lock.unlock()
    }
}

/// Reuses frame buffers once libzmq has let go of them, so that a steady stream of frames does
/// not allocate (and page-fault) megabytes per frame. One thread at a time.
public final class FrameBufferPool {
    private var buffers: [FrameBuffer] = []
    /// Buffers kept; beyond this, idle ones are let go.
    public let limit: Int

    public init(limit: Int = 32) { self.limit = limit }

    /// A buffer of `pixelCount` bytes that no sent message points into and nobody else holds.
    public func take(pixelCount: Int) -> FrameBuffer {
        for index in buffers.indices where buffers[index].pixelCount == pixelCount && isIdle(index) {
            let buffer = buffers.remove(at: index)
            buffers.append(buffer)  // most recently used last
            return buffer
        }
        let buffer = FrameBuffer(pixelCount: pixelCount)
        buffers.append(buffer)
        if buffers.count > limit, let idle = buffers.indices.first(where: { isIdle($0) }) {
            buffers.remove(at: idle)
        }
        return buffer
    }

    /// Not in flight (libzmq let go: the lock orders its reads before our writes) and held by
    /// the pool alone (the caller dropped it).
    private func isIdle(_ index: Int) -> Bool {
        !buffers[index].isInFlight && isKnownUniquelyReferenced(&buffers[index])
    }

    /// Buffers the pool holds (in flight or not).
    public var count: Int { buffers.count }
}

public enum FrameWireError: Error, CustomStringConvertible, Equatable {
    case tooLarge(String)

    public var description: String {
        switch self {
        case .tooLarge(let detail): return "frame fields too large: \(detail)"
        }
    }
}

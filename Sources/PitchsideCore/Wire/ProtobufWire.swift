import Foundation

/// The few pieces of the protobuf binary format that `FrameBuffer` and `FrameView` need:
/// tags, varints and fixed-width numbers (https://protobuf.dev/programming-guides/encoding/).
enum ProtobufWire {
    enum WireType: UInt8 {
        case varint = 0, fixed64 = 1, lengthDelimited = 2, startGroup = 3, endGroup = 4, fixed32 = 5
    }

    static func tag(_ field: Int, _ type: WireType) -> UInt64 { UInt64(field) << 3 | UInt64(type.rawValue) }

    static func varintSize(_ value: UInt64) -> Int {
        value == 0 ? 1 : (64 - value.leadingZeroBitCount + 6) / 7
    }

    /// Writes `value` at `p`, returns the bytes written.
    @inline(__always)
    static func writeVarint(_ value: UInt64, at p: UnsafeMutableRawPointer) -> Int {
        var v = value
        var n = 0
        while v >= 0x80 {
            p.storeBytes(of: UInt8(truncatingIfNeeded: v) | 0x80, toByteOffset: n, as: UInt8.self)
            v >>= 7
            n += 1
        }
        p.storeBytes(of: UInt8(v), toByteOffset: n, as: UInt8.self)
        return n + 1
    }
}

/// Appends protobuf fields to a byte buffer whose room was measured first.
struct ProtobufWriter {
    private(set) var p: UnsafeMutableRawPointer

    init(at start: UnsafeMutableRawPointer) { p = start }

    mutating func varint(_ value: UInt64) { p += ProtobufWire.writeVarint(value, at: p) }

    mutating func tag(_ field: Int, _ type: ProtobufWire.WireType) { varint(ProtobufWire.tag(field, type)) }

    mutating func bytes(_ raw: UnsafeRawBufferPointer) {
        if raw.count > 0 { p.copyMemory(from: raw.baseAddress!, byteCount: raw.count) }
        p += raw.count
    }

    mutating func fixed64(_ value: UInt64) {
        p.storeBytes(of: value.littleEndian, as: UInt64.self)  // storeBytes allows any alignment
        p += 8
    }
}

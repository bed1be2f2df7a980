import Foundation
import SwiftProtobuf

/// A `pitchside.v1.Frame` read from its wire bytes without copying the pixels: `data` is a
/// slice of the received payload (whose storage owns the `zmq_msg_t`, so the message stays
/// alive as long as the slice does).
///
/// It accepts exactly the inputs swift-protobuf's `PSFrame(serializedBytes:)` accepts, with the
/// same values and the same error (`BinaryDecodingError`) otherwise: the same tag and varint
/// rules, unknown fields (and known fields with another wire type) kept as raw bytes, the last
/// of a repeated scalar winning, repeated headers merged, rendition UTF-8 checked, unknown
/// groups skipped within the same depth limit. Only the pixels are treated differently: viewed,
/// not copied.
///
/// ```swift
/// let view = try FrameView(serializedBytes: payload)
/// view.data.withUnsafeBytes { pixels in ... }    // no copy
/// let frame = try view.videoFrame()              // one copy, into the analysers' ImageBuffer
/// ```
public struct FrameView: Sendable {
    public var header: PSHeader {
        get { _header ?? PSHeader() }
        set { _header = newValue }
    }
    public var hasHeader: Bool { _header != nil }
    public var rendition = ""
    public var format = PSPixelFormat.unspecified
    public var width: UInt32 = 0
    public var height: UInt32 = 0
    public var stride: UInt32 = 0
    /// The pixels: a slice of the payload (its indices are the payload's, not from 0).
    public var data = Data()
    public var sourceWidth: UInt32 = 0
    public var sourceHeight: UInt32 = 0
    public var frameRate: Double = 0
    public var endOfStream = false
    /// Fields this schema does not know, or known fields with another wire type, as raw bytes
    /// in arrival order (what swift-protobuf keeps in `unknownFields`).
    public var unknownFields = Data()

    private var _header: PSHeader?

    public init() {}

    /// Parses the protobuf encoding of a `Frame`.
    public init(serializedBytes payload: Data) throws {
        try payload.withUnsafeBytes { raw in
            var reader = Reader(raw)
            try reader.read(into: &self, payload: payload)
        }
    }

    /// The same frame as swift-protobuf's message (its `data` shares the payload's storage).
    public var message: PSFrame {
        get throws {
            var frame = unknownFields.isEmpty ? PSFrame() : try PSFrame(serializedBytes: unknownFields)
            if let _header { frame.header = _header }
            frame.rendition = rendition
            frame.format = format
            frame.width = width
            frame.height = height
            frame.stride = stride
            frame.data = data
            frame.sourceWidth = sourceWidth
            frame.sourceHeight = sourceHeight
            frame.frameRate = frameRate
            frame.endOfStream = endOfStream
            return frame
        }
    }

    /// The analysers' view of this frame (the pixels copied once); throws when the sizes do not add up.
    public func videoFrame() throws -> VideoFrame {
        try VideoFrame(header: header, format: format, width: width, height: height, stride: stride, data: data)
    }
}

/// The wire-format reader behind `FrameView`, following swift-protobuf's `BinaryDecoder` rule
/// for rule (SwiftProtobuf/BinaryDecoder.swift, 1.x).
private struct Reader {
    private let base: UnsafeRawPointer
    private let end: Int
    private var offset = 0
    /// Group nesting allowed below the top-level message (swift-protobuf: 100, one used by the message).
    private var depthBudget = BinaryDecodingOptions().messageDepthLimit - 1

    init(_ raw: UnsafeRawBufferPointer) {
        base = raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
        end = raw.count
    }

    private var available: Int { end - offset }

    private func byte(_ at: Int) -> UInt8 { base.load(fromByteOffset: at, as: UInt8.self) }

    mutating func read(into frame: inout FrameView, payload: Data) throws {
        var unknownRanges: [Range<Int>] = []
        while available > 0 {
            let fieldStart = offset
            let (field, wire) = try topLevelTag()
            var consumed = true
            switch (field, wire) {
            case (1, .lengthDelimited):
                let body = try lengthDelimitedBody()
                var header = frame.hasHeader ? frame.header : PSHeader()
                var options = BinaryDecodingOptions()
                options.messageDepthLimit = depthBudget
                let bytes = payload[(payload.startIndex + body.lowerBound)..<(payload.startIndex + body.upperBound)]
                try header.merge(serializedBytes: bytes, options: options)
                frame.header = header
            case (2, .lengthDelimited):
                let body = try lengthDelimitedBody()
                guard let text = Self.utf8String(base + body.lowerBound, count: body.count) else {
                    throw BinaryDecodingError.invalidUTF8
                }
                frame.rendition = text
            case (3, .varint):
                let value = try varint()
                if let format = PSPixelFormat(rawValue: Int(Int32(truncatingIfNeeded: value))) {
                    frame.format = format
                } else {
                    consumed = false
                }
            case (4, .varint): frame.width = UInt32(truncatingIfNeeded: try varint())
            case (5, .varint): frame.height = UInt32(truncatingIfNeeded: try varint())
            case (6, .varint): frame.stride = UInt32(truncatingIfNeeded: try varint())
            case (7, .lengthDelimited):
                let body = try lengthDelimitedBody()
                let start = payload.startIndex + body.lowerBound
                frame.data = body.isEmpty ? Data() : payload[start..<(start + body.count)]
            case (8, .varint): frame.sourceWidth = UInt32(truncatingIfNeeded: try varint())
            case (9, .varint): frame.sourceHeight = UInt32(truncatingIfNeeded: try varint())
            case (10, .fixed64):
                guard available >= 8 else { throw BinaryDecodingError.truncated }
                frame.frameRate = Double(bitPattern: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
                offset += 8
            case (11, .varint): frame.endOfStream = try varint() != 0
            default:
                consumed = false
            }
            if !consumed {
                // Not this schema's (or not in this wire type): skip it whole, keep its bytes.
                offset = fieldStart
                let tag = try tagInsideGroup()!
                try skip(field: tag.field, wire: tag.wire)
                unknownRanges.append(fieldStart..<offset)
            }
        }
        if !unknownRanges.isEmpty {
            var unknown = Data()
            for range in unknownRanges { unknown.append(base.assumingMemoryBound(to: UInt8.self) + range.lowerBound, count: range.count) }
            frame.unknownFields = unknown
        }
    }

    /// A tag at the top level, decoded as swift-protobuf's `nextFieldNumber` does: at most five
    /// bytes, the fifth at most 15; wire types 6 and 7, field 0 and a stray end-group are malformed.
    private mutating func topLevelTag() throws -> (Int, ProtobufWire.WireType) {
        let c0 = byte(offset)
        guard let wire = ProtobufWire.WireType(rawValue: c0 & 7) else { throw BinaryDecodingError.malformedProtobuf }
        var field = Int(c0 & 0x7f) >> 3
        var length = 1
        if c0 & 0x80 != 0 {
            var shift = 4
            while true {
                guard available > length else { throw BinaryDecodingError.malformedProtobuf }
                let c = byte(offset + length)
                if length == 4 {
                    guard c <= 15 else { throw BinaryDecodingError.malformedProtobuf }
                }
                field |= Int(c & 0x7f) << shift
                length += 1
                if c & 0x80 == 0 { break }
                shift += 7
            }
        }
        offset += length
        guard field != 0, wire != .endGroup else { throw BinaryDecodingError.malformedProtobuf }
        return (field, wire)
    }

    /// A tag read as a varint (swift-protobuf's `getTagWithoutUpdatingFieldStart`); nil at the end.
    private mutating func tagInsideGroup() throws -> (field: Int, wire: ProtobufWire.WireType)? {
        guard available >= 1 else { return nil }
        let t = try varint()
        guard t < UInt64(UInt32.max), t & ~0x07 != 0, let wire = ProtobufWire.WireType(rawValue: UInt8(t & 7)) else {
            throw BinaryDecodingError.malformedProtobuf
        }
        return (Int(t >> 3), wire)
    }

    /// swift-protobuf's `skipOver(tag:)`.
    private mutating func skip(field: Int, wire: ProtobufWire.WireType) throws {
        switch wire {
        case .varint:
            _ = try varint()
        case .fixed64:
            guard available >= 8 else { throw BinaryDecodingError.truncated }
            offset += 8
        case .fixed32:
            guard available >= 4 else { throw BinaryDecodingError.truncated }
            offset += 4
        case .lengthDelimited:
            let n = try varint()
            guard n <= UInt64(available) else { throw BinaryDecodingError.truncated }
            offset += Int(n)
        case .startGroup:
            depthBudget -= 1
            guard depthBudget >= 0 else { throw BinaryDecodingError.messageDepthLimit }
            while true {
                guard let inner = try tagInsideGroup() else { throw BinaryDecodingError.truncated }
                if inner.wire == .endGroup {
                    guard inner.field == field else { throw BinaryDecodingError.malformedProtobuf }
                    depthBudget += 1
                    break
                }
                try skip(field: inner.field, wire: inner.wire)
            }
        case .endGroup:
            throw BinaryDecodingError.truncated
        }
    }

    /// swift-protobuf's `decodeVarint`: empty input is truncated; a varint cut short or longer
    /// than ten bytes is malformed.
    private mutating func varint() throws -> UInt64 {
        guard available >= 1 else { throw BinaryDecodingError.truncated }
        var c = byte(offset)
        var at = offset + 1
        if c & 0x80 == 0 {
            offset = at
            return UInt64(c)
        }
        var value = UInt64(c & 0x7f)
        var shift: UInt64 = 7
        while true {
            guard at < end, shift <= 63 else { throw BinaryDecodingError.malformedProtobuf }
            c = byte(at)
            at += 1
            value |= UInt64(c & 0x7f) &<< shift
            if c & 0x80 == 0 {
                offset = at
                return value
            }
            shift &+= 7
        }
    }

    /// swift-protobuf's `getFieldBodyBytes`: at most 2 GB, within the input.
    private mutating func lengthDelimitedBody() throws -> Range<Int> {
        let length = try varint()
        guard length < 0x7fff_ffff else { throw BinaryDecodingError.malformedProtobuf }
        guard length <= UInt64(available) else { throw BinaryDecodingError.truncated }
        let body = offset..<(offset + Int(length))
        offset = body.upperBound
        return body
    }

    /// Valid UTF-8 as a String, else nil (the check swift-protobuf makes).
    private static func utf8String(_ p: UnsafeRawPointer, count: Int) -> String? {
        if count == 0 { return "" }
        let bytes = UnsafeRawBufferPointer(start: p, count: count)
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid: continue
            case .error: return nil
            case .emptyInput: return String(decoding: bytes, as: UTF8.self)
            }
        }
    }
}

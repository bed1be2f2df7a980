import Foundation
import XCTest
@testable import PitchsideCore

/// `FrameBuffer` (send side) and `FrameView` (receive side) against swift-protobuf, both ways:
/// the same bytes out, the same values (or the same error) in.
final class FrameWireTests: XCTestCase {
    // MARK: Writing

    func testEncodingAroundThePixelsGivesSwiftProtobufsBytes() throws {
        var generator = SplitMix(seed: 1)
        for index in 0..<400 {
            let frame = randomFrame(&generator, index: index)
            try assertEncodesLikeSwiftProtobuf(frame)
        }
    }

    func testEdgeValuesEncodeLikeSwiftProtobuf() throws {
        var frame = PSFrame()
        try assertEncodesLikeSwiftProtobuf(frame)                           // nothing set at all
        frame.header = PSHeader()                                           // an empty header is still written
        try assertEncodesLikeSwiftProtobuf(frame)
        frame.frameRate = -0.0                                              // bit pattern ≠ 0: written
        frame.format = PSPixelFormat(rawValue: -3)!                         // unknown enum value, negative
        frame.width = .max
        frame.sourceHeight = .max
        frame.header.ptsUs = .min
        frame.header.seq = .max
        frame.rendition = "grå-ünïcode"
        frame.endOfStream = true
        try assertEncodesLikeSwiftProtobuf(frame)
        frame.frameRate = .nan
        frame.data = Data(count: 200_000)                                   // a 3-byte length
        try assertEncodesLikeSwiftProtobuf(frame)
        // Unknown fields travel last, as swift-protobuf writes them.
        var bytes = try frame.serializedData()
        bytes += [0xA0, 0x06, 0x2A, 0xAD, 0x06, 1, 2, 3, 4]                 // field 100 varint, field 101 fixed32
        try assertEncodesLikeSwiftProtobuf(try PSFrame(serializedBytes: bytes))
    }

    func testFieldsThatDoNotFitTheirRoomAreAnError() {
        var frame = PSFrame()
        frame.header.producerID = String(repeating: "p", count: 2000)
        let buffer = FrameBuffer(pixelCount: 10)
        XCTAssertThrowsError(try buffer.encode(frame)) { error in
            XCTAssertTrue("\(error)".contains("room is 1024"), "\(error)")
        }
    }

    func testThePoolReusesOnlyBuffersNobodyHolds() {
        let pool = FrameBufferPool(limit: 4)
        var first: FrameBuffer? = pool.take(pixelCount: 100)
        let firstID = ObjectIdentifier(first!)
        let second = pool.take(pixelCount: 100)
        XCTAssertNotEqual(ObjectIdentifier(second), firstID, "still held by the caller")
        first!.beginSend()
        first = nil
        XCTAssertNotEqual(ObjectIdentifier(pool.take(pixelCount: 100)), firstID, "still in flight")
        XCTAssertEqual(pool.count, 3)
    }

    // MARK: Reading

    func testReadingValidFramesGivesSwiftProtobufsValuesWithoutCopyingThePixels() throws {
        var generator = SplitMix(seed: 2)
        for index in 0..<400 {
            var frame = randomFrame(&generator, index: index)
            frame.data = Data((0..<Int(generator.next() % 5000)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
            let payload = try frame.serializedData()
            let view = try FrameView(serializedBytes: payload)
            XCTAssertEqual(try view.message, try PSFrame(serializedBytes: payload))
            if !frame.data.isEmpty {
                let pixelsAt = view.data.withUnsafeBytes { $0.baseAddress! }
                let payloadRange = payload.withUnsafeBytes { $0.baseAddress!..<($0.baseAddress! + $0.count) }
                XCTAssertTrue(payloadRange.contains(pixelsAt), "the pixels are viewed in the payload, not copied")
            }
        }
    }

    func testOddButValidEncodingsReadLikeSwiftProtobuf() throws {
        let header = try PSHeader.with { $0.streamID = "a"; $0.seq = 5 }.serializedBytes() as [UInt8]
        let header2 = try PSHeader.with { $0.producerID = "b"; $0.seq = 9 }.serializedBytes() as [UInt8]
        let cases: [[UInt8]] = [
            [0x20, 0x05, 0x20, 0x07],                                   // width twice: the last wins
            [0x0A, UInt8(header.count)] + header + [0x0A, UInt8(header2.count)] + header2,  // headers merge
            [0x3A, 0x02, 1, 2, 0x3A, 0x01, 9],                          // data twice: the last wins
            [0x22, 0x01, 0x05],                                         // width as length-delimited: unknown
            [0x25, 1, 2, 3, 4, 0x20, 0x03],                              // width as fixed32: unknown, then width
            [0x23, 0x08, 0x01, 0x24, 0x20, 0x02],                       // width as a group holding a varint: unknown
            [0xA3, 0x06, 0xAB, 0x06, 0xAC, 0x06, 0xA4, 0x06],            // nested unknown groups 100 { 101 { } }
            [0x20, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01],  // ten-byte varint, truncated to 32 bits
            [0xA0, 0x80, 0x80, 0x80, 0x00, 0x01],                        // a five-byte tag (field 4 padded)
            [0x18, 0x63],                                               // format 99: unrecognized but kept
            [0x51, 0, 0, 0, 0, 0, 0, 0xF8, 0x7F],                        // frame rate NaN
            [0x58, 0x02],                                               // end of stream = 2: true
            [0x12, 0x00, 0x3A, 0x00],                                   // empty rendition and data
            [0xF8, 0xFF, 0xFF, 0xFF, 0x0F, 0x01],                        // the largest field number
        ]
        for bytes in cases {
            assertReadsLikeSwiftProtobuf(Data(bytes))
        }
    }

    func testMalformedFramesFailLikeSwiftProtobuf() {
        var deep: [UInt8] = []
        for _ in 0..<100 { deep += [0xA3, 0x06] }
        for _ in 0..<100 { deep += [0xA4, 0x06] }
        var justDeepEnough: [UInt8] = []
        for _ in 0..<99 { justDeepEnough += [0xA3, 0x06] }
        for _ in 0..<99 { justDeepEnough += [0xA4, 0x06] }
        let cases: [[UInt8]] = [
            [0x07], [0x06],                                             // wire types 7 and 6
            [0x00, 0x00],                                               // field 0
            [0x24],                                                     // a stray end-group
            [0x20],                                                     // a varint missing
            [0x20, 0x80],                                               // a varint cut short
            [0x20] + [UInt8](repeating: 0xFF, count: 10) + [0x01],        // an eleven-byte varint
            [0x3A, 0x05, 1, 2],                                         // data shorter than its length
            [0x3A, 0xFF, 0xFF, 0xFF, 0xFF, 0x07],                        // a 2 GB length
            [0x12, 0x02, 0xC3, 0x28],                                   // rendition not UTF-8
            [0x12, 0x03, 0xED, 0xA0, 0x80],                             // rendition a UTF-16 surrogate
            [0x51, 1, 2, 3],                                            // frame rate cut short
            [0x0A, 0x02, 0x10],                                         // header cut short inside
            [0x0A, 0x02, 0x0A, 0x05],                                   // header's stream id longer than the header
            [0xA3, 0x06, 0xAC, 0x06],                                   // a group closed by another field's end
            [0xA3, 0x06, 0x08, 0x01],                                   // a group never closed
            [0xA5, 0x06, 1, 2],                                         // unknown fixed32 cut short
            [0xA1, 0x06, 1, 2, 3],                                      // unknown fixed64 cut short
            [0xA2, 0x06, 0x09, 1],                                      // unknown bytes cut short
            [0xA2, 0x06, 0xFF, 0xFF, 0xFF, 0xFF, 0x0F],                  // unknown bytes, 4 GB
            [0x80, 0x80, 0x80, 0x80, 0x10],                              // a five-byte tag over 32 bits
            [0x80, 0x80, 0x80],                                         // a tag cut short
            [0xA3, 0x06, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01],            // a tag inside a group too long
            [0xA3, 0x06, 0x00],                                         // field 0 inside a group
            deep,                                                       // groups nested past the depth limit
            justDeepEnough,                                             // ... and just within it
        ]
        for bytes in cases {
            assertReadsLikeSwiftProtobuf(Data(bytes))
        }
    }

    func testRandomlyDamagedFramesReadLikeSwiftProtobuf() throws {
        var generator = SplitMix(seed: 3)
        var accepted = 0, rejected = 0
        for index in 0..<3000 {
            var frame = randomFrame(&generator, index: index)
            frame.data = Data((0..<Int(generator.next() % 64)).map { UInt8(truncatingIfNeeded: $0) })
            var bytes = [UInt8](try frame.serializedData())
            for _ in 0...(generator.next() % 3) {
                let at = bytes.isEmpty ? 0 : Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 4 {
                case 0 where !bytes.isEmpty: bytes[at] = UInt8(truncatingIfNeeded: generator.next())
                case 1 where !bytes.isEmpty: bytes.removeSubrange(at...)
                case 2: bytes.insert(UInt8(truncatingIfNeeded: generator.next()), at: at)
                default: if !bytes.isEmpty { bytes[at...].reverse() }
                }
            }
            if assertReadsLikeSwiftProtobuf(Data(bytes)) { accepted += 1 } else { rejected += 1 }
        }
        XCTAssertGreaterThan(accepted, 200, "the damage should leave some frames readable")
        XCTAssertGreaterThan(rejected, 200, "and make others unreadable")
    }

    func testAViewReadsFromADataSliceWithItsOwnIndices() throws {
        var frame = PSFrame()
        frame.width = 2
        frame.data = Data([7, 8, 9])
        let payload = Data([0xEE, 0xEE]) + (try frame.serializedData())
        let slice = payload[2...]
        let view = try FrameView(serializedBytes: slice)
        XCTAssertEqual(Array(view.data), [7, 8, 9])
        XCTAssertEqual(view.width, 2)
    }

    // MARK: Helpers

    private func assertEncodesLikeSwiftProtobuf(_ frame: PSFrame, file: StaticString = #filePath, line: UInt = #line) throws {
        var withoutData = frame
        withoutData.data = Data()
        let buffer = FrameBuffer(pixelCount: frame.data.count)
        if !frame.data.isEmpty {
            frame.data.withUnsafeBytes { buffer.pixels.copyMemory(from: $0) }
        }
        try buffer.encode(withoutData)
        XCTAssertEqual(Data(buffer.message), try frame.serializedData(), file: file, line: line)
    }

    /// True when both accepted (with equal values), false when both rejected (with the same error).
    @discardableResult
    private func assertReadsLikeSwiftProtobuf(_ bytes: Data, file: StaticString = #filePath, line: UInt = #line) -> Bool {
        let theirs = Result { try PSFrame(serializedBytes: bytes) }
        let ours = Result { try FrameView(serializedBytes: bytes).message }
        switch (theirs, ours) {
        case (.success(let a), .success(let b)):
            // Compared as bytes: a NaN frame rate is not equal to itself.
            XCTAssertEqual(try a.serializedData(), try b.serializedData(), "\(Array(bytes))", file: file, line: line)
            return true
        case (.failure(let a), .failure(let b)):
            XCTAssertEqual("\(a)", "\(b)", "\(Array(bytes))", file: file, line: line)
            return false
        case (.success, .failure(let error)):
            XCTFail("swift-protobuf reads \(Array(bytes)), FrameView throws \(error)", file: file, line: line)
        case (.failure(let error), .success):
            XCTFail("swift-protobuf throws \(error) for \(Array(bytes)), FrameView reads it", file: file, line: line)
        }
        return false
    }

    private func randomFrame(_ g: inout SplitMix, index: Int) -> PSFrame {
        func maybe(_ p: UInt64 = 2) -> Bool { g.next() % p == 0 }
        func number() -> UInt64 {
            switch g.next() % 4 {
            case 0: return 0
            case 1: return g.next() % 128
            case 2: return g.next() % 70_000
            default: return g.next()
            }
        }
        var frame = PSFrame()
        if !maybe(4) {
            frame.header.streamID = maybe() ? "cam\(index)" : ""
            frame.header.seq = number()
            frame.header.ptsUs = Int64(bitPattern: number())
            frame.header.producerID = maybe() ? "capture-\(g.next() % 10)" : ""
            frame.header.captureUnixUs = Int64(bitPattern: number())
            frame.header.frameWidth = UInt32(truncatingIfNeeded: number())
        }
        frame.rendition = maybe() ? ["gray", "rgb", "rgb-small", "ø"][Int(g.next() % 4)] : ""
        frame.format = PSPixelFormat(rawValue: Int(g.next() % 6))!
        frame.width = UInt32(truncatingIfNeeded: number())
        frame.height = UInt32(truncatingIfNeeded: number())
        frame.stride = UInt32(truncatingIfNeeded: number())
        frame.sourceWidth = UInt32(truncatingIfNeeded: number())
        frame.sourceHeight = UInt32(truncatingIfNeeded: number())
        frame.frameRate = maybe() ? 0 : Double(g.next() % 12_000) / 100
        frame.endOfStream = maybe(5)
        if maybe(3) { frame.data = Data((0..<Int(g.next() % 300)).map { UInt8(truncatingIfNeeded: $0) }) }
        return frame
    }
}

/// A small deterministic generator (SplitMix64), so failures repeat.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

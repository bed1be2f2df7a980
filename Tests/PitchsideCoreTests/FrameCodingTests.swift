import Foundation
import XCTest
@testable import PitchsideCore

final class FrameCodingTests: XCTestCase {
    func testRoundTripThroughTheWire() throws {
        var image = ImageBuffer(width: 4, height: 3, layout: .rgb24)
        for i in image.pixels.indices { image.pixels[i] = UInt8(i % 251) }
        let frame = VideoFrame(streamID: "s", seq: 7, ptsUs: 233_333, captureUnixUs: 42, image: image)
        let wire = PSFrame(frame, rendition: "rgb", producerID: "test", sourceWidth: 8, sourceHeight: 6, frameRate: 30)
        let decoded = try PSFrame(serializedBytes: try wire.serializedData()).videoFrame()
        XCTAssertEqual(decoded.seq, 7)
        XCTAssertEqual(decoded.ptsUs, 233_333)
        XCTAssertEqual(decoded.image, image)
    }

    func testSizesThatDoNotAddUpAreRejected() {
        var wire = PSFrame()
        wire.format = .gray8
        wire.width = 100
        wire.height = 100
        wire.stride = 100
        wire.data = Data(count: 9_999)
        XCTAssertThrowsError(try wire.videoFrame()) { error in
            XCTAssertTrue("\(error)".contains("needs 10000 bytes, got 9999"), "\(error)")
        }
        wire.format = .unspecified
        XCTAssertThrowsError(try wire.videoFrame())
    }

    /// YUV420P: three planes back to back, chroma at half size; through the wire whole, and
    /// refused when the bytes or the size do not add up.
    func testYUV420PFramesTravelWholeAndBadOnesAreRejected() throws {
        var image = ImageBuffer(width: 6, height: 4, layout: .yuv420p)
        XCTAssertEqual(image.pixels.count, 6 * 4 + 2 * 3 * 2)
        XCTAssertEqual(image.pixels[6 * 4], 128, "black has neutral chroma")
        let planes = image.chromaPlanes
        XCTAssertEqual([planes.u, planes.v, planes.stride], [24, 30, 3])
        for i in image.pixels.indices { image.pixels[i] = UInt8(i % 251) }
        let frame = VideoFrame(streamID: "s", seq: 1, ptsUs: 10, captureUnixUs: 0, image: image)
        let wire = PSFrame(frame, rendition: "yuv", producerID: "test", sourceWidth: 6, sourceHeight: 4, frameRate: 30)
        XCTAssertEqual(wire.format, .yuv420P)
        XCTAssertEqual(try PSFrame(serializedBytes: try wire.serializedData()).videoFrame().image, image)

        var short = wire
        short.data = wire.data.prefix(6 * 4)      // the luma plane alone
        XCTAssertThrowsError(try short.videoFrame()) { error in
            XCTAssertTrue("\(error)".contains("needs 36 bytes, got 24"), "\(error)")
        }
        var odd = wire
        odd.width = 5
        odd.stride = 5
        odd.data = Data(count: PixelLayout.yuv420p.byteCount(stride: 5, height: 4))
        XCTAssertThrowsError(try odd.videoFrame()) { error in
            XCTAssertTrue("\(error)".contains("even"), "\(error)")
        }
    }
}

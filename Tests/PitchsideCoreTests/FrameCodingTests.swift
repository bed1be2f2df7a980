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
}

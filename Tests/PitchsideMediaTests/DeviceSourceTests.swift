import Foundation
import PitchsideCore
@testable import PitchsideMedia
import XCTest

/// Inputs through libavdevice: lavfi's virtual sources run here; a camera path that does
/// not exist is one clear error.
final class DeviceSourceTests: XCTestCase {
    func testTheLavfiVirtualDeviceDeliversTimedPictures() throws {
        var options = VideoSourceOptions()
        options.inputFormat = "lavfi"
        let source = try VideoSource(url: "testsrc2=size=320x240:rate=25:duration=1", options: options)
        XCTAssertEqual(source.info.containerName, "lavfi")
        XCTAssertEqual(source.info.width, 320)
        XCTAssertEqual(source.info.height, 240)
        XCTAssertEqual(source.info.framesPerSecond, 25, accuracy: 0.001)
        var stamps: [Int64] = []
        while let picture = try source.nextPicture() {
            XCTAssertEqual(picture.width, 320)
            XCTAssertEqual(picture.height, 240)
            stamps.append(picture.ptsUs)
        }
        XCTAssertEqual(stamps, (0..<25).map { Int64($0) * 40_000 })
    }

    func testPixelsFromTheLavfiDeviceAreWhatItDraws() throws {
        var options = VideoSourceOptions()
        options.inputFormat = "lavfi"
        let source = try VideoSource(url: "color=c=0x808080:size=64x48:rate=10:duration=0.3", options: options)
        let converter = RenditionConverter(renditions: [.grayFull])
        var count = 0
        while let picture = try source.nextPicture() {
            let image = try converter.image(from: picture, rendition: .grayFull)
            XCTAssertEqual(image.width, 64)
            XCTAssertEqual(Double(image.pixels.min()!), 128, accuracy: 2)
            XCTAssertEqual(Double(image.pixels.max()!), 128, accuracy: 2)
            count += 1
        }
        XCTAssertEqual(count, 3)
    }

    func testAMissingCameraIsOneClearError() {
        // /dev/videoN implies v4l2; the device does not exist on this machine.
        XCTAssertThrowsError(try VideoSource(url: "/dev/video99")) { error in
            XCTAssertEqual(error as? MediaError, .noSuchDevice("/dev/video99", format: "v4l2"))
            XCTAssertEqual("\(error)", "no such v4l2 device: /dev/video99 (is the camera connected?)")
        }
        var options = VideoSourceOptions()
        options.inputFormat = "v4l2"
        XCTAssertThrowsError(try VideoSource(url: "/dev/video98", options: options)) { error in
            XCTAssertEqual(error as? MediaError, .noSuchDevice("/dev/video98", format: "v4l2"))
        }
    }

    func testABadLavfiGraphOrUnknownFormatIsOneClearError() {
        var options = VideoSourceOptions()
        options.inputFormat = "lavfi"
        XCTAssertThrowsError(try VideoSource(url: "no_such_filter=1", options: options)) { error in
            guard case .notAVideo(let url, _)? = error as? MediaError else { return XCTFail("\(error)") }
            XCTAssertEqual(url, "no_such_filter=1")
        }
        options.inputFormat = "no-such-format"
        XCTAssertThrowsError(try VideoSource(url: "x", options: options)) { error in
            XCTAssertTrue("\(error)".contains("no input format named no-such-format"), "\(error)")
        }
    }
}

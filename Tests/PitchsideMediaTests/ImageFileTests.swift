import Foundation
import PitchsideCore
import PitchsideMedia
import XCTest

final class ImageFileTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestClips.makeDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func testPNGRoundTripIsLossless() throws {
        let rgb = TestClips.picture(index: 3, width: 97, height: 61)  // odd sizes on purpose
        let path = directory.appendingPathComponent("rgb.png").path
        try ImageFile.writePNG(rgb, to: path)
        XCTAssertEqual(try ImageFile.read(path), rgb)

        let gray = ImageMetrics.luma(rgb)
        let grayPath = directory.appendingPathComponent("gray.png").path
        try ImageFile.writePNG(gray, to: grayPath)
        XCTAssertEqual(try ImageFile.read(grayPath, layout: .gray8), gray)
        let grayAsRGB = try ImageFile.read(grayPath)
        XCTAssertEqual(grayAsRGB.layout, .rgb24)
        XCTAssertTrue(grayAsRGB.rgb(x: 5, y: 7) == gray.rgb(x: 5, y: 7))
    }

    func testPNGWithPaddedRowsWritesOnlyThePicture() throws {
        var pixels = [UInt8](repeating: 0, count: 10 * 4)
        for y in 0..<4 { for x in 0..<8 { pixels[y * 10 + x] = UInt8(x * 30 + y) } }
        let image = try ImageBuffer(width: 8, height: 4, layout: .gray8, stride: 10, pixels: pixels)
        let path = directory.appendingPathComponent("padded.png").path
        try ImageFile.writePNG(image, to: path)
        let back = try ImageFile.read(path, layout: .gray8)
        XCTAssertEqual(back.stride, 8)
        for y in 0..<4 { for x in 0..<8 { XCTAssertEqual(back[x, y], image[x, y]) } }
    }

    func testJPEGReadsBackClose() throws {
        let rgb = TestClips.picture(index: 0, width: 160, height: 120)
        let path = directory.appendingPathComponent("photo.jpg").path
        try ImageFile.writeJPEG(rgb, to: path, quality: 2)
        let back = try ImageFile.read(path)
        XCTAssertEqual([back.width, back.height], [160, 120])
        XCTAssertLessThan(ImageMetrics.meanAbsoluteError(back, rgb), 3.0)
    }

    func testAnImageIsAOneFrameVideo() throws {
        let path = directory.appendingPathComponent("still.png").path
        try ImageFile.writePNG(TestClips.picture(index: 0, width: 64, height: 48), to: path)
        let source = try VideoSource(url: path)
        XCTAssertEqual(source.info.width, 64)
        let picture = try XCTUnwrap(try source.nextPicture())
        XCTAssertEqual(picture.ptsUs, 0)
        XCTAssertNil(try source.nextPicture())
    }
}

import Foundation
import PitchsideCore
@testable import PitchsideMedia
import XCTest

final class RenditionTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestClips.makeDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func testTargetSizesKeepAspectAndNeverEnlarge() {
        let rgb640 = Rendition(name: "rgb", layout: .rgb24, maxWidth: 640)
        XCTAssertTrue(rgb640.targetSize(sourceWidth: 1920, sourceHeight: 1080) == (640, 360))
        XCTAssertTrue(rgb640.targetSize(sourceWidth: 1280, sourceHeight: 720) == (640, 360))
        XCTAssertTrue(rgb640.targetSize(sourceWidth: 320, sourceHeight: 240) == (320, 240))
        let boxed = Rendition(name: "box", layout: .gray8, maxWidth: 400, maxHeight: 100)
        XCTAssertTrue(boxed.targetSize(sourceWidth: 800, sourceHeight: 400) == (200, 100))
        XCTAssertTrue(Rendition.grayFull.targetSize(sourceWidth: 1920, sourceHeight: 1080) == (1920, 1080))
    }

    func testRenditionsMatchWhatWasEncoded() throws {
        let path = try TestClips.encode(to: directory.appendingPathComponent("clip.mp4"), frames: 30)
        let source = try VideoSource(url: path)
        let gray = Rendition.grayFull
        let small = Rendition(name: "small", layout: .rgb24, maxWidth: 160)
        let full = Rendition(name: "rgb", layout: .rgb24)
        let converter = RenditionConverter(renditions: [gray, small, full])
        var worstRGB = 0.0, worstGray = 0.0
        while let picture = try source.nextPicture() {
            let frames = try converter.frames(from: picture, streamID: "cam", seq: UInt64(picture.index))
            XCTAssertEqual(Set(frames.keys), ["gray", "small", "rgb"])
            let grayImage = try XCTUnwrap(frames["gray"]).image
            let smallImage = try XCTUnwrap(frames["small"]).image
            let rgbImage = try XCTUnwrap(frames["rgb"]).image
            XCTAssertEqual(frames["gray"]?.ptsUs, picture.ptsUs)
            XCTAssertEqual(frames["gray"]?.seq, UInt64(picture.index))
            XCTAssertEqual(frames["gray"]?.streamID, "cam")
            XCTAssertEqual([grayImage.width, grayImage.height, grayImage.stride], [320, 240, 320])
            XCTAssertEqual(grayImage.layout, .gray8)
            XCTAssertEqual([smallImage.width, smallImage.height, smallImage.stride], [160, 120, 480])
            XCTAssertEqual(smallImage.layout, .rgb24)
            XCTAssertEqual(grayImage.pixels.count, 320 * 240)

            let original = TestClips.picture(index: picture.index, width: 320, height: 240)
            worstRGB = max(worstRGB, ImageMetrics.meanAbsoluteError(rgbImage, original))
            worstGray = max(worstGray, ImageMetrics.meanAbsoluteError(grayImage, ImageMetrics.luma(original)))

            // The moving square is where it was drawn, in both sizes.
            let side = 24
            let origin = TestClips.squareOrigin(index: picture.index, width: 320, height: 240, side: side)
            let centre = (x: Double(origin.x) + Double(side - 1) / 2, y: Double(origin.y) + Double(side - 1) / 2)
            let found = try XCTUnwrap(ImageMetrics.brightCentroid(grayImage, threshold: 200))
            XCTAssertEqual(found.x, centre.x, accuracy: 1.0)
            XCTAssertEqual(found.y, centre.y, accuracy: 1.0)
            let smallGray = ImageMetrics.luma(smallImage)
            let foundSmall = try XCTUnwrap(ImageMetrics.brightCentroid(smallGray, threshold: 200))
            XCTAssertEqual(foundSmall.x * 2 + 0.5, centre.x, accuracy: 1.5)
            XCTAssertEqual(foundSmall.y * 2 + 0.5, centre.y, accuracy: 1.5)
        }
        XCTAssertLessThan(worstRGB, 3.0)
        XCTAssertLessThan(worstGray, 2.0)
        print("mean abs error: rgb \(worstRGB), gray \(worstGray)")
    }

    /// The capture node converts straight into a frame buffer; the bytes are the same as the image path's.
    func testWritingIntoABufferGivesTheSameBytesAsTheImage() throws {
        let path = try TestClips.encode(to: directory.appendingPathComponent("clip.mp4"), frames: 3)
        let source = try VideoSource(url: path)
        let renditions = [Rendition.grayFull, Rendition(name: "rgb", layout: .rgb24, maxWidth: 160),
                          Rendition(name: "rgb-odd", layout: .rgb24, maxWidth: 100)]
        let imaging = RenditionConverter(renditions: renditions)
        let writing = RenditionConverter(renditions: renditions)
        while let picture = try source.nextPicture() {
            for rendition in renditions {
                let image = try imaging.image(from: picture, rendition: rendition)
                let size = writing.size(of: rendition, for: picture)
                XCTAssertEqual(size.width, image.width)
                XCTAssertEqual(size.height, image.height)
                let buffer = FrameBuffer(pixelCount: image.pixels.count)
                try writing.write(picture, rendition: rendition, into: buffer.pixels)
                XCTAssertEqual(Array(buffer.pixels), image.pixels, rendition.name)
            }
        }
    }

    /// The full-size YUV420P rendition is the decoder's planes copied: its Y equals the
    /// limited-range luma, U and V agree with libswscale's conversion of a half-size RGB
    /// rendition, and a scaled YUV420P rendition (libswscale) has even sizes and the same layout.
    func testYUV420PRenditionIsTheDecodersPlanes() throws {
        let path = try TestClips.encode(to: directory.appendingPathComponent("clip.mp4"), frames: 3)
        let source = try VideoSource(url: path)
        let scaled = Rendition(name: "yuv-small", layout: .yuv420p, maxWidth: 101)
        let converter = RenditionConverter(renditions: [.yuvFull, scaled, .grayFull])
        let writing = RenditionConverter(renditions: [.yuvFull, scaled])
        while let picture = try source.nextPicture() {
            let yuv = try converter.image(from: picture, rendition: .yuvFull)
            XCTAssertEqual([yuv.width, yuv.height, yuv.stride], [320, 240, 320])
            XCTAssertEqual(yuv.layout, .yuv420p)
            XCTAssertEqual(yuv.pixels.count, 320 * 240 * 3 / 2)
            // Y as decoded: limited range, so the full-range GRAY8 is it expanded by 255 / 219.
            let gray = try converter.image(from: picture, rendition: .grayFull)
            var worst = 0.0
            for i in stride(from: 0, to: 320 * 240, by: 7) {
                let expanded = (Double(yuv.pixels[i]) - 16) * 255 / 219
                worst = max(worst, abs(expanded - Double(gray.pixels[i])))
            }
            XCTAssertLessThanOrEqual(worst, 1.5)
            // The chroma planes carry the clip's colour: not flat.
            let u = yuv.pixels[yuv.chromaPlanes.u..<yuv.chromaPlanes.v]
            XCTAssertGreaterThan(Int(u.max()!) - Int(u.min()!), 20)

            let small = try converter.image(from: picture, rendition: scaled)
            XCTAssertEqual([small.width, small.height], [100, 76], "rounded down to even sizes")
            XCTAssertEqual(small.pixels.count, PixelLayout.yuv420p.byteCount(stride: 100, height: 76))
            for rendition in [Rendition.yuvFull, scaled] {
                let image = try converter.image(from: picture, rendition: rendition)
                let buffer = FrameBuffer(pixelCount: image.pixels.count)
                try writing.write(picture, rendition: rendition, into: buffer.pixels)
                XCTAssertEqual(Array(buffer.pixels), image.pixels, rendition.name)
            }
        }
        XCTAssertThrowsError(try ImageFile.pngData(ImageBuffer(width: 4, height: 4, layout: .yuv420p)))
    }

    func testDirectLumaCopyMatchesLibswscale() throws {
        let path = try TestClips.encode(to: directory.appendingPathComponent("clip.mp4"), frames: 5)
        let source = try VideoSource(url: path)
        let direct = RenditionConverter(renditions: [.grayFull])
        let scaled = RenditionConverter(renditions: [.grayFull])
        scaled.allowsDirectLumaCopy = false
        while let picture = try source.nextPicture() {
            XCTAssertEqual(picture.pixelFormatName, "yuv420p")
            let a = try direct.image(from: picture, rendition: .grayFull)
            let b = try scaled.image(from: picture, rendition: .grayFull)
            XCTAssertLessThanOrEqual(ImageMetrics.maxAbsoluteError(a, b), 1)
        }
    }

    func testWholeFactorBoxShrinkAgreesWithLibswscaleArea() throws {
        let path = try TestClips.encode(to: directory.appendingPathComponent("clip.mp4"), width: 384, height: 288, frames: 4)
        let source = try VideoSource(url: path)
        let third = Rendition(name: "third", layout: .rgb24, maxWidth: 128)  // exactly 1/3
        let half = Rendition(name: "half", layout: .gray8, maxWidth: 192)    // exactly 1/2, gray
        let box = RenditionConverter(renditions: [third, half])
        let reference = RenditionConverter(renditions: [third, half])
        reference.allowsBoxShrink = false
        while let picture = try source.nextPicture() {
            for rendition in [third, half] {
                let a = try box.image(from: picture, rendition: rendition)
                let b = try reference.image(from: picture, rendition: rendition)
                XCTAssertEqual([a.width, a.height], [b.width, b.height])
                XCTAssertLessThan(ImageMetrics.meanAbsoluteError(a, b), 2.0, "\(rendition)")
            }
            // And against the picture that was encoded, shrunk by averaging.
            let small = try box.image(from: picture, rendition: third)
            let original = TestClips.picture(index: picture.index, width: 384, height: 288)
            var expected = ImageBuffer(width: 128, height: 96, layout: .rgb24)
            for y in 0..<96 {
                for x in 0..<128 {
                    for c in 0..<3 {
                        var sum = 0
                        for dy in 0..<3 { for dx in 0..<3 { sum += Int(original.pixels[(y * 3 + dy) * original.stride + (x * 3 + dx) * 3 + c]) } }
                        expected.pixels[y * expected.stride + x * 3 + c] = UInt8((sum + 4) / 9)
                    }
                }
            }
            XCTAssertLessThan(ImageMetrics.meanAbsoluteError(small, expected), 3.0)
        }
    }
}

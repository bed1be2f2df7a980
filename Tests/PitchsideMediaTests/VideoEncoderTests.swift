import Foundation
import PitchsideCore
import PitchsideMedia
import XCTest

final class VideoEncoderTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestClips.makeDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func testWritesH264InTheContainerNamedByTheExtension() throws {
        for (name, container) in [("clip.mp4", "mov"), ("clip.mkv", "matroska"), ("clip.ts", "mpegts"), ("clip.h264", "h264")] {
            let path = try TestClips.encode(to: directory.appendingPathComponent(name), frames: 10)
            let source = try VideoSource(url: path)
            XCTAssertEqual(source.info.codecName, "h264", name)
            XCTAssertTrue(source.info.containerName.hasPrefix(container), "\(name): \(source.info.containerName)")
            var count = 0
            while let picture = try source.nextPicture() {
                XCTAssertEqual(picture.pixelFormatName, "yuv420p")
                count += 1
            }
            XCTAssertEqual(count, 10, name)
        }
    }

    func testEncodesGrayImages() throws {
        let path = directory.appendingPathComponent("gray.mp4").path
        let encoder = try VideoEncoder(path: path, width: 160, height: 120, framesPerSecond: 25, threads: 1)
        var originals: [ImageBuffer] = []
        for i in 0..<8 {
            var image = ImageBuffer(width: 160, height: 120, layout: .gray8)
            for y in 0..<120 { for x in 0..<160 { image[x, y] = UInt8(20 + (x + y + i * 5) % 200) } }
            originals.append(image)
            try encoder.append(image)
        }
        try encoder.finish()
        XCTAssertEqual(encoder.framesWritten, 8)
        XCTAssertNoThrow(try encoder.finish(), "finish twice is harmless")
        XCTAssertThrowsError(try encoder.append(originals[0]))

        let source = try VideoSource(url: path)
        XCTAssertEqual(source.info.framesPerSecond, 25, accuracy: 0.01)
        let converter = RenditionConverter(renditions: [.grayFull])
        var index = 0
        while let picture = try source.nextPicture() {
            XCTAssertEqual(picture.ptsUs, Int64(index) * 40_000)
            let image = try converter.image(from: picture, rendition: .grayFull)
            XCTAssertLessThan(ImageMetrics.meanAbsoluteError(image, originals[index]), 2.0)
            index += 1
        }
        XCTAssertEqual(index, 8)
    }

    func testRejectsOddSizeAndWrongImage() throws {
        XCTAssertThrowsError(try VideoEncoder(path: directory.appendingPathComponent("odd.mp4").path,
                                              width: 321, height: 240, framesPerSecond: 30)) { error in
            XCTAssertEqual("\(error)", "bad image: H.264 yuv420p needs an even, positive size, not 321×240")
        }
        let encoder = try VideoEncoder(path: directory.appendingPathComponent("a.mp4").path,
                                       width: 320, height: 240, framesPerSecond: 30)
        XCTAssertThrowsError(try encoder.append(ImageBuffer(width: 64, height: 64, layout: .gray8))) { error in
            XCTAssertEqual((error as? MediaError)?.description, "bad image: image is 64×64, the video is 320×240")
        }
        try encoder.append(ImageBuffer(width: 320, height: 240, layout: .gray8))
        try encoder.finish()
    }

    func testUnwritablePathAndBadPresetAreClearErrors() {
        XCTAssertThrowsError(try VideoEncoder(path: "/nonexistent-dir/x.mp4", width: 64, height: 64, framesPerSecond: 30)) {
            XCTAssertTrue("\($0)".hasPrefix("cannot write /nonexistent-dir/x.mp4: No such file or directory"), "\($0)")
        }
        XCTAssertThrowsError(try VideoEncoder(path: directory.appendingPathComponent("p.mp4").path, width: 64, height: 64,
                                              framesPerSecond: 30, preset: "warp-speed")) {
            XCTAssertTrue("\($0)".contains("libx264 refused the settings"), "\($0)")
        }
    }
}

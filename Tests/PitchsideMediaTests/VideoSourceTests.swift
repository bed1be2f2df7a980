import Foundation
import PitchsideCore
@testable import PitchsideMedia
import XCTest

final class VideoSourceTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestClips.makeDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func testDecodesEveryFrameWithExactTimestamps() throws {
        let path = try TestClips.encode(to: directory.appendingPathComponent("clip.mp4"), frames: 45, fps: 30)
        let source = try VideoSource(url: path)
        XCTAssertEqual(source.info.width, 320)
        XCTAssertEqual(source.info.height, 240)
        XCTAssertEqual(source.info.framesPerSecond, 30, accuracy: 0.001)
        XCTAssertEqual(source.info.estimatedFrameCount, 45)
        XCTAssertEqual(source.info.codecName, "h264")
        XCTAssertEqual(Double(source.info.durationUs ?? 0), 1_500_000, accuracy: 40_000)
        var count = 0
        while let picture = try source.nextPicture() {
            XCTAssertEqual(picture.index, count)
            XCTAssertEqual(picture.width, 320)
            XCTAssertEqual(picture.height, 240)
            XCTAssertEqual(Double(picture.ptsUs), Double(count) * 1e6 / 30, accuracy: 1.0, "frame \(count)")
            XCTAssertFalse(picture.isCorrupt)
            count += 1
        }
        XCTAssertEqual(count, 45)
        XCTAssertNil(try source.nextPicture())
        XCTAssertEqual(source.statistics.frames, 45)
        XCTAssertEqual(source.statistics.corruptPackets, 0)
        XCTAssertEqual(source.statistics.synthesizedTimestamps, 0)
    }

    func testSixtyFramesPerSecondTimestamps() throws {
        let path = try TestClips.encode(to: directory.appendingPathComponent("clip60.mkv"), frames: 30, fps: 60)
        let source = try VideoSource(url: path)
        var stamps: [Int64] = []
        while let picture = try source.nextPicture() { stamps.append(picture.ptsUs) }
        XCTAssertEqual(stamps.count, 30)
        // Matroska stores milliseconds, so allow its rounding.
        for (i, stamp) in stamps.enumerated() { XCTAssertEqual(Double(stamp), Double(i) * 1e6 / 60, accuracy: 1000) }
        XCTAssertEqual(stamps, stamps.sorted())
    }

    func testConfigurableDecoderThreads() throws {
        let path = try TestClips.encode(to: directory.appendingPathComponent("clip.mp4"), frames: 20)
        var options = VideoSourceOptions()
        options.threads = 2
        let source = try VideoSource(url: path, options: options)
        var stamps: [Int64] = []
        while let picture = try source.nextPicture() { stamps.append(picture.ptsUs) }
        XCTAssertEqual(stamps.count, 20)
        XCTAssertEqual(stamps, stamps.sorted())
    }

    func testRawStreamWithoutTimestampsGetsThemFromTheFrameRate() throws {
        let path = try TestClips.encode(to: directory.appendingPathComponent("clip.h264"), frames: 20, fps: 30)
        let source = try VideoSource(url: path)
        var stamps: [Int64] = []
        while let picture = try source.nextPicture() { stamps.append(picture.ptsUs) }
        XCTAssertEqual(stamps.count, 20)
        XCTAssertEqual(stamps.first, 0)
        for pair in zip(stamps, stamps.dropFirst()) { XCTAssertGreaterThan(pair.1, pair.0) }
    }
}

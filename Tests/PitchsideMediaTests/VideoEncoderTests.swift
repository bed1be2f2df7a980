import Foundation
import PitchsideCore
import PitchsideMedia
import XCTest

final class VideoEncoderTests: XCTestCase {
    func testWritesAnMP4() throws {
        let dir = try TestClips.makeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try TestClips.encode(to: dir.appendingPathComponent("clip.mp4"))
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        XCTAssertGreaterThan(size, 1000)
        print("ENCODED", path, size)
        try FileManager.default.copyItem(atPath: path, toPath: "/tmp/pitchside-encoder-check.mp4")
    }

    func testRejectsOddSizeAndWrongImage() throws {
        let dir = try TestClips.makeDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        XCTAssertThrowsError(try VideoEncoder(path: dir.appendingPathComponent("odd.mp4").path,
                                              width: 321, height: 240, framesPerSecond: 30))
        let encoder = try VideoEncoder(path: dir.appendingPathComponent("a.mp4").path,
                                       width: 320, height: 240, framesPerSecond: 30)
        XCTAssertThrowsError(try encoder.append(ImageBuffer(width: 64, height: 64, layout: .gray8))) { error in
            XCTAssertEqual((error as? MediaError)?.description, "bad image: image is 64×64, the video is 320×240")
        }
        try encoder.append(ImageBuffer(width: 320, height: 240, layout: .gray8))
        try encoder.finish()
    }
}

import Foundation
import PitchsideCore
import PitchsideMedia
import XCTest

/// Every kind of bad input gives the right `MediaError` with a clear line; nothing hangs or crashes.
final class MediaErrorTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws { directory = try TestClips.makeDirectory() }
    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func openError(_ path: String, options: VideoSourceOptions = VideoSourceOptions()) -> MediaError? {
        do {
            _ = try VideoSource(url: path, options: options)
            XCTFail("\(path) opened")
            return nil
        } catch {
            return error as? MediaError
        }
    }

    func testMissingFile() {
        let path = directory.appendingPathComponent("missing.mp4").path
        XCTAssertEqual(openError(path), .noSuchFile(path))
        XCTAssertEqual(openError(path)?.description, "no such file: \(path)")
        XCTAssertThrowsError(try ImageFile.read(path)) { XCTAssertEqual($0 as? MediaError, .noSuchFile(path)) }
    }

    func testEmptyFile() throws {
        let path = try DefectiveFiles.empty(at: directory.appendingPathComponent("empty.mp4"))
        XCTAssertEqual(openError(path), .emptyFile(path))
        XCTAssertEqual(openError(path)?.description, "\(path) is empty (0 bytes)")
    }

    func testTextFileIsNotAVideo() throws {
        let path = try DefectiveFiles.text(at: directory.appendingPathComponent("notes.txt"))
        XCTAssertEqual(
            openError(path)?.description,
            "\(path) is not a video FFmpeg can read (Invalid data found when processing input)")
    }

    func testAudioOnlyFileHasNoVideoStream() throws {
        let path = try DefectiveFiles.audioOnly(at: directory.appendingPathComponent("sound.wav"))
        XCTAssertEqual(openError(path), .noVideoStream(path))
        XCTAssertEqual(openError(path)?.description, "\(path) has no video stream")
    }

    func testCodecWithoutDecoder() throws {
        let path = try DefectiveFiles.undecodableCodec(at: directory.appendingPathComponent("avs2.ts"))
        let error = openError(path)
        guard case .unsupportedCodec(_, let codec)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(codec.hasPrefix("avs2"), codec)
        print("unsupported:", error!)
        XCTAssertEqual(error?.description, "\(path) uses codec \(codec), which this FFmpeg build cannot decode")
    }

    func testRequestedDecoderThatDoesNotExist() throws {
        let path = try TestClips.encode(to: directory.appendingPathComponent("clip.mp4"), frames: 3)
        var options = VideoSourceOptions()
        options.decoderName = "no_such_decoder"
        XCTAssertEqual(openError(path, options: options), .unsupportedCodec(path, codec: "h264 (no decoder named no_such_decoder)"))
    }

    func testTruncatedFileDeliversWhatIsThereThenReportsIt() throws {
        let whole = try TestClips.encode(to: directory.appendingPathComponent("whole.mp4"), frames: 60, fastStart: true)
        let path = try DefectiveFiles.truncated(whole, fraction: 0.6, to: directory.appendingPathComponent("cut.mp4"))
        let source = try VideoSource(url: path)
        var delivered = 0
        var caught: MediaError?
        do {
            while try source.nextPicture() != nil { delivered += 1 }
        } catch {
            caught = error as? MediaError
        }
        XCTAssertGreaterThan(delivered, 10)
        XCTAssertLessThan(delivered, 60)
        guard case .truncated(let p, let frames, let expected, _)? = caught else {
            return XCTFail("got \(String(describing: caught))")
        }
        XCTAssertEqual(p, path)
        XCTAssertEqual(frames, delivered)
        XCTAssertEqual(expected, 60)
        XCTAssertTrue(caught!.description.hasPrefix("\(path) is truncated: decoded \(delivered) of 60 frames"), caught!.description)
        XCTAssertNil(try source.nextPicture(), "reported once, then finished")
        print("truncated:", caught!)
    }

    func testTruncatedFileWithIndexAtTheEndCannotBeOpened() throws {
        let whole = try TestClips.encode(to: directory.appendingPathComponent("whole.mp4"), frames: 30)
        let path = try DefectiveFiles.truncated(whole, fraction: 0.5, to: directory.appendingPathComponent("cut.mp4"))
        let error = openError(path)
        guard case .notAVideo(_, let reason)? = error else { return XCTFail("got \(String(describing: error))") }
        XCTAssertTrue(reason.contains("moov atom not found"), reason)
        print("cut index:", error!)
    }

    func testCorruptBytesMidStreamAreSkippedAndCounted() throws {
        let whole = try TestClips.encode(
            to: directory.appendingPathComponent("whole.mp4"), frames: 60, fastStart: true, crf: 10)
        let path = try DefectiveFiles.corrupted(whole, at: 0.5, count: 3000, to: directory.appendingPathComponent("bad.mp4"))
        let source = try VideoSource(url: path)
        var stamps: [Int64] = []
        while let picture = try source.nextPicture() { stamps.append(picture.ptsUs) }
        XCTAssertGreaterThan(stamps.count, 45)
        XCTAssertEqual(stamps, stamps.sorted())
        let stats = source.statistics
        XCTAssertGreaterThan(stats.corruptPackets + stats.corruptFrames, 0, "\(stats)")
        XCTAssertEqual(stats.packets, 60)
        print("corrupt stream:", stats)
    }

    func testResolutionChangeIsAbsorbedOrRefused() throws {
        let first = try TestClips.encode(to: directory.appendingPathComponent("a.h264"), width: 320, height: 240, frames: 12)
        let second = try TestClips.encode(to: directory.appendingPathComponent("b.h264"), width: 160, height: 120, frames: 12)
        let joined = directory.appendingPathComponent("joined.h264")
        try (Data(contentsOf: URL(fileURLWithPath: first)) + Data(contentsOf: URL(fileURLWithPath: second))).write(to: joined)

        let source = try VideoSource(url: joined.path)
        let converter = RenditionConverter(renditions: [.grayFull, Rendition(name: "rgb", layout: .rgb24, maxWidth: 160)])
        var sizes: [String] = []
        var outputs: Set<String> = []
        while let picture = try source.nextPicture() {
            sizes.append("\(picture.width)x\(picture.height)")
            let frames = try converter.frames(from: picture, streamID: "s", seq: UInt64(picture.index))
            outputs.insert("\(frames["gray"]!.image.width)x\(frames["gray"]!.image.height)")
            outputs.insert("\(frames["rgb"]!.image.width)x\(frames["rgb"]!.image.height)")
        }
        XCTAssertEqual(sizes.count, 24)
        XCTAssertEqual(sizes.first, "320x240")
        XCTAssertEqual(sizes.last, "160x120")
        XCTAssertEqual(source.statistics.resolutionChanges, 1)
        XCTAssertEqual(outputs, ["320x240", "160x120"], "renditions keep the sizes of the first picture")

        var options = VideoSourceOptions()
        options.resolutionChange = .fail
        let strict = try VideoSource(url: joined.path, options: options)
        var delivered = 0
        XCTAssertThrowsError(try { while try strict.nextPicture() != nil { delivered += 1 } }()) { error in
            guard case .resolutionChanged(_, let from, let to, _)? = error as? MediaError else {
                return XCTFail("got \(error)")
            }
            XCTAssertEqual(from, "320×240")
            XCTAssertEqual(to, "160×120")
            XCTAssertTrue("\(error)".contains("changes picture size from 320×240 to 160×120"))
        }
        XCTAssertEqual(delivered, 12)
    }
}

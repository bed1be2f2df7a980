import Foundation
import PitchsideCore
import PitchsideMedia
import XCTest

/// `pitchside inspect board`: what the detection worker finds in a video (its own analysis, at
/// its own rendition) or in one picture, as wire messages in JSON, and drawn with `--overlay`;
/// bad input gets a clear error.
final class InspectBoardCommandTests: XCTestCase {
    private func inspect(_ arguments: [String]) throws -> (status: Int32?, stdout: String, stderr: String) {
        let child = try ChildProcess(["inspect", "board"] + arguments)
        let status = child.wait(timeout: 300)
        return (status, child.stdout, child.stderr)
    }

    private func lines(_ stdout: String, kind: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").compactMap { line in
            let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "a JSON object: \(line)")
            return object[kind] as? [String: Any]
        }
    }

    /// The cached two-throw game the recovery tests use: the board is found where the truth has
    /// it, the bags at rest are counted as the truth counts them, and the overlay is written.
    func testAVideoGivesTheBoardAndTheBagsAtRestAsTheWorkerSeesThem() throws {
        let video = try TestGames.video(seed: RecoveryTests.seed, arguments: RecoveryTests.synthArguments)
        let truthURL = URL(fileURLWithPath: video).deletingLastPathComponent().appendingPathComponent("truth.json")
        let truth = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: truthURL)) as? [String: Any])
        let directory = try TestVideo.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let overlay = directory.appendingPathComponent("board.png").path

        let run = try inspect([video, "--json", "--overlay", overlay])
        XCTAssertEqual(run.status, 0, run.stderr)
        let boards = try lines(run.stdout, kind: "board")
        let found = boards.filter { ($0["found"] as? Bool) == true }
        let board = try XCTUnwrap(found.last, "a board found: \(boards.prefix(3))")
        XCTAssertLessThanOrEqual(found.count, 4, "a kept board is not repeated")

        // Corners within 3 % of the board's length (640×360: about 1.7 px).
        let truthBoard = try XCTUnwrap(truth["board"] as? [String: Any])
        let truthCorners = try XCTUnwrap(truthBoard["corners"] as? [[Double]])
        let corners = try XCTUnwrap(board["corners"] as? [[String: Double]])
        XCTAssertEqual(corners.count, 4)
        func pixels(_ x: Double, _ y: Double) -> (Double, Double) { (x * 640, y * 360) }
        let length = hypot(pixels(truthCorners[1][0] - truthCorners[0][0], truthCorners[1][1] - truthCorners[0][1]).0,
                           pixels(truthCorners[1][0] - truthCorners[0][0], truthCorners[1][1] - truthCorners[0][1]).1)
        for (c, t) in zip(corners, truthCorners) {
            let d = pixels((c["x"] ?? 0) - t[0], (c["y"] ?? 0) - t[1])
            XCTAssertLessThan(hypot(d.0, d.1) / length, 0.03, "corner \(c) against \(t)")
        }

        // The last census counts what the truth's last rest state holds.
        let census = try XCTUnwrap(try lines(run.stdout, kind: "census").last, "a census")
        let truthCensus = try XCTUnwrap((truth["censuses"] as? [[String: Any]])?.last)
        func count(_ key: String, _ object: [String: Any]) -> Int { (object[key] as? NSNumber)?.intValue ?? 0 }
        XCTAssertEqual(count("onBoard", census), count("onBoard", truthCensus), "\(census)")
        XCTAssertEqual(count("onGround", census), count("onGround", truthCensus), "\(census)")

        let png = try Data(contentsOf: URL(fileURLWithPath: overlay))
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG")
        XCTAssertTrue(try lines(run.stdout, kind: "stability").isEmpty, "stability only with --stability")

        // In words, by frame, from the same analysis.
        let words = try inspect([video, "--frames", "200", "--stability"])
        XCTAssertEqual(words.status, 0, words.stderr)
        XCTAssertTrue(words.stdout.contains("frame 1: shift ("), words.stdout.prefix(300).description)
        XCTAssertTrue(words.stdout.contains("board confidence"), String(words.stdout.suffix(500)))
    }

    /// A picture without a board says so, with the reason, and is no error.
    func testAPictureWithoutABoardSaysSo() throws {
        let directory = try TestVideo.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var image = ImageBuffer(width: 320, height: 180, layout: .rgb24)
        for i in image.pixels.indices { image.pixels[i] = UInt8(truncatingIfNeeded: 60 + (i / 3) % 7) }
        let path = directory.appendingPathComponent("grass.png").path
        try ImageFile.writePNG(image, to: path)
        let run = try inspect([path, "--json"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let board = try XCTUnwrap(try lines(run.stdout, kind: "board").first)
        XCTAssertNil(board["found"], "no board")
        XCTAssertFalse((board["reason"] as? String ?? "").isEmpty, "a reason: \(board)")
        let words = try inspect([path])
        XCTAssertTrue(words.stdout.hasPrefix("no board: "), words.stdout)
    }

    /// A file that is no picture and no video: a clear error naming it, and a failing status.
    func testAFileThatIsNoPictureIsAnError() throws {
        let directory = try TestVideo.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("broken.mp4").path
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }).write(to: URL(fileURLWithPath: path))
        let run = try inspect([path, "--json"])
        XCTAssertNotEqual(run.status, 0)
        XCTAssertTrue(run.stderr.contains("broken.mp4"), run.stderr)
        XCTAssertTrue(run.stdout.isEmpty, run.stdout)
    }
}

import Foundation
import XCTest

/// `pitchside train classifier` refuses bad input before any long work starts,
/// with a message that says what to do, and leaves nothing behind.
final class TrainCommandTests: XCTestCase {
    private func train(_ arguments: [String]) throws -> (status: Int32?, stderr: String) {
        let child = try ChildProcess(["train", "classifier"] + arguments)
        let status = child.wait(timeout: 60)
        return (status, child.stderr)
    }

    func testAMissingCorpusDirectoryIsRefusedNotRendered() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-corpus-\(UUID().uuidString)").path
        let (status, stderr) = try train(["--corpus", missing])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(stderr.contains("does not exist"), stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: missing), "nothing created")
    }

    func testSeedsOutsideTheTrainingRangesAreRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for arguments in [["--seed", "9000"], ["--validation-seed", "1000"], ["--seed", "3998", "--games", "4"]] {
            let (status, stderr) = try train(["--corpus", dir.path] + arguments)
            XCTAssertNotEqual(status, 0, "\(arguments)")
            XCTAssertTrue(stderr.contains("must lie in"), "\(arguments): \(stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), [], "no game rendered")
    }

    func testAModelFileThatDoesNotLoadIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("corpus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let model = dir.appendingPathComponent("model.json")
        try Data("{\"schema\": 1}".utf8).write(to: model)
        let (status, stderr) = try train(["--corpus", dir.path, "--evaluate", model.path])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(stderr.contains("model.json"), stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path), ["model.json"], "no game rendered")
    }
}

import Foundation
import XCTest

/// `pitchside synth corpus --only`: one game of a corpus rendered again, the index whole.
final class SynthCorpusCommandTests: XCTestCase {
    func testOnlyRendersTheNamedGameAndIndexesThemAll() throws {
        let root = try TestVideo.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let base = ["synth", "corpus", "--name", "t", "--count", "3", "--seed", "4200", "--throws", "1",
                    "--max-width", "640", "--root", root.path]
        let one = try ChildProcess(base + ["--only", "t-0001"])
        XCTAssertEqual(one.wait(timeout: 300), 0, one.stderr)
        let corpus = root.appendingPathComponent("t")
        let fm = FileManager.default
        XCTAssertTrue(fm.fileExists(atPath: corpus.appendingPathComponent("t-0001/game.mp4").path))
        XCTAssertTrue(fm.fileExists(atPath: corpus.appendingPathComponent("t-0001/truth.json").path))
        XCTAssertFalse(fm.fileExists(atPath: corpus.appendingPathComponent("t-0000").path))
        XCTAssertFalse(fm.fileExists(atPath: corpus.appendingPathComponent("t-0002").path))
        let index = try JSONSerialization.jsonObject(with: Data(contentsOf: corpus.appendingPathComponent("index.json")))
        XCTAssertEqual((index as? [[String: Any]])?.compactMap { $0["name"] as? String }, ["t-0000", "t-0001", "t-0002"])
        XCTAssertTrue(one.stdout.contains("t-0001:") && !one.stdout.contains("t-0000:"), one.stdout)

        let unknown = try ChildProcess(base + ["--only", "t-0009"])
        XCTAssertNotEqual(unknown.wait(timeout: 60), 0)
        XCTAssertTrue(unknown.stderr.contains("--only t-0009: not a game of this corpus (t-0000 … t-0002)"), unknown.stderr)
    }
}

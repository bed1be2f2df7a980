import Foundation
import XCTest

/// `pitchside eval games --replay`: a game whose results were not kept is named, the others go on.
final class EvalGamesReplayTests: XCTestCase {
    func testAGameWithoutKeptResultsIsNamedAndTheRunFails() throws {
        let video = try TestGames.video(seed: RecoveryTests.seed, arguments: RecoveryTests.synthArguments)
        let dir = try TestVideo.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let corpus = dir.appendingPathComponent("corpus"), runs = dir.appendingPathComponent("runs")
        try FileManager.default.createDirectory(at: corpus, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: runs, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: corpus.appendingPathComponent("game-a"),
                                                   withDestinationURL: URL(fileURLWithPath: video).deletingLastPathComponent())
        let out = dir.appendingPathComponent("replayed").path
        let run = try ChildProcess(["eval", "games", "--corpus", corpus.path, "--replay", runs.path, "--out", out])
        XCTAssertEqual(run.wait(timeout: 60), 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("game-a: no results kept for this game"), run.stderr)
        XCTAssertTrue(run.stderr.contains("run eval games without --replay first"), run.stderr)
        XCTAssertTrue(run.stderr.contains("not replayed: game-a"), run.stderr)

        // A file that is not kept results is named as such.
        try Data("not results".utf8).write(to: runs.appendingPathComponent("game-a.results"))
        let damaged = try ChildProcess(["eval", "games", "--corpus", corpus.path, "--replay", runs.path, "--out", out])
        XCTAssertEqual(damaged.wait(timeout: 60), 1, damaged.stderr)
        XCTAssertTrue(damaged.stderr.contains("not a file of kept results"), damaged.stderr)

        // --replay into its own directory would overwrite the run's events.
        let same = try ChildProcess(["eval", "games", "--corpus", corpus.path, "--replay", runs.path, "--out", runs.path])
        XCTAssertNotEqual(same.wait(timeout: 60), 0)
        XCTAssertTrue(same.stderr.contains("the same directory"), same.stderr)
    }

    /// A throw-type model that cannot be used is said once, before any game is played.
    func testAThrowClassifierThatCannotBeLoadedIsRefusedBeforeAnyGame() throws {
        let dir = try TestVideo.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let notAModel = dir.appendingPathComponent("model.json")
        try Data("{\"weights\": 1}".utf8).write(to: notAModel)
        for (model, reason) in [(dir.appendingPathComponent("missing.json").path, "missing.json"),
                                (notAModel.path, "not a model written by `pitchside train classifier --out`")] {
            let run = try ChildProcess(["eval", "games", "--corpus", dir.path, "--replay", dir.path, "--out",
                                        dir.appendingPathComponent("out").path, "--throw-classifier", model])
            XCTAssertNotEqual(run.wait(timeout: 60), 0, run.stderr)
            XCTAssertTrue(run.stderr.contains("--throw-classifier \(model): ") && run.stderr.contains(reason), run.stderr)
            XCTAssertFalse(run.stderr.contains("[1/"), run.stderr)
        }
    }

    /// --detection: detection results that cannot be spliced into a game's kept results are
    /// named with the reason, and the option makes no sense without --replay.
    func testDetectionResultsThatCannotBeSplicedAreNamed() throws {
        let dir = try TestVideo.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let corpus = dir.appendingPathComponent("corpus"), runs = dir.appendingPathComponent("runs")
        let detection = dir.appendingPathComponent("detection"), out = dir.appendingPathComponent("replayed").path
        for d in [corpus.appendingPathComponent("game-a"), runs, detection] {
            try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        }
        let truth = try TestGames.video(seed: RecoveryTests.seed, arguments: RecoveryTests.synthArguments)
        try FileManager.default.copyItem(atPath: URL(fileURLWithPath: truth).deletingLastPathComponent().appendingPathComponent("truth.json").path,
                                         toPath: corpus.appendingPathComponent("game-a/truth.json").path)
        // Kept results with no result in them: a valid file, but nothing to splice into.
        try Data("pitchside-results 1\n".utf8).write(to: runs.appendingPathComponent("game-a.results"))
        func replay() throws -> ChildProcess {
            let run = try ChildProcess(["eval", "games", "--corpus", corpus.path, "--replay", runs.path, "--out", out, "--detection", detection.path])
            XCTAssertEqual(run.wait(timeout: 60), 1, run.stderr)
            return run
        }
        let missing = try replay()
        XCTAssertTrue(missing.stderr.contains("game-a: no detection results for this game") && missing.stderr.contains("run eval detection --keep-results first"), missing.stderr)
        try Data("{\"stability\": {}}\nnot json\n".utf8).write(to: detection.appendingPathComponent("game-a.jsonl"))
        let garbage = try replay()
        XCTAssertTrue(garbage.stderr.contains("game-a.jsonl:2: not a worker result in JSON"), garbage.stderr)
        try Data("{\"stability\": {}}\n".utf8).write(to: detection.appendingPathComponent("game-a.jsonl"))
        let empty = try replay()
        XCTAssertTrue(empty.stderr.contains("the kept results hold 0 streams"), empty.stderr)

        let alone = try ChildProcess(["eval", "games", "--corpus", corpus.path, "--out", out, "--detection", detection.path])
        XCTAssertNotEqual(alone.wait(timeout: 60), 0)
        XCTAssertTrue(alone.stderr.contains("give --replay RUNS too"), alone.stderr)
    }
}

import Foundation
import XCTest

/// `pitchside up`: the demo game is scored by the rules and players it was rendered with (a
/// two-player game under the official rules, not Apple's one-player game), and two runs started
/// together keep apart.
final class UpCommandTests: XCTestCase {
    /// A short two-player game in a cache of its own, where `up --demo` looks for the demo.
    private func demoCache() throws -> URL {
        let video = try TestGames.video(seed: RecoveryTests.seed, arguments: [
            "--size", "640x360", "--fps", "30", "--throws", "2", "--players", "2",
            "--settle", "0", "--negative-rate", "0", "--side", "left",
        ])
        let game = URL(fileURLWithPath: video).deletingLastPathComponent()
        let cache = try TestVideo.temporaryDirectory()
        // The models and the runtime from the real cache.
        let real = TestCache.directory
        for entry in try FileManager.default.contentsOfDirectory(atPath: real) where !entry.hasPrefix("demo-") {
            try FileManager.default.createSymbolicLink(atPath: cache.appendingPathComponent(entry).path,
                                                       withDestinationPath: real + "/" + entry)
        }
        let demo = cache.appendingPathComponent("demo-2021")  // `DemoGame.seed`
        try FileManager.default.createDirectory(at: demo, withIntermediateDirectories: true)
        for file in ["game.mp4", "truth.json"] {
            try FileManager.default.copyItem(at: game.appendingPathComponent(file), to: demo.appendingPathComponent(file))
        }
        return cache
    }

    /// The players named in the throw events of `up --demo` run to the end in lockstep.
    private func throwers(cache: URL, extra: [String] = []) throws -> [String] {
        let up = try ChildProcess(["up", "--demo", "--pacing", "lockstep", "--json", "--base-port", "\(TestPorts.base())",
                                   "--log-level", "warning"] + extra,
                                  environment: ["PITCHSIDE_CACHE": cache.path])
        XCTAssertEqual(up.wait(timeout: 300), 0, up.stderr)
        return up.stdout.split(separator: "\n").compactMap { line in
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let thrown = event["throwCompleted"] as? [String: Any] else { return nil }
            return thrown["player"] as? String
        }
    }

    func testTheDemoIsScoredByItsOwnRulesAndPlayersUnlessToldOtherwise() throws {
        let cache = try demoCache()
        defer { try? FileManager.default.removeItem(at: cache) }
        // The truth's players (P1, P2), taking turns: the official rules.
        XCTAssertEqual(try throwers(cache: cache), ["P1", "P2"])
        // Rules given on the command line win.
        XCTAssertEqual(try throwers(cache: cache, extra: ["--rules", "apple"]), ["player", "player"])
    }

    /// Two clusters started within the same second, sharing a data directory: each keeps its own
    /// event log (they shared one named by the second, and each aggregator died on the other's
    /// events, restarted, and died again).
    func testTwoRunsStartedTogetherKeepTheirOwnLogs() throws {
        let dir = try TestVideo.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("clip.mp4").path
        try TestVideo.write(to: video, frames: 60)
        let data = dir.appendingPathComponent("data")
        let runs = try (0..<2).map { _ in
            try ChildProcess(["up", "--input", video, "--pacing", "lockstep", "--base-port", "\(TestPorts.base())",
                              "--log-level", "warning"],
                             environment: ["PITCHSIDE_DATA_DIR": data.path])
        }
        for run in runs {
            XCTAssertEqual(run.wait(timeout: 120), 0, run.stderr)
            XCTAssertFalse(run.stderr.contains("aggregator exited"), run.stderr)
        }
        let logs = try FileManager.default.contentsOfDirectory(atPath: data.path).filter { $0.hasSuffix(".sqlite") }
        XCTAssertEqual(logs.count, 2, "\(logs)")
    }
}

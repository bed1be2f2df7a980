import Foundation
import PitchsideCore
import PitchsideTransport
import XCTest

/// CURVE between real processes, configured the three ways the shared configuration allows:
/// the aggregator from a YAML file, one score subscriber from the environment, another from
/// flags. The subscriber whose key is allowed follows the game; the one with an unknown key
/// gets nothing, and the aggregator says it refused it.
final class CurveClusterTests: XCTestCase {
    func testOnlyAllowedKeysReachACurveAggregator() throws {
        let dir = try TestVideo.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let keys = dir.appendingPathComponent("keys").path
        for (name, out) in [("cluster", keys), ("viewer", keys + "/clients"), ("stranger", dir.appendingPathComponent("other").path)] {
            let make = try ChildProcess(["keys", name, "--out", out])
            XCTAssertEqual(make.wait(timeout: 20), 0, make.stderr)
            XCTAssertTrue(make.stdout.contains("public key: \(out)/\(name).pub"), make.stdout)
        }
        let config = dir.appendingPathComponent("pitchside.yaml").path
        try """
            curve:
              secret_key: \(keys)/cluster.key
              server_key: \(keys)/cluster.pub
              allow: [\(keys)/clients, \(keys)/cluster.pub]
            """.write(toFile: config, atomically: true, encoding: .utf8)

        let base = TestPorts.base()
        let endpoints = Endpoints(basePort: base)
        let aggregator = try ChildProcess([
            "aggregate", "--config", config, "--base-port", "\(base)", "--roles", "detection,trajectory,pose",
            "--database", dir.appendingPathComponent("games.sqlite").path,
        ])
        defer { if aggregator.process.isRunning { aggregator.signal(SIGTERM); aggregator.wait(timeout: 10) } }
        let viewer = try ChildProcess(["scores", "--base-port", "\(base)"], environment: [
            "PITCHSIDE_CURVE_SECRET_KEY": "\(keys)/clients/viewer.key", "PITCHSIDE_CURVE_SERVER_KEY": "\(keys)/cluster.pub",
        ])
        defer { if viewer.process.isRunning { viewer.signal(SIGTERM); viewer.wait(timeout: 10) } }
        let stranger = try ChildProcess([
            "scores", "--base-port", "\(base)", "--curve-secret-key", dir.appendingPathComponent("other/stranger.key").path,
            "--curve-server-key", "\(keys)/cluster.pub",
        ])
        defer { if stranger.process.isRunning { stranger.signal(SIGTERM); stranger.wait(timeout: 10) } }

        // The test pushes worker results with the cluster's own key (allowed).
        let security = TransportSecurity(keyPair: try CurveKeyPair(secretKeyFile: "\(keys)/cluster.key"),
                                         defaultServerKey: try CurveKeys.read("\(keys)/cluster.pub"), allowedClients: [])
        let context = try ZMQContext(security: security)
        defer { context.shutdown() }
        let push = try context.socket(.push)
        defer { push.close() }
        try push.set(.linger, 1000)
        try push.connect(endpoints.results)
        // A scripted game: its first frames before the viewer has surely joined, the rest after.
        let script = GameScript()
        let results = script.results(throws: [], frames: 120)
        let firstFrames = results.prefix { ($0.frameDone.header.seq, $0.frameDone.role) != (2, "pose") }
        let topic = Topic.result(stream: script.stream, kind: "scripted")
        for result in firstFrames { _ = try push.send(result, topic: topic) }

        let deadline = Date().addingTimeInterval(40)
        while Date() < deadline && !viewer.stdout.contains("cam1") { usleep(50_000) }
        let joined = viewer.stdout
        XCTAssertTrue(joined.contains("cam1"), "the allowed viewer hears of the game: \(viewer.stderr)")
        for result in results.dropFirst(firstFrames.count) { _ = try push.send(result, topic: topic) }
        while Date() < deadline && !viewer.stdout.contains("→ DetectedBoard") { usleep(50_000) }
        XCTAssertTrue(viewer.stdout.contains("state DetectingBoard → DetectedBoard"),
                      "live events reach the allowed viewer: \(viewer.stdout)\n\(viewer.stderr)")
        while Date() < deadline && !aggregator.stderr.contains("refused a CURVE client") { usleep(50_000) }
        usleep(500_000)
        XCTAssertEqual(stranger.stdout, "", "the unknown key gets nothing")
        XCTAssertTrue(aggregator.stderr.contains("refused a CURVE client"), aggregator.stderr)
        XCTAssertTrue(aggregator.stderr.contains("is not allowed"), aggregator.stderr)
        for process in [viewer, stranger, aggregator] {
            process.signal(SIGTERM)
            XCTAssertEqual(process.wait(timeout: 15), 0, process.stderr)
        }
    }
}

import XCTest
@testable import PitchsideCore

final class ConfigurationTests: XCTestCase {
    func testDefaultsBindLoopback() {
        let config = PitchsideConfiguration()
        for name in Endpoints.names {
            XCTAssertTrue(config.endpoints[name]!.hasPrefix("tcp://127.0.0.1:"), name)
        }
    }

    func testFileThenEnvironmentOverride() throws {
        var config = PitchsideConfiguration()
        try config.apply(yaml: """
            stream: court-1
            endpoints:
              frames: tcp://10.0.0.5:6000
              results: tcp://10.0.0.6:6001
            """)
        config.apply(environment: ["PITCHSIDE_RESULTS_ENDPOINT": "tcp://10.0.0.7:7000"])
        XCTAssertEqual(config.stream, "court-1")
        XCTAssertEqual(config.endpoints.frames, "tcp://10.0.0.5:6000")
        XCTAssertEqual(config.endpoints.results, "tcp://10.0.0.7:7000")
        XCTAssertEqual(config.endpoints.events, Endpoints().events)
    }

    func testUnknownKeysAreRejectedWithTheirName() {
        var config = PitchsideConfiguration()
        XCTAssertThrowsError(try config.apply(yaml: "endpoint:\n  frames: tcp://x:1\n")) { error in
            XCTAssertTrue("\(error)".contains("unknown key 'endpoint'"), "\(error)")
        }
        XCTAssertThrowsError(try config.apply(yaml: "endpoints:\n  frame: tcp://x:1\n")) { error in
            XCTAssertTrue("\(error)".contains("unknown endpoint 'frame'"), "\(error)")
        }
        XCTAssertThrowsError(try config.apply(yaml: "endpoints:\n  frames: 5550\n"))
    }

    func testCurveSettingsFromTheFileThenTheEnvironment() throws {
        var config = PitchsideConfiguration()
        XCTAssertNil(config.curve, "plain tcp unless configured")
        try config.apply(yaml: """
            curve:
              secret_key: keys/worker.key
              server_key: keys/cluster.pub
              server_keys: {results: keys/aggregator.pub}
              allow: [keys/clients, keys/extra.pub]
            """)
        XCTAssertEqual(config.curve?.secretKeyFile, "keys/worker.key")
        XCTAssertEqual(config.curve?.serverKeyFile, "keys/cluster.pub")
        XCTAssertEqual(config.curve?.serverKeyFiles, ["results": "keys/aggregator.pub"])
        XCTAssertEqual(config.curve?.allowedClients, ["keys/clients", "keys/extra.pub"])
        config.apply(environment: ["PITCHSIDE_CURVE_SECRET_KEY": "other.key", "PITCHSIDE_CURVE_ALLOW": "a.pub:b"])
        XCTAssertEqual(config.curve?.secretKeyFile, "other.key")
        XCTAssertEqual(config.curve?.allowedClients, ["a.pub", "b"])
        XCTAssertEqual(config.curve?.serverKeyFiles, ["results": "keys/aggregator.pub"], "the rest of the file stays")

        XCTAssertThrowsError(try config.apply(yaml: "curve:\n  secret: x\n")) { error in
            XCTAssertTrue("\(error)".contains("unknown key 'curve.secret'"), "\(error)")
        }
        XCTAssertThrowsError(try config.apply(yaml: "curve:\n  server_keys: {frame: x.pub}\n")) { error in
            XCTAssertTrue("\(error)".contains("unknown endpoint 'frame' in curve.server_keys"), "\(error)")
        }
    }
}

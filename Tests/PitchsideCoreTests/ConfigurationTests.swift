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
}

import Foundation
import XCTest
import Yams

/// compose.yaml cannot run here (no container engine), so it is checked as text: every
/// service runs a real subcommand, and every endpoint a service connects to is bound by the
/// service it names, on the same port.
final class ComposeFileTests: XCTestCase {
    private func load() throws -> [String: Any] {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("compose.yaml").path) {
            dir = dir.deletingLastPathComponent()
            guard dir.path != "/" else { throw XCTSkip("compose.yaml not found") }
        }
        let text = try String(contentsOf: dir.appendingPathComponent("compose.yaml"), encoding: .utf8)
        return try XCTUnwrap(try Yams.load(yaml: text) as? [String: Any])
    }

    func testEveryConnectedEndpointIsBoundByTheServiceItNames() throws {
        let services = try XCTUnwrap(try load()["services"] as? [String: [String: Any]])
        let roles = ["capture": "capture", "worker": "worker", "aggregate": "aggregator", "scores": "scores"]
        var bound: [String: Set<String>] = [:]  // service -> ports it binds
        for (name, service) in services {
            let command = try XCTUnwrap(service["command"] as? [String], name)
            XCTAssertNotNil(roles[command[0]], "\(name): unknown subcommand \(command[0])")
            for (i, arg) in command.enumerated() where arg.hasSuffix("-endpoint") {
                let address = command[i + 1]
                XCTAssertTrue(address.hasPrefix("tcp://0.0.0.0:"), "\(name) binds \(address)")
                bound[name, default: []].insert(String(address.split(separator: ":").last!))
            }
        }
        for (name, service) in services {
            let environment = try XCTUnwrap(service["environment"] as? [String: Any], name)
            for (key, value) in environment where key.hasSuffix("_ENDPOINT") {
                let address = try XCTUnwrap(value as? String)
                let parts = address.replacingOccurrences(of: "tcp://", with: "").split(separator: ":").map(String.init)
                XCTAssertEqual(parts.count, 2, address)
                XCTAssertTrue(bound[parts[0]]?.contains(parts[1]) ?? false,
                              "\(name): \(key)=\(address) is not bound by service \(parts[0])")
            }
        }
    }

    func testEveryServiceSubcommandExistsInTheBinary() throws {
        let services = try XCTUnwrap(try load()["services"] as? [String: [String: Any]])
        for (name, service) in services {
            let command = try XCTUnwrap(service["command"] as? [String])
            let words = command.prefix { !$0.hasPrefix("-") }
            let help = try ChildProcess(Array(words) + ["--help"])
            XCTAssertEqual(help.wait(timeout: 20), 0, "\(name): pitchside \(words.joined(separator: " ")) --help failed: \(help.stderr)")
            // Every flag the service passes is one the subcommand documents.
            for flag in command where flag.hasPrefix("--") {
                XCTAssertTrue(help.stdout.contains(flag), "\(name): \(flag) is not an option of \(words.joined(separator: " "))")
            }
        }
    }
}

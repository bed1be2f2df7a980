import Foundation
import PitchsideCore
@testable import PitchsideTransport
import XCTest

/// CURVE over loopback: an allowed client talks to the server; a client with an unknown key,
/// a client that expects another server, and a plain client get nothing.
final class CurveSecurityTests: XCTestCase {
    private var server: CurveKeyPair!
    private var allowed: CurveKeyPair!
    private var stranger: CurveKeyPair!

    override func setUpWithError() throws {
        server = try CurveKeyPair.generate()
        allowed = try CurveKeyPair.generate()
        stranger = try CurveKeyPair.generate()
    }

    private func clientSecurity(_ pair: CurveKeyPair, serverKey: String? = nil) -> TransportSecurity {
        TransportSecurity(keyPair: pair, defaultServerKey: serverKey ?? server.publicKey, allowedClients: [])
    }

    /// Subscribes with `security` (nil: plain) and counts what arrives while the server publishes.
    private func received(by security: TransportSecurity?, from endpoint: String, publish: () throws -> Void) throws -> Int {
        let context = try ZMQContext(security: security)
        defer { context.shutdown() }
        let sub = try context.socket(.sub)
        defer { sub.close() }
        try sub.set(.linger, 0)
        try sub.connect(endpoint)
        try sub.subscribe("")
        var count = 0
        let deadline = Date().addingTimeInterval(1.5)
        while Date() < deadline {
            try publish()
            while try sub.receive(timeout: 0.05) != nil { count += 1 }
        }
        return count
    }

    func testOnlyAnAllowedClientReceivesFromACurveServer() throws {
        let serverContext = try ZMQContext(security: TransportSecurity(keyPair: server, allowedClients: [allowed.publicKey]))
        defer { serverContext.shutdown() }
        let pub = try serverContext.socket(.pub)
        defer { pub.close() }
        try pub.set(.linger, 0)
        let endpoint = try pub.bind("tcp://127.0.0.1:*")
        let publish = { _ = try pub.send([Data("game/cam1/score".utf8), Data("secret".utf8)]) }

        XCTAssertGreaterThan(try received(by: clientSecurity(allowed), from: endpoint, publish: publish), 0, "allowed key")
        XCTAssertEqual(try received(by: clientSecurity(stranger), from: endpoint, publish: publish), 0, "unknown key")
        XCTAssertEqual(try received(by: clientSecurity(allowed, serverKey: stranger.publicKey), from: endpoint, publish: publish), 0,
                       "a client expecting another server's key")
        XCTAssertEqual(try received(by: nil, from: endpoint, publish: publish), 0, "no CURVE at all")
        let counts = serverContext.curveClients
        XCTAssertGreaterThanOrEqual(counts.admitted, 1)
        XCTAssertGreaterThanOrEqual(counts.refused, 1, "the unknown key was refused by the ZAP handler")
    }

    func testAnAllowedClientCanSendToACurveServerAndAnUnknownOneCannot() throws {
        let serverContext = try ZMQContext(security: TransportSecurity(keyPair: server, allowedClients: [allowed.publicKey]))
        defer { serverContext.shutdown() }
        let pull = try serverContext.socket(.pull)
        defer { pull.close() }
        try pull.set(.linger, 0)
        let endpoint = try pull.bind("tcp://127.0.0.1:*")
        for (pair, expected) in [(stranger!, false), (allowed!, true)] {
            let context = try ZMQContext(security: clientSecurity(pair))
            let push = try context.socket(.push)
            try push.set(.linger, 0)
            try push.connect(endpoint)
            _ = try push.send([Data("result/cam1/x".utf8), Data(pair.publicKey.utf8)], dontWait: true)
            let parts = try pull.receive(timeout: 1.5)
            XCTAssertEqual(parts != nil, expected, "client \(pair.publicKey)")
            if let parts { XCTAssertEqual(String(decoding: parts[1], as: UTF8.self), allowed.publicKey) }
            push.close()
            context.shutdown()
        }
    }

    func testIPCEndpointsStayPlain() throws {
        let serverContext = try ZMQContext(security: TransportSecurity(keyPair: server, allowedClients: []))
        defer { serverContext.shutdown() }
        let pull = try serverContext.socket(.pull)
        defer { pull.close() }
        let endpoint = "ipc://\(NSTemporaryDirectory())pitchside-curve-\(getpid())"
        _ = try pull.bind(endpoint)
        let context = try ZMQContext(security: nil)
        defer { context.shutdown() }
        let push = try context.socket(.push)
        defer { push.close() }
        try push.connect(endpoint)
        _ = try push.send([Data("x".utf8)])
        XCTAssertNotNil(try pull.receive(timeout: 2), "one machine: no CURVE")
    }

    func testAConnectWithoutAServerKeyIsAClearError() throws {
        let context = try ZMQContext(security: TransportSecurity(keyPair: allowed, allowedClients: []))
        defer { context.shutdown() }
        let sub = try context.socket(.sub)
        defer { sub.close() }
        XCTAssertThrowsError(try sub.connect("tcp://127.0.0.1:5999")) { error in
            XCTAssertTrue("\(error)".contains("no server key is configured for tcp://127.0.0.1:5999"), "\(error)")
        }
    }

    func testKeyFilesRoundTripAndBadOnesAreClearErrors() throws {
        let dir = NSTemporaryDirectory() + "pitchside-keys-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pair = try CurveKeyPair.generate()
        let files = try pair.write(directory: dir, name: "court-1")
        XCTAssertEqual(try CurveKeyPair(secretKeyFile: files.secret), pair)
        XCTAssertEqual(try CurveKeys.read(files.public), pair.publicKey)
        let mode = try FileManager.default.attributesOfItem(atPath: files.secret)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600, "the secret key is readable by its owner only")
        XCTAssertThrowsError(try pair.write(directory: dir, name: "court-1")) { error in
            XCTAssertTrue("\(error)".contains("exists; not overwriting"), "\(error)")
        }
        try (try CurveKeyPair.generate()).write(directory: dir, name: "court-2")
        XCTAssertEqual(try CurveKeys.readPublicKeys([dir]).count, 2, "a directory gives every *.pub in it")

        let bad = dir + "/bad.pub"
        try "# comment\nnot-a-key\n".write(toFile: bad, atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try CurveKeys.read(bad)) { error in
            XCTAssertTrue("\(error)".contains("bad.pub: a CURVE key is 40 Z85 characters, not 9"), "\(error)")
        }
        XCTAssertThrowsError(try CurveKeys.readPublicKeys([dir + "/missing"])) { error in
            XCTAssertTrue("\(error)".contains("no such key file or directory"), "\(error)")
        }
    }
}

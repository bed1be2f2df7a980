import Foundation
import PitchsideCore
import PitchsideMedia
import XCTest

/// Network URLs go through libavformat's protocols: served here by a local HTTP server on loopback.
final class NetworkSourceTests: XCTestCase {
    func testDecodesAClipOverHTTP() throws {
        let directory = try TestClips.makeDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try TestClips.encode(to: directory.appendingPathComponent("clip.mp4"), frames: 20, fastStart: true)

        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        server.arguments = ["python3", "-u", "-m", "http.server", "--bind", "127.0.0.1", "--directory", directory.path, "0"]
        let output = Pipe()
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        do { try server.run() } catch { throw XCTSkip("python3 is not available to serve HTTP") }
        defer { server.terminate(); server.waitUntilExit() }

        // "Serving HTTP on 127.0.0.1 port 41713 (...)": read until the port shows up, for at most 20 s.
        var banner = ""
        let deadline = Date().addingTimeInterval(20)
        while !banner.contains("port "), Date() < deadline {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            banner += String(decoding: data, as: UTF8.self)
        }
        guard let range = banner.range(of: "port "),
              let port = Int(banner[range.upperBound...].prefix { $0.isNumber }) else {
            return XCTFail("no port in server banner: \(banner)")
        }

        var options = VideoSourceOptions()
        options.formatOptions = ["rw_timeout": "10000000"]  // never hang on a dead server
        let source = try VideoSource(url: "http://127.0.0.1:\(port)/clip.mp4", options: options)
        var count = 0
        while let picture = try source.nextPicture() {
            XCTAssertEqual(Double(picture.ptsUs), Double(count) * 1e6 / 30, accuracy: 1.0)
            count += 1
        }
        XCTAssertEqual(count, 20)

        XCTAssertThrowsError(try VideoSource(url: "http://127.0.0.1:\(port)/missing.mp4", options: options)) { error in
            guard case .notAVideo(_, let reason)? = error as? MediaError else { return XCTFail("got \(error)") }
            XCTAssertTrue(reason.contains("404"), reason)
        }
    }
}

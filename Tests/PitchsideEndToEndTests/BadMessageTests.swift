import Foundation
import PitchsideCore
import PitchsideTransport
import XCTest

/// Garbage on the wire is counted and skipped; the processes keep working.
final class BadMessageTests: XCTestCase {
    private func grayFrame(seq: UInt64, width: Int = 64, height: Int = 48) -> PSFrame {
        var image = ImageBuffer(width: width, height: height, layout: .gray8)
        for i in image.pixels.indices { image.pixels[i] = UInt8((i + Int(seq)) % 200) }
        let frame = VideoFrame(streamID: "default", seq: seq, ptsUs: Int64(seq) * 33_333, captureUnixUs: 1, image: image)
        return PSFrame(frame, rendition: "gray", producerID: "test", sourceWidth: width, sourceHeight: height, frameRate: 30)
    }

    func testAWorkerSkipsMalformedOversizedAndInconsistentFramesAndKeepsRunning() throws {
        let endpoints = Endpoints(basePort: TestPorts.base())
        let context = try ZMQContext()
        defer { context.shutdown() }
        let pub = try context.socket(.pub)
        defer { pub.close() }
        try pub.set(.linger, 0)
        _ = try pub.bind(endpoints.frames)
        let gate = try CreditGate(context: context, endpoint: endpoints.credits, publisher: pub)
        defer { gate.close() }
        let pull = try context.socket(.pull)
        defer { pull.close() }
        try pull.set(.linger, 0)
        _ = try pull.bind(endpoints.results)

        let worker = try ChildProcess(["worker", "trajectory", "--base-port", "\(endpoints.frames.split(separator: ":").last!)"])
        XCTAssertTrue(try gate.waitForConsumers(count: 1, timeout: 30), worker.stderr)

        let topic = Topic.frame(stream: "default", rendition: "gray")
        _ = try pub.send(topic: topic.string, payload: Data([0xFF, 0xFF, 0xFF, 0x07, 0x01]))      // not protobuf
        _ = try pub.send([Data(topic.string.utf8)])                                              // wrong part count
        var inconsistent = grayFrame(seq: 0)
        inconsistent.data = inconsistent.data.prefix(100)                                      // sizes do not add up
        _ = try pub.send(inconsistent, topic: topic)
        _ = try pub.send(topic: topic.string, payload: Data(count: 80 << 20))                     // oversized
        for seq in 1...5 { _ = try pub.send(grayFrame(seq: UInt64(seq)), topic: topic) }

        var done: [UInt64] = []
        var malformed: UInt64 = 0
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline && (done.count < 5 || malformed < 3) {
            try gate.pump(timeout: 0)
            guard let parts = try pull.receive(timeout: 0.1), let payload = parts.last,
                  let result = try? PSWorkerResult(serializedBytes: payload) else { continue }
            switch result.result {
            case .frameDone(let d)?: done.append(d.header.seq)
            case .heartbeat(let h)?: malformed = max(malformed, h.malformed)
            default: break
            }
        }
        XCTAssertEqual(done, [1, 2, 3, 4, 5], worker.stderr)
        XCTAssertGreaterThanOrEqual(malformed, 3, worker.stderr)
        XCTAssertTrue(worker.process.isRunning, "the worker must survive bad input")
        worker.signal(SIGTERM)
        XCTAssertEqual(worker.wait(timeout: 15), 0, worker.stderr)
    }

    func testTheAggregatorSkipsGarbageAndStillRunsTheGame() throws {
        let endpoints = Endpoints(basePort: TestPorts.base())
        let dir = try TestVideo.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let aggregator = try ChildProcess([
            "aggregate", "--database", dir.appendingPathComponent("g.sqlite").path, "--roles", "trajectory",
            "--base-port", "\(endpoints.frames.split(separator: ":").last!)", "--json",
        ])
        let context = try ZMQContext()
        defer { context.shutdown() }
        let push = try context.socket(.push)
        defer { push.close() }
        try push.set(.linger, 1000)
        try push.connect(endpoints.results)
        let topic = Topic.result(stream: "default", kind: "trajectory").string
        _ = try push.send(topic: topic, payload: Data("definitely not protobuf \u{1}\u{2}".utf8))
        _ = try push.send([Data(topic.utf8), Data([1]), Data([2])])
        _ = try push.send(topic: topic, payload: Data(count: 2 << 20))
        var unknown = PSWorkerResult()  // no stream id at all
        unknown.frameDone = PSFrameDone.with { $0.role = "trajectory" }
        _ = try push.send(unknown, topic: topic)
        for seq in 0..<3 {
            var done = PSWorkerResult()
            done.frameDone = PSFrameDone.with {
                $0.header = PSHeader.with { $0.streamID = "default"; $0.seq = UInt64(seq); $0.ptsUs = Int64(seq) * 33_333 }
                $0.role = "trajectory"
            }
            _ = try push.send(done, topic: topic)
        }
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline && !aggregator.stdout.contains("GAME_STATE_SETUP_CAMERA") { usleep(50_000) }
        XCTAssertTrue(aggregator.stdout.contains("GAME_STATE_SETUP_CAMERA"), aggregator.stderr)
        XCTAssertTrue(aggregator.process.isRunning)
        XCTAssertTrue(aggregator.stderr.contains("skipped a result"), aggregator.stderr)
        aggregator.signal(SIGTERM)
        XCTAssertEqual(aggregator.wait(timeout: 15), 0, aggregator.stderr)
        XCTAssertTrue(aggregator.stderr.contains("rejected"), aggregator.stderr)
    }
}

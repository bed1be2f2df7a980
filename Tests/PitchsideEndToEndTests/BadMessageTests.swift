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

        let worker = try ChildProcess([
            "worker", "trajectory", "--rendition", "gray", "--base-port", "\(endpoints.frames.split(separator: ":").last!)",
        ])
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

/// The aggregator's other bad inputs, over the wire: results of a stream it does not serve,
/// results out of media-time order, duplicates (plain and numbered), a gap in a worker's
/// numbering, and garbage queries. Each is refused or sorted out and counted; the game runs.
final class AggregatorInputTests: XCTestCase {
    private func frameDone(_ stream: String, seq: UInt64, role: String, producer: String? = nil) -> PSWorkerResult {
        PSWorkerResult.with {
            $0.frameDone = PSFrameDone.with {
                $0.header = PSHeader.with {
                    $0.streamID = stream
                    $0.seq = seq
                    $0.ptsUs = Int64(seq) * 33_333
                    $0.producerID = producer ?? role
                }
                $0.role = role
            }
        }
    }

    private func numbered(_ r: PSWorkerResult, seq: UInt64) -> PSWorkerResult {
        var r = r
        r.delivery = PSDelivery.with { $0.producerID = "trajectory"; $0.epoch = 77; $0.seq = seq; $0.retainedFrom = 1 }
        return r
    }

    func testUnknownStreamsOutOfOrderAndDuplicateResultsAndGarbageQueries() throws {
        let endpoints = Endpoints(basePort: TestPorts.base())
        let dir = try TestVideo.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let aggregator = try ChildProcess([
            "aggregate", "--database", dir.appendingPathComponent("g.sqlite").path, "--roles", "detection,trajectory",
            "--streams", "default", "--base-port", "\(endpoints.frames.split(separator: ":").last!)", "--json",
            "--log-level", "info",
        ])
        let context = try ZMQContext()
        defer { context.shutdown() }
        let push = try context.socket(.push)
        defer { push.close() }
        try push.set(.linger, 1000)
        try push.connect(endpoints.results)
        let topic = Topic.result(stream: "default", kind: "trajectory").string

        // Another stream: refused.
        for seq in 0..<3 { _ = try push.send(frameDone("cam9", seq: UInt64(seq), role: "trajectory"), topic: topic) }
        // Out of order: trajectory runs ahead of detection; nothing is released before detection catches up.
        for seq in 0..<4 { _ = try push.send(numbered(frameDone("default", seq: UInt64(seq), role: "trajectory"), seq: UInt64(seq + 1)), topic: topic) }
        _ = try push.send(numbered(frameDone("default", seq: 1, role: "trajectory"), seq: 2), topic: topic)  // numbered duplicate
        _ = try push.send(numbered(frameDone("default", seq: 9, role: "trajectory"), seq: 9), topic: topic)  // gap: 5…8 missing
        _ = try push.send(frameDone("default", seq: 0, role: "detection"), topic: topic)
        _ = try push.send(frameDone("default", seq: 0, role: "detection"), topic: topic)  // plain duplicate
        for seq in 1..<4 { _ = try push.send(frameDone("default", seq: UInt64(seq), role: "detection"), topic: topic) }
        // A second trajectory worker reporting frame 0 after it was released: late.
        _ = try push.send(frameDone("default", seq: 0, role: "trajectory", producer: "trajectory-b"), topic: topic)

        // Garbage and bad questions on the query endpoint get an error each; good ones an answer.
        let query = try context.socket(.dealer)
        defer { query.close() }
        try query.set(.linger, 0)
        try query.connect(endpoints.queries)
        func ask(_ payload: Data) throws -> PSQueryReply? {
            _ = try query.send([payload])
            guard let parts = try query.receive(timeout: 15), let last = parts.last else { return nil }
            return try PSQueryReply(serializedBytes: last)
        }
        let garbage = try XCTUnwrap(try ask(Data("no protobuf here \u{7}".utf8)), aggregator.stderr)
        XCTAssertTrue(garbage.error.contains("does not decode"), "\(garbage)")
        let unknown = try XCTUnwrap(try ask(try PSQueryRequest.with { $0.snapshot.streamID = "cam9" }.serializedData()))
        XCTAssertTrue(unknown.error.contains("unknown stream"), "\(unknown)")
        let empty = try XCTUnwrap(try ask(try PSQueryRequest().serializedData()))
        XCTAssertEqual(empty.error, "empty query")

        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline && !aggregator.stdout.contains("GAME_STATE_DETECTING_BOARD") { usleep(50_000) }
        let started = aggregator.stdout.components(separatedBy: "\n").filter { !$0.isEmpty }
        XCTAssertEqual(started.count, 2, "the game of the served stream started: \(aggregator.stdout)\n\(aggregator.stderr)")
        XCTAssertTrue(started.first?.contains("\"eventSeq\":\"1\"") ?? false)
        let snapshot = try XCTUnwrap(try ask(try PSQueryRequest.with { $0.snapshot.streamID = "default" }.serializedData()))
        XCTAssertEqual(snapshot.snapshot.games.first?.lastEventSeq, 2)
        XCTAssertTrue(aggregator.process.isRunning)

        aggregator.signal(SIGTERM)
        XCTAssertEqual(aggregator.wait(timeout: 15), 0, aggregator.stderr)
        let log = aggregator.stderr
        XCTAssertTrue(log.contains("refusing results of stream cam9"), log)
        XCTAssertTrue(log.contains("3 rejected"), log)
        XCTAssertTrue(log.contains("1 late"), log)
        XCTAssertTrue(log.contains("1 redelivered, 1 out of sequence"), log)
        XCTAssertTrue(log.contains("duplicates: 1"), "the plain duplicate is dropped by the merger: \(log)")
        XCTAssertTrue(log.contains("released: 8, late: 1"), "frames 0…3 of both roles, in order: \(log)")
        XCTAssertTrue(log.contains("handled: 9"), "the late one is still handed to the game: \(log)")
    }
}

import Foundation
import PitchsideCore
import PitchsideTransport
import XCTest

/// The C score-stream client (`clients/c/pitchside-scores`, libzmq + protobuf-c) built with
/// `cc` through its Makefile and run against real Pitchside publishers.
final class CScoreClientTests: XCTestCase {
    private var dir: URL!
    private var client: String!
    /// Built once for the whole class (into its own directory, removed at the end).
    nonisolated(unsafe) private static var built: Result<(URL, String), Error>?

    override class func tearDown() {
        if case .success(let (dir, _))? = built { try? FileManager.default.removeItem(at: dir) }
        built = nil
    }

    override func setUpWithError() throws {
        if Self.built == nil {
            Self.built = Result {
                let dir = try TestVideo.temporaryDirectory()
                return (dir, try CScoreClient.build(into: dir))
            }
        }
        client = try Self.built!.get().1
        dir = try TestVideo.temporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    /// A real aggregator plays a scripted game (worker results pushed to it); the C client
    /// prints exactly the events the aggregator published, in order, every kind included.
    func testTheCClientPrintsEveryEventTheAggregatorPublishes() throws {
        let base = TestPorts.base()
        let endpoints = Endpoints(basePort: base)
        let aggregator = try ChildProcess([
            "aggregate", "--database", dir.appendingPathComponent("games.sqlite").path,
            "--base-port", "\(base)", "--json",
        ])
        defer { if aggregator.process.isRunning { aggregator.signal(SIGTERM); aggregator.wait(timeout: 10) } }
        let scores = try ChildProcess(["-e", endpoints.events], executable: client)
        defer { if scores.process.isRunning { scores.signal(SIGTERM); scores.wait(timeout: 10) } }
        try CScoreClient.waitUntilConnected(scores)

        let context = try ZMQContext()
        defer { context.shutdown() }
        let push = try context.socket(.push)
        defer { push.close() }
        try push.set(.linger, 2000)
        try push.connect(endpoints.results)
        let script = GameScript()
        let topic = Topic.result(stream: script.stream, kind: "scripted")
        for result in script.results(throws: GameScript.appleGame(), frames: 830) {
            _ = try push.send(result, topic: topic)
        }
        for role in ["detection", "trajectory", "pose"] {
            var end = script.frameDone(830, role: role)
            end.frameDone.endOfStream = true
            _ = try push.send(end, topic: topic)
        }

        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && !aggregator.stderr.contains("stream cam1 ended") { usleep(50_000) }
        XCTAssertTrue(aggregator.stderr.contains("stream cam1 ended"), aggregator.stderr)
        aggregator.signal(SIGTERM)
        XCTAssertEqual(aggregator.wait(timeout: 15), 0, aggregator.stderr)
        let published = aggregator.stdout.split(separator: "\n").map(String.init)
        while Date() < deadline && scores.stdout.split(separator: "\n").count < published.count { usleep(50_000) }
        scores.signal(SIGTERM)
        XCTAssertEqual(scores.wait(timeout: 10), 0, scores.stderr)

        let expected = try published.map { try CScoreClient.expectedLine(json: $0) }
        let printed = scores.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(printed.count, expected.count, scores.stderr)
        for (got, want) in zip(printed, expected) where got != want {
            XCTFail("C client printed\n  \(got)\nfor the published event\n  \(want)")
        }
        for kind in [" state ", " throw ", " score ", " summary "] {
            XCTAssertTrue(printed.contains { $0.contains(kind) }, "no\(kind)event among \(printed.count) lines")
        }
        XCTAssertEqual(printed.filter { $0.contains(" throw ") }.count, 8)
        XCTAssertTrue(scores.stderr.contains("\(published.count) event(s), 0 malformed"), scores.stderr)
    }

    /// Garbage on the score stream is reported, counted and skipped; valid events around it
    /// are printed; strings that are not plain words are quoted and escaped; `-s` filters.
    func testTheCClientSkipsMalformedMessagesAndKeepsPrinting() throws {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let pub = try context.socket(.pub)
        defer { pub.close() }
        try pub.set(.linger, 1000)
        let endpoint = try pub.bind("tcp://127.0.0.1:*")
        let scores = try ChildProcess(["-e", endpoint, "-s", "cam1", "-n", "5"], executable: client)
        defer { if scores.process.isRunning { scores.signal(SIGTERM); scores.wait(timeout: 10) } }
        try CScoreClient.waitUntilConnected(scores)

        func event(_ seq: UInt64, stream: String = "cam1", _ fill: (inout PSGameEvent) -> Void) -> PSGameEvent {
            var e = PSGameEvent()
            e.streamID = stream
            e.eventSeq = seq
            e.gameIndex = 1
            e.ptsUs = Int64(seq) * 1000
            fill(&e)
            return e
        }
        let state = event(1) {
            $0.stateChanged = PSStateChanged.with { $0.from = .inactive; $0.to = .setupCamera; $0.reason = "say \"hi\"\n" }
        }
        var throwDone = PSThrowCompleted()
        throwDone.throwIndex = 1
        throwDone.player = "Ann Lee"
        throwDone.type = .underleg
        throwDone.outcome = .hole
        throwDone.points = 15
        throwDone.releaseSpeedMps = 4.567
        throwDone.launchAngleDeg = 31.25
        throwDone.releaseAngleDeg = -12.04
        throwDone.confirmedByCensus = true
        let throwEvent = event(2) { $0.throwCompleted = throwDone }
        let score = event(3) {
            $0.scoreUpdate = PSScoreUpdate.with {
                $0.mode = .apple
                $0.throwCount = 1
                $0.scores = [PSPlayerScore.with { $0.player = "Ann Lee"; $0.score = 15 }]
            }
        }
        let summary = event(4) {
            $0.summary = PSGameSummary.with {
                $0.mode = .apple
                $0.winner = "Ann Lee"
                $0.maxScore = 40
                $0.averageSpeedMph = 10.2
                $0.throws = [throwDone]
                $0.scores = [PSPlayerScore.with { $0.player = "Ann Lee"; $0.score = 15 }]
            }
        }
        // A newer publisher's event: an unknown field and no event this schema knows.
        var newer = try event(5) { _ in }.serializedData()
        newer.append(contentsOf: [0xA2, 0x06, 0x03, 0x61, 0x62, 0x63])  // field 100, length-delimited "abc"
        let topic = "game/cam1/state"
        let full = try summary.serializedData()

        _ = try pub.send(state, topic: topic)
        _ = try pub.send(topic: topic, payload: Data([0xFF, 0xFF, 0xFF, 0x07, 0x01]))   // not protobuf
        _ = try pub.send([Data(topic.utf8)])                                             // one part
        _ = try pub.send([Data(topic.utf8), Data([1]), Data([2])])                       // three parts
        _ = try pub.send(topic: topic, payload: full.prefix(full.count - 3))             // truncated
        _ = try pub.send(topic: topic, payload: Data(count: 5 << 20))                    // oversized
        _ = try pub.send(event(9, stream: "cam10") { $0.scoreUpdate = PSScoreUpdate() }, topic: "game/cam10/score")  // filtered out
        _ = try pub.send(throwEvent, topic: "game/cam1/throw")
        _ = try pub.send(score, topic: "game/cam1/score")
        _ = try pub.send(summary, topic: "game/cam1/summary")
        _ = try pub.send(topic: topic, payload: newer)

        XCTAssertEqual(scores.wait(timeout: 20), 0, "exits after -n 5 events; stderr: \(scores.stderr)")
        XCTAssertEqual(scores.stdout.split(separator: "\n").map(String.init), [
            #"cam1 #1 game=1 pts=1000 state INACTIVE -> SETUP_CAMERA stage=UNSPECIFIED reason="say \"hi\"\x0a""#,
            #"cam1 #2 game=1 pts=2000 throw 1 player="Ann Lee" type=UNDERLEG outcome=HOLE points=15 speed=4.57m/s launch=31.2deg release=-12.0deg census=yes inning=0"#,
            #"cam1 #3 game=1 pts=3000 score mode=APPLE throws=1 inning=0 "Ann Lee"=15"#,
            #"cam1 #4 game=1 pts=4000 summary mode=APPLE winner="Ann Lee" max=40 throws=1 avg_mph=10.2 "Ann Lee"=15"#,
            #"cam1 #5 game=1 pts=5000 other"#,
        ], scores.stderr)
        let stderr = scores.stderr
        XCTAssertTrue(stderr.contains("5 event(s), 5 malformed message(s) skipped"), stderr)
        XCTAssertTrue(stderr.contains("does not decode as pitchside.v1.GameEvent"), stderr)
        XCTAssertTrue(stderr.contains("skipped a message of 1 part(s)"), stderr)
        XCTAssertTrue(stderr.contains("skipped a message of 3 part(s)"), stderr)
        XCTAssertTrue(stderr.contains("skipped an oversized message"), stderr)
    }

    func testBadUsageAndABadEndpointGiveOneClearErrorLine() throws {
        let badCount = try ChildProcess(["-n", "zero"], executable: client)
        XCTAssertEqual(badCount.wait(timeout: 10), 2)
        XCTAssertTrue(badCount.stderr.contains("pitchside-scores: error: -n needs a positive count"), badCount.stderr)
        let badEndpoint = try ChildProcess(["-e", "nonsense"], executable: client)
        XCTAssertEqual(badEndpoint.wait(timeout: 10), 1)
        XCTAssertTrue(badEndpoint.stderr.contains("pitchside-scores: error: cannot connect to nonsense"), badEndpoint.stderr)
    }
}

/// Building the C client, and the line it prints for an event (the format documented in
/// clients/c/pitchside-scores.c), computed here from the Swift decoding of the same event.
enum CScoreClient {
    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }

    static let sourceDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("clients/c")

    /// `make -C clients/c OUT=<dir>/pitchside-scores`; fails the test with the compiler's output.
    static func build(into dir: URL) throws -> String {
        let out = dir.appendingPathComponent("pitchside-scores").path
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["make", "-s", "-C", sourceDirectory.path, "OUT=\(out)"]
        let pipe = Pipe()
        make.standardOutput = pipe
        make.standardError = pipe
        try make.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        make.waitUntilExit()
        guard make.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: out) else {
            throw Failure(message: "building the C client failed (ops/setup installs libzmq3-dev and libprotobuf-c-dev):\n\(output)")
        }
        return out
    }

    /// Waits for the client's "connected" line, then a moment for its subscription to reach the PUB.
    static func waitUntilConnected(_ client: ChildProcess, timeout: Double = 20) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline && !client.stderr.contains("pitchside-scores: connected to") { usleep(20_000) }
        guard client.stderr.contains("pitchside-scores: connected to") else {
            throw Failure(message: "pitchside-scores never connected: \(client.stderr)")
        }
        usleep(300_000)
    }

    /// The line for one event of the aggregator's `--json` output: numbers from the decoded
    /// message, enum names from the JSON (protobuf's JSON mapping spells them as in the schema).
    static func expectedLine(json line: String) throws -> String {
        let event = try PSGameEvent(jsonString: line)
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        func name(_ body: String, _ field: String, prefix: String) -> String {
            guard let value = (object[body] as? [String: Any])?[field] else { return "UNSPECIFIED" }
            if let text = value as? String { return text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text }
            return "\(value)"
        }
        func scores(_ list: [PSPlayerScore]) -> String { list.map { " \(text($0.player))=\($0.score)" }.joined() }
        var out = "\(text(event.streamID)) #\(event.eventSeq) game=\(event.gameIndex) pts=\(event.ptsUs) "
        switch event.event {
        case .stateChanged(let s):
            out += "state \(name("stateChanged", "from", prefix: "GAME_STATE_")) -> \(name("stateChanged", "to", prefix: "GAME_STATE_"))"
            out += " stage=\(name("stateChanged", "setupStage", prefix: "SETUP_STAGE_")) reason=\(text(s.reason))"
        case .throwCompleted(let t):
            out += "throw \(t.throwIndex) player=\(text(t.player)) type=\(name("throwCompleted", "type", prefix: "THROW_TYPE_"))"
            out += " outcome=\(name("throwCompleted", "outcome", prefix: "THROW_OUTCOME_")) points=\(t.points)"
            out += String(format: " speed=%.2fm/s launch=%.1fdeg release=%.1fdeg", t.releaseSpeedMps, t.launchAngleDeg, t.releaseAngleDeg)
            out += " census=\(t.confirmedByCensus ? "yes" : "no") inning=\(t.inning)"
        case .scoreUpdate(let s):
            out += "score mode=\(name("scoreUpdate", "mode", prefix: "SCORING_MODE_")) throws=\(s.throwCount) inning=\(s.inning)\(scores(s.scores))"
        case .summary(let s):
            out += "summary mode=\(name("summary", "mode", prefix: "SCORING_MODE_")) winner=\(text(s.winner)) max=\(s.maxScore)"
            out += " throws=\(s.throws.count)" + String(format: " avg_mph=%.1f", s.averageSpeedMph) + scores(s.scores)
        case nil:
            out += "other"
        }
        return out
    }

    /// A plain word as is, anything else quoted with \" \\ \xNN escapes (as the C client does).
    static func text(_ s: String) -> String {
        let plain = !s.isEmpty && s.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x5F || b == 0x3A || b == 0x2D
        }
        if plain { return s }
        var out = "\""
        for b in s.utf8 {
            if b == 0x22 || b == 0x5C { out += "\\" + String(UnicodeScalar(b)) }
            else if b < 0x20 || b >= 0x7F { out += String(format: "\\x%02x", b) }
            else { out += String(UnicodeScalar(b)) }
        }
        return out + "\""
    }
}

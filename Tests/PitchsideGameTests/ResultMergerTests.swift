import PitchsideCore
import SwiftProtobuf
import XCTest
@testable import PitchsideGame

final class ResultMergerTests: XCTestCase {
    let roles: Set<String> = ["detection", "trajectory", "pose"]
    let script = GameScript()

    private func pts(_ rs: [PSWorkerResult]) -> [Int64] { rs.compactMap { $0.resultHeader?.ptsUs } }

    func testReleasesInPtsOrderOnceEveryRoleIsDone() {
        var m = ResultMerger(expectedRoles: roles)
        // The pose worker is behind: frames 1 and 0 arrive reversed.
        var out: [PSWorkerResult] = []
        out += m.add(script.board(1)).released
        out += m.add(script.pose(1, type: nil, k: 0)).released
        out += m.add(script.board(0)).released
        out += m.add(script.frameDone(0, role: "detection")).released
        out += m.add(script.frameDone(1, role: "detection")).released
        out += m.add(script.frameDone(1, role: "trajectory")).released
        XCTAssertTrue(out.isEmpty, "pose has not finished frame 0")
        out += m.add(script.pose(0, type: nil, k: 0)).released
        out += m.add(script.frameDone(0, role: "pose")).released
        XCTAssertEqual(pts(out), pts(out).sorted())
        XCTAssertEqual(pts(out).max(), 0, "frame 1 waits for pose")
        out += m.add(script.frameDone(1, role: "pose")).released
        XCTAssertEqual(pts(out), pts(out).sorted())
        XCTAssertEqual(out.count, 9)
        XCTAssertEqual(m.buffered(stream: "cam1"), 0)
        XCTAssertEqual(m.total.late, 0)
    }

    func testDuplicatesAreDroppedAndCounted() {
        var m = ResultMerger(expectedRoles: ["detection"])
        XCTAssertNil(m.add(script.board(0)).rejected)
        XCTAssertEqual(m.add(script.board(0)).rejected, .duplicate, "duplicate while buffered")
        _ = m.add(script.frameDone(0, role: "detection"))
        XCTAssertEqual(m.add(script.board(0)).rejected, .duplicate, "duplicate after release")
        XCTAssertEqual(m.add(script.frameDone(0, role: "detection")).rejected, .duplicate)
        XCTAssertEqual(m.total.duplicates, 3)
        XCTAssertEqual(m.total.released, 2)
        // Two trajectory observations of one frame are different results.
        var m2 = ResultMerger(expectedRoles: ["trajectory"])
        let bag = script.flight(from: GameScript.release, to: GameScript.hole, startFrame: 0, frames: 30)
        let a = script.trajectory(uuid: "a", points: bag, upTo: 20)
        let b = script.trajectory(uuid: "b", points: bag, upTo: 20)
        XCTAssertNil(m2.add(a).rejected)
        XCTAssertNil(m2.add(b).rejected)
    }

    func testLateResultsAreCountedAndHandedBack() {
        var m = ResultMerger(expectedRoles: ["detection"])
        _ = m.add(script.board(5))
        _ = m.add(script.frameDone(5, role: "detection"))
        let out = m.add(script.board(3))
        XCTAssertEqual(out.late.count, 1)
        XCTAssertTrue(out.released.isEmpty)
        XCTAssertEqual(m.total.late, 1)
        XCTAssertEqual(m.perStream["cam1"]?.late, 1)
        // The same late result again is a duplicate, not a second late one.
        XCTAssertEqual(m.add(script.board(3)).rejected, .duplicate)
    }

    func testUnknownAndMissingStreamsAreRejected() {
        var m = ResultMerger(expectedRoles: roles, knownStreams: ["cam1"])
        var other = GameScript()
        other.stream = "cam9"
        XCTAssertEqual(m.add(other.board(0)).rejected, .unknownStream)
        var empty = GameScript()
        empty.stream = ""
        XCTAssertEqual(m.add(empty.board(0)).rejected, .missingStream)
        var heartbeat = PSWorkerResult()
        heartbeat.heartbeat = PSHeartbeat()
        XCTAssertEqual(m.add(heartbeat).rejected, .ignored)
        XCTAssertEqual(m.add(PSWorkerResult()).rejected, .ignored)
        XCTAssertEqual(m.total.unknownStream, 1)
        XCTAssertEqual(m.total.missingStream, 1)
        XCTAssertEqual(m.total.ignored, 2)
        XCTAssertEqual(m.total.accepted, 0)
    }

    func testDeadWorkerDoesNotStallTheStream() {
        var m = ResultMerger(expectedRoles: ["detection", "pose"], maxBuffered: 10)
        var released: [PSWorkerResult] = []
        for f in 0..<30 {
            released += m.add(script.board(f)).released
            released += m.add(script.frameDone(f, role: "detection")).released
        }
        XCTAssertGreaterThan(released.count, 30, "released despite a silent pose worker")
        XCTAssertEqual(pts(released), pts(released).sorted())
        XCTAssertEqual(m.laggingRoles(stream: "cam1"), ["pose"])
        XCTAssertGreaterThan(m.total.forcedReleases, 0)
        // Once lagging, the role is left out of the watermark: results flow without forcing.
        let forced = m.total.forcedReleases
        released = m.add(script.board(30)).released + m.add(script.frameDone(30, role: "detection")).released
        XCTAssertEqual(pts(released).last, 30 * GameScript.frameUs)
        XCTAssertEqual(m.total.forcedReleases, forced)
        XCTAssertLessThanOrEqual(m.buffered(stream: "cam1"), 10)
    }

    func testShuffledGameGivesTheSameEventsAsAnOrderedOne() {
        let results = script.results(throws: Array(GameScript.appleGame().prefix(2)), frames: 280)
        var ordered = Game(streamID: "cam1", classifier: GameScript.classifier)
        let expected = play(&ordered, results)
        // Workers race each other: interleave the three producers' queues at
        // random (each producer's own order is kept, as one PUSH socket keeps
        // it), and re-send some results.
        var queues: [[PSWorkerResult]] = [[], [], []]
        for r in results {
            switch r.result {
            case .pose: queues[2].append(r)
            case .trajectory: queues[1].append(r)
            case .frameDone(let d): queues[d.role == "pose" ? 2 : d.role == "trajectory" ? 1 : 0].append(r)
            default: queues[0].append(r)
            }
        }
        var rng = SplitMix(seed: 7)
        var shuffled: [PSWorkerResult] = []
        var heads = [0, 0, 0]
        while heads.enumerated().contains(where: { $0.element < queues[$0.offset].count }) {
            // Pick a producer in proportion to what it has left, so all three
            // advance at about the same frame rate (within the buffer's bounds).
            let left = (0..<3).map { queues[$0].count - heads[$0] }
            var pick = Int(rng.next() % UInt64(left.reduce(0, +)))
            var q = 0
            while pick >= left[q] { pick -= left[q]; q += 1 }
            shuffled.append(queues[q][heads[q]])
            if rng.next() % 50 == 0 { shuffled.append(queues[q][heads[q]]) }
            heads[q] += 1
        }
        var m = ResultMerger(expectedRoles: roles, knownStreams: ["cam1"])
        var game = Game(streamID: "cam1", classifier: GameScript.classifier)
        var events: [PSGameEvent] = []
        for r in shuffled {
            let out = m.add(r)
            for x in out.released { events += game.handle(x) }
        }
        for x in m.flush(stream: "cam1") { events += game.handle(x) }
        XCTAssertGreaterThan(m.total.duplicates, 0)
        XCTAssertEqual(m.total.late, 0)
        XCTAssertEqual(events.throwEvents.map(\.points), expected.throwEvents.map(\.points))
        XCTAssertEqual(events.count, expected.count)
    }

    func testGarbageBytesAreRefused() {
        XCTAssertEqual(ResultDecoder.decode([0xFF, 0xFF, 0xFF, 0xFF]).failureValue.map { "\($0)" }?.contains("decode"), true)
        if case .failure(.empty) = ResultDecoder.decode([]) {} else { XCTFail("empty message must be refused") }
        if case .failure(.oversized) = ResultDecoder.decode([UInt8](repeating: 0, count: ResultDecoder.maxBytes + 1)) {} else {
            XCTFail("oversized message must be refused")
        }
        let good: [UInt8] = try! script.board(3).serializedBytes()
        if case .success(let r) = ResultDecoder.decode(good) {
            XCTAssertEqual(r.resultHeader?.seq, 3)
        } else {
            XCTFail("valid result must decode")
        }
        // A game given a result for another stream or without a header ignores it.
        var game = Game(streamID: "cam1", classifier: GameScript.classifier)
        var other = GameScript()
        other.stream = "cam2"
        XCTAssertTrue(game.handle(other.board(0)).isEmpty)
        XCTAssertTrue(game.handle(PSWorkerResult()).isEmpty)
        XCTAssertEqual(game.counters.wrongStream, 1)
        XCTAssertEqual(game.counters.headerless, 1)
    }
}

extension Result {
    var failureValue: Failure? { if case .failure(let f) = self { return f } else { return nil } }
}

/// A small deterministic generator for shuffles.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

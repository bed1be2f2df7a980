import Foundation
import PitchsideCore
import PitchsidePose
import PitchsideTransport
import XCTest

/// Two pose worker processes sharding one stream by frame take every frame exactly once; a
/// worker with `--every N` analyses every N-th frame of a clip with nobody in it and reports every frame done.
final class PoseShardingTests: XCTestCase {
    func testEveryThirdFrameWithNobodyInView() throws {
        try XCTSkipUnless(PoseAssets.default().isAvailable, "pose model not fetched (run ops/setup)")
        let dir = try TestVideo.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("clip.mp4").path
        try TestVideo.write(to: video, width: 320, height: 240, frames: 24)
        let base = TestPorts.base()
        let context = try ZMQContext()
        defer { context.shutdown() }
        let pull = try context.socket(.pull)
        defer { pull.close() }
        try pull.set(.linger, 0)
        _ = try pull.bind(Endpoints(basePort: base).results)

        let worker = try ChildProcess(["worker", "pose", "--every", "3", "--exit-at-end", "--base-port", "\(base)"])
        let capture = try ChildProcess(["capture", "--input", video, "--pacing", "lockstep", "--consumers", "1",
                                        "--quiet", "--base-port", "\(base)"])
        var posed: [UInt64] = [], done: Set<UInt64> = []
        var ended = false
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline && !ended {
            guard let parts = try pull.receive(timeout: 0.2), let payload = parts.last,
                  let result = try? PSWorkerResult(serializedBytes: payload) else { continue }
            switch result.result {
            case .pose(let pose)?: posed.append(pose.header.seq)
            case .frameDone(let d)? where d.endOfStream: ended = true
            case .frameDone(let d)?: done.insert(d.header.seq)
            default: break
            }
        }
        XCTAssertEqual(capture.wait(timeout: 60), 0, capture.stderr)
        XCTAssertEqual(worker.wait(timeout: 30), 0, worker.stderr)
        XCTAssertEqual(posed.sorted(), Array(stride(from: UInt64(0), to: 24, by: 3)), "nobody in view: every third frame")
        XCTAssertEqual(done, Set((0..<24).map(UInt64.init)), "every frame reported done, analysed or not")
    }

    func testTwoShardsCoverEveryFrameExactlyOnce() throws {
        try XCTSkipUnless(PoseAssets.default().isAvailable, "pose model not fetched (run ops/setup)")
        let dir = try TestVideo.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let video = dir.appendingPathComponent("clip.mp4").path
        try TestVideo.write(to: video, width: 320, height: 240, frames: 24)
        let base = TestPorts.base()
        let endpoints = Endpoints(basePort: base)
        let context = try ZMQContext()
        defer { context.shutdown() }
        let pull = try context.socket(.pull)
        defer { pull.close() }
        try pull.set(.linger, 0)
        _ = try pull.bind(endpoints.results)

        let shards = try (0..<2).map { k in
            try ChildProcess(["worker", "pose", "--shard", "\(k)/2", "--exit-at-end", "--base-port", "\(base)"])
        }
        let capture = try ChildProcess(["capture", "--input", video, "--pacing", "lockstep", "--consumers", "2",
                                        "--quiet", "--base-port", "\(base)"])
        var seen: [UInt64: [UInt32]] = [:]
        var ended = 0
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline && ended < 2 {
            guard let parts = try pull.receive(timeout: 0.2), let payload = parts.last,
                  let result = try? PSWorkerResult(serializedBytes: payload) else { continue }
            switch result.result {
            case .pose(let pose)?:
                seen[pose.header.seq, default: []].append(pose.shardIndex)
                XCTAssertEqual(pose.shardCount, 2)
                XCTAssertEqual(UInt32(pose.header.seq % 2), pose.shardIndex)
            case .frameDone(let done)? where done.endOfStream:
                ended += 1
            default:
                break
            }
        }
        XCTAssertEqual(capture.wait(timeout: 60), 0, capture.stderr)
        for shard in shards { XCTAssertEqual(shard.wait(timeout: 30), 0, shard.stderr) }
        XCTAssertEqual(Set(seen.keys), Set((0..<24).map(UInt64.init)), "every frame has a pose observation")
        XCTAssertTrue(seen.values.allSatisfy { $0.count == 1 }, "no frame was taken twice: \(seen.filter { $0.value.count != 1 })")
    }
}

import Foundation
import PitchsideCore
import PitchsidePose
import PitchsideTransport
import XCTest

/// Two pose worker processes sharding one stream by frame take every frame exactly once; a
/// worker with `--every N` analyses every N-th frame of a clip with nobody in it and reports every frame done.
final class PoseShardingTests: XCTestCase {
    /// A 24-frame clip with nobody in it, pose workers on it in lockstep, and what they push.
    private struct Rig {
        static let frames = 24
        let dir: URL
        let video: String
        let base = TestPorts.base()
        let context: ZMQContext
        let pull: ZMQSocket

        init() throws {
            dir = try TestVideo.temporaryDirectory()
            video = dir.appendingPathComponent("clip.mp4").path
            try TestVideo.write(to: video, width: 320, height: 240, frames: Self.frames)
            context = try ZMQContext()
            pull = try context.socket(.pull)
            try pull.set(.linger, 0)
            _ = try pull.bind(Endpoints(basePort: base).results)
        }

        func close() {
            pull.close()
            context.shutdown()
            try? FileManager.default.removeItem(at: dir)
        }

        /// Runs the workers (`pitchside` arguments each) against a lockstep capture of the clip and
        /// returns every result they push until each has sent its end of stream.
        func run(workers: [[String]]) throws -> [PSWorkerResult] {
            let children = try workers.map { try ChildProcess($0 + ["--exit-at-end", "--base-port", "\(base)"]) }
            let capture = try ChildProcess(["capture", "--input", video, "--pacing", "lockstep", "--consumers", "\(workers.count)",
                                            "--quiet", "--base-port", "\(base)"])
            var results: [PSWorkerResult] = []
            var ended = 0
            let deadline = Date().addingTimeInterval(120)
            while Date() < deadline && ended < workers.count {
                guard let parts = try pull.receive(timeout: 0.2), let payload = parts.last,
                      let result = try? PSWorkerResult(serializedBytes: payload) else { continue }
                if case .frameDone(let done)? = result.result, done.endOfStream { ended += 1 }
                results.append(result)
            }
            XCTAssertEqual(capture.wait(timeout: 60), 0, capture.stderr)
            for child in children { XCTAssertEqual(child.wait(timeout: 30), 0, child.stderr) }
            return results
        }
    }

    func testEveryThirdFrameWithNobodyInView() throws {
        try XCTSkipUnless(PoseAssets.default().isAvailable, "pose model not fetched (run ops/setup)")
        let rig = try Rig()
        defer { rig.close() }
        var posed: [UInt64] = [], done: Set<UInt64> = []
        for result in try rig.run(workers: [["worker", "pose", "--every", "3"]]) {
            switch result.result {
            case .pose(let pose)?: posed.append(pose.header.seq)
            case .frameDone(let d)? where !d.endOfStream: done.insert(d.header.seq)
            default: break
            }
        }
        XCTAssertEqual(posed.sorted(), Array(stride(from: UInt64(0), to: UInt64(Rig.frames), by: 3)), "nobody in view: every third frame")
        XCTAssertEqual(done, Set((0..<Rig.frames).map(UInt64.init)), "every frame reported done, analysed or not")
    }

    func testTwoShardsCoverEveryFrameExactlyOnce() throws {
        try XCTSkipUnless(PoseAssets.default().isAvailable, "pose model not fetched (run ops/setup)")
        let rig = try Rig()
        defer { rig.close() }
        var seen: [UInt64: [UInt32]] = [:]
        for result in try rig.run(workers: (0..<2).map { ["worker", "pose", "--shard", "\($0)/2"] }) {
            guard case .pose(let pose)? = result.result else { continue }
            seen[pose.header.seq, default: []].append(pose.shardIndex)
            XCTAssertEqual(pose.shardCount, 2)
            XCTAssertEqual(UInt32(pose.header.seq % 2), pose.shardIndex)
        }
        XCTAssertEqual(Set(seen.keys), Set((0..<Rig.frames).map(UInt64.init)), "every frame has a pose observation")
        XCTAssertTrue(seen.values.allSatisfy { $0.count == 1 }, "no frame was taken twice: \(seen.filter { $0.value.count != 1 })")
    }
}

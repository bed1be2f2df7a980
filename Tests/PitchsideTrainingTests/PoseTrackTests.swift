import Foundation
import PitchsideCore
import PitchsideSynth
import XCTest
@testable import PitchsideTraining

final class PoseTrackTests: XCTestCase {
    private func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("poses-\(UUID().uuidString).jsonl")
    }

    private func observation(seq: UInt64, present: Bool) -> PSPoseObservation {
        var o = PSPoseObservation()
        o.header.seq = seq
        o.header.ptsUs = Int64(seq) * 33_333
        o.header.frameWidth = 1280
        o.header.frameHeight = 720
        guard present else { return o }
        o.present = true
        o.presence = 0.97
        o.joints = JointName.allCases.enumerated().map { k, name in
            var j = PSJoint()
            j.name = name.rawValue
            j.position.x = 0.2 + Double(k) * 0.01 + Double(seq) * 1e-4
            j.position.y = 0.5 - Double(k) * 0.01
            j.confidence = 0.9
            return j
        }
        o.personBox.x = 0.1
        o.personBox.y = 0.3
        o.personBox.width = 0.1
        o.personBox.height = 0.4
        return o
    }

    func testRecordsRoundTripThroughTheFile() throws {
        var observations = (0..<20).map { observation(seq: UInt64($0), present: $0 % 5 != 2) }
        // A second person in some frames (a waiting player).
        for i in [3, 4, 9] {
            var other = PSPersonPose()
            other.presence = 0.8
            other.joints = observations[i].joints.map { j in
                var j = j
                j.position.x += 0.3
                return j
            }
            other.personBox = observations[i].personBox
            other.personBox.x += 0.3
            observations[i].others = [other]
        }
        let track = PoseTrack(
            header: .init(video: "game.mp4", videoWidth: 1280, videoHeight: 720, rendition: "rgb", frames: 20),
            records: observations.map(PoseRecord.init))
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        try track.write(to: url)
        let read = try PoseTrack.read(from: url)
        XCTAssertEqual(read, track)
        let back = read.observations()
        XCTAssertEqual(back.map(\.present), observations.map(\.present))
        XCTAssertEqual(back[3].joints.map(\.name), JointName.allCases.map(\.rawValue))
        XCTAssertEqual(back[3].joints[4].position.x, observations[3].joints[4].position.x, accuracy: 1e-5)
        XCTAssertEqual(back[3].personBox.height, 0.4, accuracy: 1e-9)
        XCTAssertEqual(back[3].header.frameWidth, 1280)
        XCTAssertEqual(back.map(\.others.count), observations.map(\.others.count))
        XCTAssertEqual(back[9].others[0].joints.map(\.name), JointName.allCases.map(\.rawValue))
        XCTAssertEqual(back[9].others[0].joints[4].position.x, observations[9].others[0].joints[4].position.x, accuracy: 1e-5)
        XCTAssertEqual(back[9].others[0].personBox.x, 0.4, accuracy: 1e-9)
        XCTAssertEqual(back[9].others[0].presence, 0.8, accuracy: 1e-9)
    }

    func testATrackWithoutAnyPoseIsRefused() throws {
        let nobody = (0..<10).map { observation(seq: UInt64($0), present: false) }
        let empty = PoseTrack(header: .init(video: "game.mp4", videoWidth: 1280, videoHeight: 720, rendition: "rgb", frames: 10),
                              records: nobody.map(PoseRecord.init))
        XCTAssertThrowsError(try CorpusPreparer.requirePoses(empty, path: "game-3000/poses.jsonl")) { error in
            XCTAssertTrue("\(error)".contains("game-3000/poses.jsonl"), "\(error)")
            XCTAssertTrue("\(error)".contains("no frame of its 10 has a pose"), "\(error)")
        }
        var one = empty
        one.records[4] = PoseRecord(observation(seq: 4, present: true))
        XCTAssertNoThrow(try CorpusPreparer.requirePoses(one, path: "p"))
    }

    func testBadFilesAreRefusedWithTheReason() throws {
        let url = temporaryFile()
        defer { try? FileManager.default.removeItem(at: url) }
        let header = #"{"frames":2,"rendition":"rgb","schema":"pitchside-pose-track/2","video":"g.mp4","videoHeight":720,"videoWidth":1280}"#
        let record = #"{"h":720,"p":0,"pts":0,"seq":0,"w":1280}"#
        let cases: [(String, String)] = [
            ("", "empty file"),
            ("not json\n", "line 1"),
            (header.replacingOccurrences(of: "track/2", with: "track/9") + "\n", "schema"),
            (header + "\n" + record + "\n{\"seq\": \n", "line 3"),
            (header + "\n" + record + "\n", "1 frames, the header says 2"),
        ]
        for (text, reason) in cases {
            try text.write(to: url, atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try PoseTrack.read(from: url), reason) { error in
                XCTAssertTrue("\(error)".contains(reason), "\(error) should say \(reason)")
            }
        }
    }

    func testCorpusSeedsStayInTheirRanges() throws {
        XCTAssertNoThrow(try TrainingCorpus(firstSeed: 3000, count: 3))
        XCTAssertNoThrow(try TrainingCorpus(firstSeed: 4090, count: 10))
        for (first, count) in [(9000, 1), (1000, 2), (3998, 4), (4095, 8), (2999, 1)] as [(UInt64, Int)] {
            XCTAssertThrowsError(try TrainingCorpus(firstSeed: first, count: count), "\(first)+\(count)")
        }
        let corpus = try TrainingCorpus(firstSeed: 3000, count: 8)
        XCTAssertEqual(Set(corpus.games.map(\.settings.side)), [.left, .right])
        XCTAssertEqual(Set(corpus.games.map(\.settings.players.count)), [1, 2])
        XCTAssertTrue(corpus.games.contains { $0.settings.fps == 60 })
        XCTAssertEqual(corpus.games.map(\.seed), Array(3000...3007))
    }
}

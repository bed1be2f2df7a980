import PitchsideCore
import XCTest
@testable import PitchsideGame

/// Kept results with the detection worker's results replaced (`DetectionSplice`, `eval games --detection`).
final class DetectionSpliceTests: XCTestCase {
    /// Eight throws of Apple's game, and the detection results alone, as `eval detection` writes
    /// them: another stream name and producer.
    private func game() -> (kept: [PSWorkerResult], detection: [PSWorkerResult]) {
        let kept = GameScript().results(throws: GameScript.appleGame(), frames: 900)
        let detection = kept.filter(DetectionSplice.isDetection).map { result -> PSWorkerResult in
            var r = result
            r.setStream("game-0000", producer: "eval")
            return r
        }
        return (kept, detection)
    }

    func testTheRunsOwnDetectionResultsSplicedBackGiveTheRunAgain() throws {
        let (kept, detection) = game()
        let spliced = try DetectionSplice.splice(detection, into: kept)
        XCTAssertEqual(spliced, kept, "each result back where it stood, with the run's stream and producer")
        XCTAssertEqual(GameReplay.events(spliced, classifier: GameScript.classifier).throwEvents.map(\.points), GameScript.applePoints)
    }

    func testAnotherCensusChangesTheScore() throws {
        let (kept, detection) = game()
        // The first throw's bag (in the hole, 3 points) seen at rest on the board instead.
        let changed = detection.map { result -> PSWorkerResult in
            guard case .census(var census)? = result.result, census.changes.first?.bagID == 1 else { return result }
            census.changes[0].place = .onBoard
            var r = result
            r.census = census
            return r
        }
        let points = GameReplay.events(try DetectionSplice.splice(changed, into: kept), classifier: GameScript.classifier).throwEvents.map(\.points)
        XCTAssertEqual(points.first, 1)
        XCTAssertEqual(Array(points.dropFirst()), Array(GameScript.applePoints.dropFirst()))
    }

    func testAFrameWithoutKeptDetectionResultsGoesAfterTheLastResultOfItsTime() throws {
        let script = GameScript()
        let kept = [script.stability(0), script.pose(0, type: nil, k: 0), script.frameDone(0, role: "pose"),
                    script.pose(2, type: nil, k: 0), script.frameDone(2, role: "pose")]
        var census = script.census(1, place: .onBoard, bagID: 1)
        census.setStream("elsewhere", producer: "eval")
        let spliced = try DetectionSplice.splice([script.stability(0), census, script.stability(2)], into: kept)
        XCTAssertEqual(spliced.map(\.kindName), ["stability", "pose", "frame_done", "census", "pose", "frame_done", "stability"])
        XCTAssertEqual(spliced[3].resultHeader?.streamID, script.stream)
        XCTAssertEqual(spliced[3].resultHeader?.producerID, "detection-1")
    }

    func testResultsItCannotSpliceIntoAreRefusedWithTheReason() {
        let script = GameScript()
        var other = script.pose(1, type: nil, k: 0)
        if case .pose(var pose)? = other.result { pose.header.streamID = "cam2"; other.pose = pose }
        XCTAssertThrowsError(try DetectionSplice.splice([script.stability(0)], into: [script.stability(0), other])) {
            XCTAssertTrue("\($0)".contains("2 streams"), "\($0)")
        }
        XCTAssertThrowsError(try DetectionSplice.splice([script.stability(0)], into: [script.pose(0, type: nil, k: 0)])) {
            XCTAssertTrue("\($0)".contains("no detection results"), "\($0)")
        }
    }
}

import Foundation
import XCTest
@testable import PitchsideSynth

/// What the trajectory evaluation reads from the truth (shadows, distractor paths) and how it
/// classifies observations, on hand-made observations.
final class TrajectoryTruthTests: XCTestCase {
    func testShadowLiesBelowTheBagAndDistractorsHavePaths() throws {
        var settings = SynthFixtures.small(seed: 31, throwCount: 2)
        settings.nuisances.bird = true
        settings.nuisances.farPerson = true
        let truth = SynthGame(settings: settings).truth()
        XCTAssertTrue(truth.hasMovingPaths)
        for t in truth.throwsTruth {
            let shadow = try XCTUnwrap(t.shadow)
            XCTAssertGreaterThanOrEqual(shadow.count, t.flight.count - 1, "drawn every frame in the air")
            let flight = Dictionary(t.flight.map { (Int($0[0]), $0) }, uniquingKeysWith: { a, _ in a })
            for s in shadow {
                guard let bag = flight[Int(s[0])] else { continue }
                XCTAssertGreaterThanOrEqual(s[2], bag[2] - 0.5, "the shadow is below the bag (frame \(Int(s[0])))")
            }
        }
        XCTAssertEqual(truth.distractors.count, 2)
        for d in truth.distractors {
            let path = try XCTUnwrap(d.path)
            // Every frame it shows (the end frame is the first at or after it has gone).
            XCTAssertGreaterThanOrEqual(path.count, d.endFrame - d.startFrame)
            XCTAssertEqual(path.first?[0], Double(d.startFrame))
            XCTAssertLessThanOrEqual(try XCTUnwrap(path.last?[0]), Double(d.endFrame))
            let extent = try XCTUnwrap(d.extentPixels)
            XCTAssertGreaterThan(extent[0], 1)
            XCTAssertGreaterThan(extent[1], 1)
        }
        let kinds = try truth.knownPaths().map(\.kind.rawValue)
        XCTAssertEqual(kinds.sorted(), ["bag", "bag", "bird", "far_person", "shadow", "shadow"])
    }

    func testOlderTruthGetsItsPathsRecomputedFromTheSeed() throws {
        var settings = SynthFixtures.small(seed: 32, throwCount: 1)
        settings.nuisances.bird = true
        let truth = SynthGame(settings: settings).truth()
        // Round trip through JSON without the newer fields, as an older version wrote it.
        var old = truth
        for k in old.throwsTruth.indices { old.throwsTruth[k].shadow = nil }
        for k in old.distractors.indices { old.distractors[k].path = nil; old.distractors[k].extentPixels = nil }
        let decoded = try JSONDecoder().decode(GroundTruth.self, from: GroundTruth.encoder().encode(old))
        XCTAssertFalse(decoded.hasMovingPaths)
        XCTAssertThrowsError(try decoded.knownPaths())
        XCTAssertEqual(try decoded.withMovingPaths(), truth)
        // A truth whose flights are not its seed's game is refused.
        var forged = decoded
        forged.throwsTruth[0].flight[0][1] += 5
        XCTAssertThrowsError(try forged.withMovingPaths())
    }

    func testObservationsAreClassifiedByThePathHoldingMostOfTheirPoints() {
        let line = { (x0: Double, y: Double, frames: ClosedRange<Int>) -> [Int: SIMD2<Double>] in
            Dictionary(uniqueKeysWithValues: frames.map { ($0, SIMD2(x0 + 10 * Double($0), y)) })
        }
        let paths = [
            KnownPath(kind: .bag, throwIndex: 1, points: line(0, 100, 0...30), flightFrames: 0...25, reach: SIMD2(8, 8)),
            KnownPath(kind: .shadow, throwIndex: 1, points: line(0, 300, 0...25), reach: SIMD2(12, 8)),
            KnownPath(kind: .bird, points: line(50, 20, 40...80), reach: SIMD2(20, 10)),
            KnownPath(kind: .bag, throwIndex: 2, points: line(0, 200, 100...130), flightFrames: 100...130, reach: SIMD2(8, 8)),
        ]
        func observed(_ frames: ClosedRange<Int>, x0: Double, y: Double, dy: Double = 0) -> ObservedTrajectory {
            ObservedTrajectory(points: frames.map { .init(frame: $0, x: x0 + 10 * Double($0), y: y + dy) }, confidence: 0.9)
        }
        let report = TrajectoryEvaluator.evaluate([
            observed(2...24, x0: 0, y: 100, dy: 1.5),     // the first bag, 1.5 px off
            observed(0...20, x0: 0, y: 300),              // its shadow
            observed(45...70, x0: 50, y: 25),             // the bird
            observed(150...170, x0: 0, y: 500),           // something unknown, long
            observed(150...155, x0: 0, y: 600),           // something unknown, short
            observed(100...103, x0: 0, y: 200),           // the second bag, but only 4 points
        ], paths: paths, height: 360, game: "g")
        XCTAssertEqual(report.flights, 2)
        XCTAssertEqual(report.found, 1)
        XCTAssertEqual(report.missed, ["g throw 2 frames 100–130"])
        XCTAssertEqual(report.observations, ["bag": 2, "shadow": 1, "bird": 1, "other_long": 1, "other_short": 1])
        XCTAssertEqual(report.otherLong.first?.firstFrame, 150)
        XCTAssertEqual(report.pointErrors.count, 23 + 4)
        XCTAssertEqual(Spread(report.pointErrors).median!, 1.5 * 2, accuracy: 1e-9, "scaled to 720 lines")
        XCTAssertEqual(report.flightCoverages, [23.0 / 26])
        XCTAssertEqual(report.flightConfidences, [0.9])
    }
}

import XCTest
import PitchsideCore
@testable import PitchsideVision

/// The trajectory detector on synthetic scenes with known truth: one throw, refinement,
/// heavy noise and flicker, region of interest, frame spacing.
final class TrajectoryDetectorTests: XCTestCase {
    func testSingleThrowIsFoundWithSubPixelPoints() throws {
        var scene = TrajectoryScene(width: 640, height: 360, seed: 1)
        let bag = scene.add(.square(size: 10, gray: 225), path: throwPath())
        let run = runDetector(scene, frames: 66)
        let found = run.trajectories(minimumPoints: 11)
        XCTAssertEqual(found.count, 1, "one trajectory: \(found.map { $0.detectedPoints.count })")
        let match = try XCTUnwrap(bestMatch(run, scene: scene, object: bag))
        XCTAssertGreaterThanOrEqual(match.observation.detectedPoints.count, 40)
        XCTAssertLessThan(match.medianError, 0.5)
        XCTAssertGreaterThan(match.observation.confidence, 0.9)
        let a = normalizedA(vx: 340, ay: 520, scene: scene)
        XCTAssertEqual(match.observation.a, a, accuracy: 0.05 * a)
        XCTAssertEqual(match.observation.ay, 520 / 360, accuracy: 0.1 * 520 / 360)
        XCTAssertEqual(match.observation.vx, 340.0 / 640, accuracy: 0.03 * 340 / 640)
        XCTAssertEqual(match.observation.objectSize, 10.0 / 640, accuracy: 3.0 / 640)
        // Projected points lie on the parabola, close to the detected ones.
        for (p, q) in zip(match.observation.detectedPoints, match.observation.projectedPoints) {
            XCTAssertEqual(p.x, q.x)
            XCTAssertEqual(p.y * 360, q.y * 360, accuracy: 1.5)
        }
    }

    func testObservationIsRefinedUnderOneUUID() throws {
        var scene = TrajectoryScene(width: 640, height: 360, seed: 2)
        scene.add(.square(size: 10, gray: 225), path: throwPath())
        let run = runDetector(scene, frames: 66)
        let uuid = try XCTUnwrap(run.reports.first?.uuid)
        let reports = run.reports.filter { $0.uuid == uuid }
        XCTAssertEqual(reports.first?.detectedPoints.count, 15, "first reported at trajectoryLength points")
        XCTAssertGreaterThan(reports.count, 20)
        for (earlier, later) in zip(reports, reports.dropFirst()) {
            XCTAssertEqual(later.detectedPoints.count, earlier.detectedPoints.count + 1)
            XCTAssertEqual(later.timeRangeStartUs, earlier.timeRangeStartUs, "time range reaches back to the first point")
            XCTAssertGreaterThan(later.timeRangeEndUs, earlier.timeRangeEndUs)
        }
        XCTAssertEqual(reports.last?.timeRangeStartUs, reports.last?.detectedPoints.first?.ptsUs)
    }

    func testShorterTrajectoryLengthReportsEarlierButNotBelowFive() {
        var configuration = TrajectoryConfiguration()
        configuration.trajectoryLength = 2
        XCTAssertEqual(configuration.trajectoryLength, 5)
        var scene = TrajectoryScene(width: 640, height: 360, seed: 3)
        scene.add(.square(size: 10, gray: 225), path: throwPath())
        let run = runDetector(scene, frames: 40, configuration: configuration)
        XCTAssertEqual(run.reports.first?.detectedPoints.count, 5)
    }

    func testNoiseSigmaSixAndFlicker() throws {
        var scene = TrajectoryScene(width: 640, height: 360, seed: 4)
        scene.noiseSigma = 6
        scene.flickerAmplitude = 8
        let bag = scene.add(.square(size: 10, gray: 215), path: throwPath())
        let run = runDetector(scene, frames: 66)
        let match = try XCTUnwrap(bestMatch(run, scene: scene, object: bag, minimumPoints: 15))
        XCTAssertGreaterThanOrEqual(match.observation.detectedPoints.count, 35)
        XCTAssertLessThan(match.medianError, 1.0)
        XCTAssertGreaterThan(match.observation.confidence, 0.6)
        let a = normalizedA(vx: 340, ay: 520, scene: scene)
        XCTAssertEqual(match.observation.a, a, accuracy: 0.1 * a)
        XCTAssertEqual(run.trajectories(minimumPoints: 11).count, 1, "noise makes no long trajectories")
    }

    func testRegionOfInterestLimitsAndCanChangeWhileRunning() {
        var scene = TrajectoryScene(width: 640, height: 360, seed: 5)
        scene.add(.square(size: 10, gray: 225), path: throwPath())
        // The bag spends 0.3…1.9 s crossing; the region is first the right edge only.
        var configuration = TrajectoryConfiguration()
        configuration.regionOfInterest = NormalizedRect(x: 0.95, y: 0, width: 0.05, height: 1)
        let none = runDetector(scene, frames: 66, configuration: configuration)
        XCTAssertTrue(none.reports.isEmpty)
        let later = runDetector(scene, frames: 66, configuration: configuration) { i, detector in
            if i == 20 { detector.configuration.regionOfInterest = NormalizedRect(x: 0, y: 0, width: 1, height: 1) }
        }
        let t = later.trajectories(minimumPoints: 15)
        XCTAssertEqual(t.count, 1)
        XCTAssertGreaterThanOrEqual(t.first?.detectedPoints.first?.ptsUs ?? 0, scene.ptsUs(20))
    }

    func testFrameAnalysisSpacingSkipsFrames() throws {
        var scene = TrajectoryScene(width: 640, height: 360, seed: 6)
        scene.add(.square(size: 10, gray: 225), path: throwPath())
        var configuration = TrajectoryConfiguration()
        configuration.frameAnalysisSpacingUs = 60_000
        configuration.trajectoryLength = 8
        let run = runDetector(scene, frames: 66, configuration: configuration)
        let t = try XCTUnwrap(run.trajectories(minimumPoints: 8).first)
        let gaps = zip(t.detectedPoints, t.detectedPoints.dropFirst()).map { $1.ptsUs - $0.ptsUs }
        XCTAssertTrue(gaps.allSatisfy { $0 >= 60_000 }, "\(gaps)")
    }

    func testWireConversionCarriesEveryField() throws {
        var scene = TrajectoryScene(width: 640, height: 360, seed: 7)
        scene.add(.square(size: 10, gray: 225), path: throwPath())
        let run = runDetector(scene, frames: 40)
        let o = try XCTUnwrap(run.final.first)
        var header = PSHeader()
        header.streamID = "cam1"
        let wire = PSTrajectoryObservation(o, header: header)
        XCTAssertEqual(wire.uuid, o.uuid.uuidString)
        XCTAssertEqual(wire.header.streamID, "cam1")
        XCTAssertEqual(wire.detectedPoints.count, o.detectedPoints.count)
        XCTAssertEqual(wire.detectedPoints.last?.ptsUs, o.detectedPoints.last?.ptsUs)
        XCTAssertEqual(wire.projectedPoints.count, o.projectedPoints.count)
        XCTAssertEqual(wire.a, o.a)
        XCTAssertEqual(wire.ay, o.ay)
        XCTAssertEqual(wire.timeRangeStartUs, o.timeRangeStartUs)
        XCTAssertEqual(wire.objectSize, o.objectSize)
        let decoded = try PSTrajectoryObservation(serializedBytes: try wire.serializedBytes() as [UInt8])
        XCTAssertEqual(decoded, wire)
    }
}

import XCTest
import PitchsideCore
@testable import PitchsideVision

/// The corpus evaluation's scoring on a scene with known truth: throws found, point
/// errors, shadows counted as straight paths, a missed throw lowering recall.
final class TrajectoryEvaluationTests: XCTestCase {
    func testEvaluationCountsFoundThrowsStraightPathsAndErrors() {
        var scene = TrajectoryScene(width: 640, height: 360, seed: 21)
        scene.noiseSigma = 3
        scene.add(.shadow(diameter: 14, darkening: 0.45, blur: 5),
                  path: .linear(start: 0.3, end: 1.8, x0: 60, y0: 320, vx: 340, vy: -20))
        let bag = scene.add(.square(size: 10, gray: 225), path: throwPath())
        // A second "throw" whose bag has the background's grey: nothing can find it.
        let hidden = scene.add(.square(size: 10, gray: 0), path: .fixed(x: -100, y: -100))
        let run = runDetector(scene, frames: 66)
        func flight(_ object: Int) -> TrajectoryEvaluation.Flight {
            var points: [Int: SIMD2<Double>] = [:]
            for f in 0..<66 { if let c = scene.centre(of: object, frame: f), c.x > 0 { points[f] = SIMD2(c.x, c.y) } }
            if points.isEmpty { for f in 20..<40 { points[f] = SIMD2(600, 50) } }
            return .init(points: points, bagPixels: 10)
        }
        let report = TrajectoryEvaluation.evaluate(
            run.final, flights: [flight(bag), flight(hidden)], width: 640, height: 360
        ) { pts in Int((Double(pts) * 30 / 1e6).rounded()) }
        XCTAssertEqual(report.flights, 2)
        XCTAssertEqual(report.found, 1)
        XCTAssertEqual(report.recall, 0.5)
        XCTAssertEqual(report.bagObservations, 1)
        XCTAssertEqual(report.straightObservations, 1, "the shadow")
        XCTAssertEqual(report.otherLongObservations, 0)
        XCTAssertLessThan(report.medianError, 0.6)
        XCTAssertGreaterThan(report.pointErrors.count, 30)

        var total = TrajectoryEvaluation.Report()
        total.add(report)
        total.add(report)
        XCTAssertEqual(total.flights, 4)
        XCTAssertEqual(total.found, 2)
        XCTAssertEqual(total.pointErrors.count, 2 * report.pointErrors.count)
    }
}

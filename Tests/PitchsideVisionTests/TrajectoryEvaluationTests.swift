import XCTest
import PitchsideCore
import PitchsideSynth
@testable import PitchsideVision

/// The corpus evaluation (`TrajectoryEvaluator`) on the detector's output for a scene with known
/// paths: the throw found, its shadow recognised as a shadow, a missed throw lowering recall.
final class TrajectoryEvaluationTests: XCTestCase {
    func testEvaluationCountsFoundThrowsShadowsAndErrors() {
        var scene = TrajectoryScene(width: 640, height: 360, seed: 21)
        scene.noiseSigma = 3
        let shadow = scene.add(.shadow(diameter: 14, darkening: 0.45, blur: 5),
                               path: .linear(start: 0.3, end: 1.8, x0: 60, y0: 320, vx: 340, vy: -20))
        let bag = scene.add(.square(size: 10, gray: 225), path: throwPath())
        let run = runDetector(scene, frames: 66)
        func points(_ object: Int) -> [Int: SIMD2<Double>] {
            var points: [Int: SIMD2<Double>] = [:]
            for f in 0..<66 { if let c = scene.centre(of: object, frame: f) { points[f] = SIMD2(c.x, c.y) } }
            return points
        }
        let flight = points(bag)
        let paths = [
            KnownPath(kind: .bag, throwIndex: 1, points: flight, flightFrames: flight.keys.min()!...flight.keys.max()!,
                      reach: SIMD2(10, 10)),
            KnownPath(kind: .shadow, throwIndex: 1, points: points(shadow), reach: SIMD2(15, 10)),
            // A second throw whose bag the picture does not show: nothing can find it.
            KnownPath(kind: .bag, throwIndex: 2, points: [30: SIMD2(600, 40), 31: SIMD2(605, 41)], flightFrames: 30...31,
                      reach: SIMD2(10, 10)),
        ]
        let observed = run.final.map { o in
            ObservedTrajectory(points: o.detectedPoints.map {
                .init(frame: Int((Double($0.ptsUs) * 30 / 1e6).rounded()), x: $0.x * 640, y: $0.y * 360)
            }, confidence: o.confidence)
        }
        let report = TrajectoryEvaluator.evaluate(observed, paths: paths, height: 360, game: "scene")
        XCTAssertEqual(report.flights, 2)
        XCTAssertEqual(report.found, 1)
        XCTAssertEqual(report.recall, 0.5)
        XCTAssertEqual(report.missed, ["scene throw 2 frames 30–31"])
        XCTAssertEqual(report.observations["bag"], 1)
        XCTAssertEqual(report.observations["shadow"], 1)
        XCTAssertEqual(report.otherLongCount, 0)
        XCTAssertLessThan(Spread(report.pointErrors).median!, 0.6 * 2, "errors are scaled to 720 lines (× 2 here)")
        XCTAssertGreaterThan(report.pointErrors.count, 30)
        XCTAssertGreaterThan(report.flightCoverages[0], 0.8)

        var total = TrajectoryReport()
        total.add(report)
        total.add(report)
        XCTAssertEqual(total.flights, 4)
        XCTAssertEqual(total.found, 2)
        XCTAssertEqual(total.pointErrors.count, 2 * report.pointErrors.count)
    }
}

import Foundation
import PitchsideCore
@testable import PitchsideVision

/// What a run of the detector over a synthetic scene produced.
struct TrajectoryRun {
    /// Every observation in the order reported.
    var reports: [TrajectoryObservation] = []
    /// The latest (most refined) observation of each trajectory, in order of first report.
    var final: [TrajectoryObservation] = []

    /// Final observations with at least `points` detected points.
    func trajectories(minimumPoints points: Int = 0) -> [TrajectoryObservation] {
        final.filter { $0.detectedPoints.count >= points }
    }
}

/// Runs a fresh detector over frames 0..<frames of `scene`.
func runDetector(
    _ scene: TrajectoryScene, frames: Int, configuration: TrajectoryConfiguration = TrajectoryConfiguration(),
    beforeFrame: ((Int, inout TrajectoryDetector) -> Void)? = nil
) -> TrajectoryRun {
    var detector = TrajectoryDetector(configuration: configuration)
    var run = TrajectoryRun()
    var index: [UUID: Int] = [:]
    for i in 0..<frames {
        beforeFrame?(i, &detector)
        for o in detector.process(scene.frame(i)) {
            run.reports.append(o)
            if let k = index[o.uuid] { run.final[k] = o } else { index[o.uuid] = run.final.count; run.final.append(o) }
        }
    }
    return run
}

/// Distances in pixels between the detected points of `observation` and the true centre of
/// object `object` at the same frames (points with no true centre count as infinitely far).
func pointErrors(_ observation: TrajectoryObservation, scene: TrajectoryScene, object: Int) -> [Double] {
    observation.detectedPoints.map { p in
        let frame = Int((Double(p.ptsUs) * scene.framesPerSecond / 1e6).rounded())
        guard let c = scene.centre(of: object, frame: frame) else { return .infinity }
        let dx = p.x * Double(scene.width) - c.x, dy = p.y * Double(scene.height) - c.y
        return (dx * dx + dy * dy).squareRoot()
    }
}

func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

/// The observation whose points lie closest to object `object`, and its median error.
func bestMatch(_ run: TrajectoryRun, scene: TrajectoryScene, object: Int, minimumPoints: Int = 0)
    -> (observation: TrajectoryObservation, medianError: Double)?
{
    run.trajectories(minimumPoints: minimumPoints)
        .map { ($0, median(pointErrors($0, scene: scene, object: object))) }
        .min { $0.1 < $1.1 }
}

/// `a` of y = a·x² + b·x + c in normalized coordinates for a ballistic path in pixels.
func normalizedA(vx: Double, ay: Double, scene: TrajectoryScene) -> Double {
    ay * Double(scene.width * scene.width) / (2 * vx * vx * Double(scene.height))
}

/// A throw across a 640×360 scene: 0.3 s in, from the left, landing on the right.
func throwPath(start: Double = 0.3, x0: Double = 60, y0: Double = 220, vx: Double = 340, vy: Double = -330,
               ay: Double = 520, duration: Double = 1.5) -> TrajectoryScene.Path {
    .ballistic(start: start, end: start + duration, x0: x0, y0: y0, vx: vx, vy: vy, ay: ay)
}

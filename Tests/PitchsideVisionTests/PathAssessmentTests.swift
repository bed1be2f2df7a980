import XCTest
@testable import PitchsideVision

/// Whether a track's points are judged a thrown object's path.
final class PathAssessmentTests: XCTestCase {
    /// The bag's track in dev4-0019 throw 2 (640×360, an underleg throw; the detector's points
    /// 0.23 s before the release to the landing, seconds and pixels), its blob 8.1 pixels across.
    /// Several centroids in mid-flight lie 3–11 pixels off the path, where the blob joined
    /// something the bag crossed: trimmed at the ends alone, the track never had 15 points on one
    /// path and the throw was never reported.
    private static let t: [Double] = [0.000000, 0.133334, 0.266667, 0.300000, 0.333334, 0.366667, 0.400000, 0.433334, 0.466667, 0.500000, 0.533334, 0.566667, 0.600000, 0.633334, 0.666667, 0.700000, 0.733334, 0.766667, 0.800000, 0.833334, 0.866667, 0.900000, 0.933334, 0.966667, 1.000000, 1.033334, 1.066667, 1.100000, 1.133334]
    private static let x: [Double] = [562.368, 543.067, 513.299, 498.370, 483.994, 468.984, 455.303, 440.534, 425.974, 411.936, 397.085, 383.205, 368.538, 354.291, 339.936, 335.000, 311.637, 297.344, 283.582, 275.959, 263.000, 241.672, 227.894, 214.270, 200.435, 187.283, 173.457, 166.212, 147.053]
    private static let y: [Double] = [244.676, 220.176, 205.077, 198.991, 193.507, 189.004, 184.860, 181.337, 178.222, 175.648, 172.925, 171.999, 170.867, 170.264, 170.401, 173.933, 172.000, 173.263, 175.226, 181.774, 180.000, 184.233, 188.249, 192.280, 197.526, 203.642, 208.914, 209.189, 221.938]

    private func assess(_ t: [Double], _ x: [Double], _ y: [Double]) -> PathAssessment? {
        PathAssessment.assess(t: t, x: x, y: y, size: 8.11, width: 640, minimumPoints: 15, minimumSpeed: 0.35)
    }

    func testAFlightWithStrayCentroidsInMidFlightIsAPath() throws {
        let judged = try XCTUnwrap(assess(Self.t, Self.x, Self.y), "the flight with its stray centroids left out")
        XCTAssertGreaterThanOrEqual(judged.range.count, 20)
        XCTAssertGreaterThan(judged.confidence, 0.6, "enough for the game to take it")
    }

    /// A second and a half of a bag swinging in the hand (45 points on a small arc) before a
    /// flight of 25: the hand's points outweigh the flight's in the fit, so that trimming the
    /// worse end of the whole eats into the flight. The flight is the later part of the track.
    func testAFlightAfterALongSwingInTheHandIsAPath() throws {
        var t: [Double] = [], x: [Double] = [], y: [Double] = []
        for i in 0..<45 {
            let s = Double(i) / 30, phase = 2 * Double.pi * 0.8 * s
            t.append(s); x.append(100 + 9 * sin(phase)); y.append(205 + 7 * cos(phase))
        }
        let release = (t: t[44] + 1.0 / 30, x: x[44] + 4, y: y[44] - 3)
        for i in 0..<25 {
            let s = Double(i) / 30
            t.append(release.t + s); x.append(release.x + 420 * s); y.append(release.y - 260 * s + 300 * s * s)
        }
        let judged = try XCTUnwrap(assess(t, x, y), "the flight after the swing")
        XCTAssertGreaterThanOrEqual(judged.range.lowerBound, 44, "no point of the swing on the path")
        XCTAssertGreaterThanOrEqual(judged.range.count, 20)
        XCTAssertGreaterThan(judged.confidence, 0.9)
    }

    /// The same points, taken as a slow drift (a hand, a walking player: a twentieth of the
    /// distance in the same time), are no path, with or without stray points left out.
    func testASlowDriftIsNoPath() {
        let slow = Self.x.map { Self.x[0] + ($0 - Self.x[0]) / 20 }
        XCTAssertNil(assess(Self.t, slow, Self.y))
    }
}

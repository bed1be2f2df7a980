import PitchsideCore
import XCTest
@testable import PitchsidePose

final class PoseCadenceTests: XCTestCase {
    private static let frameUs: Int64 = 33_333

    /// A standing body (torso 100 px) with its right wrist at `wrist`.
    private func body(wrist: PosePoint) -> PoseResult {
        let joints = JointName.allCases.map { name -> PoseJoint in
            let p: PosePoint
            switch name {
            case .rightShoulder, .leftShoulder, .neck: p = PosePoint(x: 300, y: 200)
            case .rightHip, .leftHip: p = PosePoint(x: 300, y: 300)
            case .rightWrist: p = wrist
            default: p = PosePoint(x: 300, y: 250)
            }
            return PoseJoint(name: name, position: p, confidence: 0.9)
        }
        return PoseResult(landmarks: [], joints: joints, personBox: PoseBox(minX: 250, minY: 150, maxX: 350, maxY: 450),
                          presence: 0.9, region: PoseRegion(center: PosePoint(x: 300, y: 300), side: 300),
                          usedDetector: false, imageWidth: 640, imageHeight: 480)
    }

    /// The frames analysed out of `frames`, the wrist at `wrist(frame)` (nil: nobody in view).
    private func analysed(_ frames: Range<Int>, every: Int, wrist: (Int) -> PosePoint?) -> [Int] {
        var cadence = PoseCadence(every: every)
        var out: [Int] = []
        for f in frames {
            let seq = UInt64(f), pts = Int64(f) * Self.frameUs
            guard cadence.shouldAnalyse(seq: seq, ptsUs: pts) else { continue }
            out.append(f)
            cadence.record(people: wrist(f).map { [body(wrist: $0)] } ?? [], seq: seq, ptsUs: pts)
        }
        return out
    }

    func testSlowBodyAndNobodyAreSeenEveryNthFrame() {
        // A wrist drifting at 0.3 torso lengths a second, like a body standing about.
        XCTAssertEqual(analysed(0..<30, every: 2) { PosePoint(x: 300 + Float($0), y: 250) }, Array(stride(from: 0, to: 30, by: 2)))
        XCTAssertEqual(analysed(0..<30, every: 3) { _ in nil }, Array(stride(from: 0, to: 30, by: 3)))
        XCTAssertEqual(analysed(0..<30, every: 1) { _ in nil }, Array(0..<30), "every 1: every frame")
    }

    /// A swing (the wrist at 6 torso lengths a second from frame 10 to 20) is seen on every
    /// frame from the first fast step, and for the hold time (12 frames) after the last.
    func testSwingIsSeenOnEveryFrame() {
        let out = analysed(0..<60, every: 2) { f in
            let x: Float = f < 10 ? 300 : (f < 20 ? 300 + 20 * Float(f - 10) : 500)
            return PosePoint(x: x, y: 250)
        }
        XCTAssertEqual(Array(out.prefix(6)), [0, 2, 4, 6, 8, 10], "slow before the swing")
        let swing = Array(12...32)
        XCTAssertTrue(Set(swing).isSubset(of: Set(out)), "every frame of the swing and the hold after it: \(out)")
        let tail = Array(out.suffix(6))
        XCTAssertEqual(zip(tail.dropFirst(), tail).map { $0 - $1 }, [2, 2, 2, 2, 2], "slow again afterwards: \(out)")
    }
}

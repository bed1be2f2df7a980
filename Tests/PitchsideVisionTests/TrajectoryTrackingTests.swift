import XCTest
@testable import PitchsideVision

/// The tracking half of the trajectory detector, fed recorded moving objects.
final class TrajectoryTrackingTests: XCTestCase {
    /// The moving objects of each frame in the fixture (frame number, blobs).
    private func recordedFrames(_ name: String) throws -> [(frame: Int, blobs: [MotionBlob])] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/" + name)
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            guard line.hasPrefix("frame ") else { return nil }
            let words = line.split(separator: " ")
            let frame = try XCTUnwrap(Int(words[1]))
            let blobs = try words.dropFirst(3).map { word -> MotionBlob in
                let v = word.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: ",").compactMap { Double($0) }
                guard v.count == 3 else { throw CocoaError(.fileReadCorruptFile) }
                return MotionBlob(x: v[0], y: v[1], diameter: v[2])
            }
            return (frame, blobs)
        }
    }

    /// held23-0002 throw 5 (640×360): the bag swung in the thrower's hand for a second and the
    /// hand's track followed it through the release. Predicted from its whole past, hand and
    /// flight together, that track took a blob 55 px off the bag three times in mid-flight, and
    /// no part of it was ever judged a path: the throw was lost. Predicted from its latest
    /// points until it is a path, it follows the bag, and the flight is reported from its first
    /// frames to the landing.
    func testAFlightFollowedFromTheHandThatSwungItIsReportedWhole() throws {
        let frames = try recordedFrames("held23-0002-throw5-moving-objects.txt")
        XCTAssertEqual(frames.count, 101)
        var detector = TrajectoryDetector()
        var flight: [UUID: TrajectoryObservation] = [:]
        for (frame, blobs) in frames {
            let ptsUs = Int64((Double(frame) / 30 * 1e6).rounded())
            for o in detector.track(blobs, ptsUs: ptsUs, width: 640, height: 360) where o.confidence > 0.9 {
                flight[o.uuid] = o
            }
        }
        XCTAssertEqual(flight.count, 1, "one flight")
        let o = try XCTUnwrap(flight.values.first)
        let first = (Double(o.timeRangeStartUs) / 1e6 * 30).rounded(), last = (Double(o.timeRangeEndUs) / 1e6 * 30).rounded()
        XCTAssertLessThanOrEqual(first, 1121, "from the first frames of the flight (released at 1117)")
        XCTAssertGreaterThanOrEqual(last, 1146, "to the last frames before the landing at 1149")
        // Every point of the flight is the bag's (truth: x = 106.96 + 14.2 × (frame − 1117) at first).
        for p in o.detectedPoints where p.ptsUs < 1_148 * 1_000_000 / 30 {
            XCTAssertGreaterThan(p.x * 640, 100, "no point back at the thrower")
        }
        let xs = o.detectedPoints.filter { $0.ptsUs < 1_149 * 1_000_000 / 30 }.map(\.x)
        XCTAssertEqual(xs, xs.sorted(), "left to right in the air, no blob off the path taken")
    }
}

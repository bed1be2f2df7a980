import Foundation
import PitchsideCore
import PitchsideMedia
import PitchsideSynth
import PitchsideVision
import XCTest

/// The trajectory detector on a game PitchsideSynth renders (640 × 360, two throws, the seed's
/// nuisances), through H.264 and the full-range grey rendition the worker reads: every flight is
/// found, its points lie near the true bag centre, and nothing long follows anything unknown.
/// The 20-game corpus figures come from `pitchside eval trajectory` (docs/trajectory.md).
final class TrajectorySynthGameTests: XCTestCase {
    func testEveryFlightOfARenderedGameIsFoundNearTheTruth() throws {
        var settings = SynthSettings.random(seed: 77)
        settings.width = 640
        settings.height = 360
        settings.fps = 30
        settings.setPlayerCount(1)
        settings.throwCount = 2
        settings.negativeActionRate = 0
        settings.camera.settleSeconds = 0
        let game = SynthGame(settings: settings)
        let truth = game.truth()

        let dir = NSTemporaryDirectory() + "pitchside-trajectory-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/game.mp4"
        let encoder = try VideoEncoder(path: path, width: 640, height: 360, framesPerSecond: 30,
                                       crf: settings.nuisances.crf, threads: 1)
        for i in 0..<game.frameCount { try encoder.append(game.render(frame: i)) }
        try encoder.finish()

        var detector = TrajectoryDetector()
        var latest: [UUID: TrajectoryObservation] = [:]
        var frameOf: [Int64: Int] = [:]
        let source = try VideoSource(url: path)
        let converter = RenditionConverter(renditions: [.grayFull])
        while let picture = try source.nextPicture() {
            let image = try converter.image(from: picture, rendition: .grayFull)
            frameOf[picture.ptsUs] = picture.index
            for o in detector.process(VideoFrame(seq: UInt64(picture.index), ptsUs: picture.ptsUs, image: image)) {
                latest[o.uuid] = o
            }
        }
        XCTAssertEqual(frameOf.count, game.frameCount)
        let observed = latest.values.map { o in
            ObservedTrajectory(points: o.detectedPoints.compactMap { p in
                frameOf[p.ptsUs].map { .init(frame: $0, x: p.x * 640, y: p.y * 360) }
            }, confidence: o.confidence)
        }
        let report = try TrajectoryEvaluator.evaluate(observed, truth: truth, game: "seed 77")
        print(report.line("seed 77"))
        XCTAssertEqual(report.flights, 2)
        XCTAssertEqual(report.found, 2, "missed: \(report.missed)")
        XCTAssertLessThanOrEqual(try XCTUnwrap(Spread(report.pointErrors).median), 1.5, "pixels at 720 lines")
        XCTAssertGreaterThan(report.pointErrors.count, 2 * 15)
        XCTAssertEqual(report.otherLongCount, 0, "\(report.otherLong)")
        for coverage in report.flightCoverages { XCTAssertGreaterThan(coverage, 0.5) }
    }
}

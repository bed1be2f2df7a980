import Foundation
import PitchsideCore
import PitchsideMedia
import PitchsideSynth
import PitchsideVision
import XCTest

/// The trajectory detector on games PitchsideSynth renders (640 × 360, two throws), through
/// H.264 and the full-size YUV420P rendition the worker reads: every flight is found, its points
/// lie near the true bag centre, and nothing long follows anything unknown. The 20-game corpus
/// figures come from `pitchside eval trajectory` (docs/trajectory.md, bench/README.md).
final class TrajectorySynthGameTests: XCTestCase {
    /// Seed 77 with its own nuisances and colours.
    func testEveryFlightOfARenderedGameIsFoundNearTheTruth() throws {
        let settings = Self.settings(seed: 77)
        let game = try RenderedGame(settings: settings)
        let report = try game.evaluate(rendition: .yuvFull)
        XCTAssertEqual(report.flights, 2)
        XCTAssertEqual(report.found, 2, "missed: \(report.missed)")
        XCTAssertLessThanOrEqual(try XCTUnwrap(Spread(report.pointErrors).median), 1.5, "pixels at 720 lines")
        XCTAssertGreaterThan(report.pointErrors.count, 2 * 15)
        XCTAssertEqual(report.otherLongCount, 0, "\(report.otherLong)")
        for coverage in report.flightCoverages { XCTAssertGreaterThan(coverage, 0.5) }
    }

    /// A red bag (210, 30, 35) over brown ground of the same luma (120, 75, 40: 84.5 against
    /// 84.4 grey levels), no gradient or ground texture to lend it contrast: invisible in GRAY8,
    /// found in colour.
    func testARedBagOverGroundOfItsOwnLumaIsFoundInColour() throws {
        var settings = Self.settings(seed: 78)
        settings.players[0].bag = RGB(210, 30, 35)
        settings.groundColor = RGB(120, 75, 40)
        settings.nuisances.gradient = 0
        settings.nuisances.texturedGround = false
        let game = try RenderedGame(settings: settings)

        let colour = try game.evaluate(rendition: .yuvFull)
        XCTAssertEqual(colour.flights, 2)
        XCTAssertEqual(colour.found, 2, "missed: \(colour.missed)")
        XCTAssertLessThanOrEqual(try XCTUnwrap(Spread(colour.pointErrors).median), 1.5, "pixels at 720 lines")
        XCTAssertEqual(colour.otherLongCount, 0, "\(colour.otherLong)")

        // The same video in luma only: the case is hard (were it not, this test could not fail
        // for want of colour).
        let gray = try game.evaluate(rendition: .grayFull)
        XCTAssertLessThan(gray.pointErrors.count, colour.pointErrors.count / 2,
                          "luma alone should lose most of the flight points over this ground")
    }

    static func settings(seed: UInt64) -> SynthSettings {
        var settings = SynthSettings.random(seed: seed)
        settings.width = 640
        settings.height = 360
        settings.fps = 30
        settings.setPlayerCount(1)
        settings.throwCount = 2
        settings.negativeActionRate = 0
        settings.camera.settleSeconds = 0
        return settings
    }

    /// A game rendered and encoded once, decoded as often as needed.
    struct RenderedGame {
        let settings: SynthSettings
        let truth: GroundTruth
        let frameCount: Int
        let path: String
        private let directory: TemporaryDirectory

        init(settings: SynthSettings) throws {
            self.settings = settings
            let game = SynthGame(settings: settings)
            truth = game.truth()
            frameCount = game.frameCount
            directory = try TemporaryDirectory()
            path = directory.path + "/game.mp4"
            let encoder = try VideoEncoder(path: path, width: settings.width, height: settings.height, framesPerSecond: 30,
                                           crf: settings.nuisances.crf, threads: 1)
            for i in 0..<game.frameCount { try encoder.append(game.render(frame: i)) }
            try encoder.finish()
        }

        /// Runs a fresh detector over every frame in `rendition` and scores the last version of
        /// every trajectory against the truth.
        func evaluate(rendition: Rendition) throws -> TrajectoryReport {
            var detector = TrajectoryDetector()
            var latest: [UUID: TrajectoryObservation] = [:]
            var frameOf: [Int64: Int] = [:]
            let source = try VideoSource(url: path)
            let converter = RenditionConverter(renditions: [rendition])
            while let picture = try source.nextPicture() {
                let image = try converter.image(from: picture, rendition: rendition)
                XCTAssertEqual(image.layout, rendition.layout)
                frameOf[picture.ptsUs] = picture.index
                for o in detector.process(VideoFrame(seq: UInt64(picture.index), ptsUs: picture.ptsUs, image: image)) {
                    latest[o.uuid] = o
                }
            }
            XCTAssertEqual(frameOf.count, frameCount)
            let width = Double(settings.width), height = Double(settings.height)
            let observed = latest.values.map { o in
                ObservedTrajectory(points: o.detectedPoints.compactMap { p in
                    frameOf[p.ptsUs].map { .init(frame: $0, x: p.x * width, y: p.y * height) }
                }, confidence: o.confidence)
            }
            let name = "seed \(settings.seed) \(rendition.layout.rawValue)"
            let report = try TrajectoryEvaluator.evaluate(observed, truth: truth, game: name)
            print(report.line(name))
            return report
        }
    }

    /// A folder under the system's temporary directory, removed when the last copy goes.
    final class TemporaryDirectory {
        let path = NSTemporaryDirectory() + "pitchside-trajectory-\(UUID().uuidString)"
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }
}

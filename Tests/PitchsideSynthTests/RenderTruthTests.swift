import PitchsideCore
import PitchsideMedia
import XCTest
@testable import PitchsideSynth

final class RenderTruthTests: XCTestCase {
    func colourDistance(_ a: (r: UInt8, g: UInt8, b: UInt8), _ c: RGB) -> Int {
        abs(Int(a.r) - c.r) + abs(Int(a.g) - c.g) + abs(Int(a.b) - c.b)
    }

    func testDeterministicTruthAndFrames() throws {
        var settings = SynthFixtures.small(seed: 11, clean: false)
        settings.camera.settleSeconds = 1
        let a = SynthGame(settings: settings), b = SynthGame(settings: settings)
        XCTAssertEqual(try a.truthJSON(), try b.truthJSON())
        let release = a.truth().throwsTruth[0].releaseFrame
        for i in [0, 15, release + 5, a.frameCount - 1] {
            XCTAssertEqual(a.render(frame: i), b.render(frame: i), "frame \(i)")
        }
        // A different seed gives a different game.
        let c = SynthGame(settings: SynthFixtures.small(seed: 12, clean: false))
        XCTAssertNotEqual(try a.truthJSON(), try c.truthJSON())
    }

    func testDecodedFramesAreDeterministic() throws {
        let settings = SynthFixtures.small(seed: 5, clean: false)
        let dir = try SynthFixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var decoded: [[ImageBuffer]] = []
        for run in 0..<2 {
            let game = SynthGame(settings: settings)
            let path = dir + "/clip\(run).mp4"
            let encoder = try VideoEncoder(path: path, width: 640, height: 360, framesPerSecond: 30, threads: 1)
            for i in 0..<12 { try encoder.append(game.render(frame: i * 10)) }
            try encoder.finish()
            let source = try VideoSource(url: path)
            let converter = RenditionConverter(renditions: [Rendition(name: "rgb", layout: .rgb24)])
            var images: [ImageBuffer] = []
            while let picture = try source.nextPicture() {
                images.append(try converter.image(from: picture, rendition: converter.renditions[0]))
            }
            decoded.append(images)
        }
        XCTAssertEqual(decoded[0].count, 12)
        XCTAssertEqual(decoded[0], decoded[1])
    }

    func testBagColourAtItsTrueCentreInFlight() throws {
        for side in ThrowerSide.allCases {
            var settings = SynthFixtures.small(seed: 21)
            settings.side = side
            let game = SynthGame(settings: settings)
            let thrown = game.truth().throwsTruth[0]
            XCTAssertGreaterThan(thrown.flight.count, 10)
            // Skip the first frames, where the bag is still next to the hand.
            for entry in thrown.flight.dropFirst(3) {
                let frame = Int(entry[0])
                let x = Int(entry[1]), y = Int(entry[2])
                guard x >= 0, x < 640, y >= 0, y < 360 else { continue }
                let image = game.render(frame: frame)
                XCTAssertLessThan(colourDistance(image.rgb(x: x, y: y), thrown.bagColor), 40,
                                  "\(side) frame \(frame) at \(x),\(y)")
            }
        }
    }

    func testBoardCornersAndHoleAgreeWithPixels() throws {
        for side in ThrowerSide.allCases {
            var settings = SynthFixtures.small(seed: 31)
            settings.side = side
            settings.width = 1280
            settings.height = 720
            let (w, h) = (1280.0, 720.0)
            let game = SynthGame(settings: settings)
            let truth = game.truth()
            let image = game.render(frame: 0)
            let board = settings.boardColor
            let accent = board.luma > 140 ? board.scaled(0.72) : RGB(235, 235, 230)
            let corners = truth.frames[0].boardCorners.map { Pixel($0[0] * w, $0[1] * h) }
            // Clockwise from the top-left: back edge above the front edge, left before right.
            XCTAssertLessThan(corners[0].x, corners[1].x)
            XCTAssertLessThan(corners[3].x, corners[2].x)
            XCTAssertLessThan(corners[0].y, corners[3].y)
            XCTAssertLessThan(corners[1].y, corners[2].y)
            let centre = Pixel(corners.map(\.x).reduce(0, +) / 4, corners.map(\.y).reduce(0, +) / 4)
            XCTAssertLessThan(colourDistance(image.rgb(x: Int(centre.x), y: Int(centre.y)), board), 20)
            func mix(_ a: Pixel, _ b: Pixel, _ t: Double) -> Pixel { Pixel(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t) }
            // Each corner's neighbours: along the long edge and across the board.
            let along = [1, 0, 3, 2], across = [3, 2, 1, 0]
            for (i, c) in corners.enumerated() {
                // Just inside the corner (0.1 m along, a quarter across): board; just outside: something else.
                let inward = mix(mix(c, corners[along[i]], 0.08), mix(corners[across[i]], corners[across[along[i]]], 0.08),
                                 0.25)
                let d = (centre.x - c.x, centre.y - c.y)
                let norm = (d.0 * d.0 + d.1 * d.1).squareRoot()
                let outward = Pixel(c.x - d.0 / norm * 3, c.y - d.1 / norm * 3)
                let inside = image.rgb(x: Int(inward.x.rounded()), y: Int(inward.y.rounded()))
                let outside = image.rgb(x: Int(outward.x.rounded()), y: Int(outward.y.rounded()))
                XCTAssertLessThan(min(colourDistance(inside, board), colourDistance(inside, accent)), 40, "\(side) \(c)")
                XCTAssertGreaterThan(colourDistance(outside, board), 30, "\(side) \(c)")
            }
            let hole = truth.frames[0].hole
            let p = image.rgb(x: Int(hole.cx * w), y: Int(hole.cy * h))
            XCTAssertLessThan(Int(p.r) + Int(p.g) + Int(p.b), 100)
            XCTAssertEqual(truth.frames[0].metresPerPixel, truth.board.metresPerPixel)
        }
    }

    func testJointsLieOnThePlayer() throws {
        let settings = SynthFixtures.small(seed: 41)
        let game = SynthGame(settings: settings)
        let truth = game.truth()
        let skin = settings.players[0].skin
        for frame in [0, truth.throwsTruth[0].releaseFrame] {
            let image = game.render(frame: frame)
            let joints = truth.frames[frame].joints[0]
            XCTAssertEqual(joints.count, JointName.allCases.count)
            let nose = joints[0]
            let pixel = image.rgb(x: Int(nose[0] * 640), y: Int(nose[1] * 360))
            // The nose is drawn in a darker skin tone on the skin-coloured face.
            XCTAssertLessThan(min(colourDistance(pixel, skin), colourDistance(pixel, skin.scaled(0.75))), 40)
            // The thrower stands 15–40% of the frame tall.
            let ys = joints.map { $0[1] }
            XCTAssertGreaterThan(ys.max()! - ys.min()!, 0.12)
        }
        XCTAssertGreaterThan(truth.camera.throwerHeightFraction, 0.15)
        XCTAssertLessThan(truth.camera.throwerHeightFraction, 0.4)
    }

    func testTruthFollowsTheGame() throws {
        var settings = SynthFixtures.small(seed: 51, throwCount: 3, styles: [.overhand, .underhand, .underleg])
        settings.setPlayerCount(2)
        let truth = SynthGame(settings: settings).truth()
        XCTAssertEqual(truth.throwsTruth.map(\.style), [.overhand, .underhand, .underleg])
        XCTAssertEqual(truth.throwsTruth.map(\.playerIndex), [0, 1, 0])
        for t in truth.throwsTruth {
            XCTAssertLessThan(t.releaseFrame, t.landingFrame)
            XCTAssertLessThanOrEqual(t.landingFrame, t.restFrame)
            XCTAssertEqual(t.releaseSpeedMph, t.releaseSpeedMps * 2.236936, accuracy: 0.01)
            XCTAssertTrue((20...50).contains(t.launchAngleDeg), "\(t.launchAngleDeg)")
            XCTAssertTrue((5...13).contains(t.releaseSpeedMps), "\(t.releaseSpeedMps)")
            XCTAssertEqual(t.points, throwPoints(t.outcome, style: t.style, rules: .official))
        }
        XCTAssertEqual(truth.censuses.count, 3)
        XCTAssertEqual(truth.censuses.last!.bags.filter { $0.throwIndex != nil }.count, 3)
        XCTAssertEqual(truth.frames.count, truth.video.frameCount)
        XCTAssertEqual(truth.frames[0].joints.count, 2)
    }
}

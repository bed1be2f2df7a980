import Foundation
import PitchsideCore
import XCTest
@testable import PitchsideVision

/// Bag census on a drawn side view: a bag comes to rest on the board, then one on the ground.
final class CensusTests: XCTestCase {
    func testRestStatesAndChanges() throws {
        var scene = BoardScene.sideView(seed: 2)
        let board = try XCTUnwrap(BoardDetector().detect(in: scene.render(seed: 2)))
        scene.boardBags = [(0.8, 0.0, (30, 40, 200))]
        let first = scene.render(seed: 3)
        let bagSide = BoardGeometry.bagSide / BoardGeometry.length * scene.lengthPixels
        let groundPoint = PlanePoint(scene.corners[3].x - 1.2 * bagSide, scene.corners[3].y + 0.8 * bagSide)
        scene.groundBags = [(groundPoint, bagSide, (240, 220, 20))]
        let second = scene.render(seed: 4)
        var census = BagCensus()
        var results: [CensusResult] = []
        var seq: UInt64 = 0
        for image in [first, second] {
            for _ in 0..<(census.settleFrames + 2) {
                if let r = census.process(frame: VideoFrame(seq: seq, ptsUs: Int64(seq) * 33_333, image: image), board: board, stable: true) {
                    results.append(r)
                }
                seq += 1
            }
        }
        XCTAssertEqual(results.count, 2)
        XCTAssertEqual(results.first?.onBoard, 1)
        XCTAssertEqual(results.first?.changes.map(\.kind), [.newBag])
        XCTAssertEqual(results.last?.onBoard, 1)
        XCTAssertEqual(results.last?.onGround, 1)
        XCTAssertEqual(results.last?.changes.map(\.kind), [.newBag])
        let message = PSBoardCensus(try XCTUnwrap(results.last), header: PSHeader())
        XCTAssertEqual(message.bags.count, 2)
        XCTAssertEqual(message.onGround, 1)
        // Not stable: no census.
        XCTAssertNil(census.process(frame: VideoFrame(seq: seq, ptsUs: 0, image: second), board: board, stable: false))
    }
}

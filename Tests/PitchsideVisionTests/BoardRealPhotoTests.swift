import Foundation
import PitchsideCore
import XCTest
@testable import PitchsideVision

/// Board, hole and bag census on the 50 annotated overhead photographs (CHUCKVision, dev split).
final class BoardRealPhotoTests: XCTestCase {
    struct Entry: Decodable {
        struct Board: Decodable {
            struct Hole: Decodable { var center: [Double]; var radius: Double }
            struct Size: Decodable { var width: Double; var height: Double }
            var center: [Double]
            var hole: Hole
            var size: Size
        }
        struct Bag: Decodable {
            struct Box: Decodable { var center: [Double]; var width: Double; var height: Double }
            var bounded_rectangle: Box
            var color: String
            var location: String
        }
        var _reference: String
        var board: Board
        var beanBags: [Bag]
    }

    func testAllFiftyPhotographs() throws {
        guard let dir = DetectionTestSupport.chuckVisionDirectory else { throw XCTSkip("chuckvision-dev not present") }
        let entries = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: dir.appendingPathComponent("dataSet.json")))
        let divisor = 3
        var found = 0, holeOK = 0, bagsOK = 0, bagsTotal = 0
        var lines: [String] = []
        for entry in entries.prefix(Int(ProcessInfo.processInfo.environment["CHUCK_LIMIT"] ?? "") ?? entries.count) {
            let image = try DetectionTestSupport.decode(dir.appendingPathComponent("img").appendingPathComponent(entry._reference), divisor: divisor)
            let k = Double(divisor)
            let t0 = Date()
            let result = BoardDetector().search(in: image)
            let t1 = Date()
            defer { print("timing \(entry._reference) board \(Int(t1.timeIntervalSince(t0) * 1000)) ms, bags \(Int(Date().timeIntervalSince(t1) * 1000)) ms") }
            guard let board = result.detection else {
                lines.append("\(entry._reference): no board (\(result.reason))")
                bagsTotal += entry.beanBags.count
                continue
            }
            found += 1
            let hx = board.hole.center.x * k, hy = board.hole.center.y * k
            let err = ((hx - entry.board.hole.center[0]) * (hx - entry.board.hole.center[0]) + (hy - entry.board.hole.center[1]) * (hy - entry.board.hole.center[1])).squareRoot()
            let holeGood = err <= 0.2 * entry.board.hole.radius
            if holeGood { holeOK += 1 }
            let bags = BagFinder().find(in: image, board: board)
            var bagLine: [String] = []
            for truth in entry.beanBags {
                bagsTotal += 1
                let c = PlanePoint(truth.bounded_rectangle.center[0] / k, truth.bounded_rectangle.center[1] / k)
                let reach = max(truth.bounded_rectangle.width, truth.bounded_rectangle.height) / k * 0.6
                let match = bags.min { $0.center.distance(to: c) < $1.center.distance(to: c) }
                let place = match.flatMap { $0.center.distance(to: c) <= reach ? $0.place : nil }
                let expected: BagPlacement = truth.location == "on" ? .onBoard : truth.location == "in" ? .inHole : .onGround
                if place == expected { bagsOK += 1 }
                bagLine.append("\(truth.color)/\(truth.location)→\(place.map { "\($0)" } ?? "missed")")
            }
            lines.append("\(entry._reference): conf \(String(format: "%.2f", board.confidence)) hole err \(String(format: "%.1f", err)) px (\(Int(hx - entry.board.hole.center[0])),\(Int(hy - entry.board.hole.center[1])))\(holeGood ? "" : " (!)") bags \(bags.count) [\(bagLine.joined(separator: ", "))]")
        }
        let n = entries.count
        print(lines.joined(separator: "\n"))
        print(String(format: "chuckvision-dev: board found %d/%d; hole centre within 20%% of radius %d/%d (%.0f%%); bags placed correctly %d/%d (%.0f%%)",
                     found, n, holeOK, n, 100 * Double(holeOK) / Double(n), bagsOK, bagsTotal, 100 * Double(bagsOK) / Double(max(1, bagsTotal))))
        XCTAssertEqual(found, n, "board found in every photograph")
        XCTAssertGreaterThanOrEqual(Double(holeOK) / Double(n), 0.9)
        XCTAssertGreaterThanOrEqual(Double(bagsOK) / Double(max(1, bagsTotal)), 0.85)
    }
}

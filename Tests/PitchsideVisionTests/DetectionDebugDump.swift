import Foundation
import PitchsideCore
import XCTest
@testable import PitchsideVision

final class DetectionDebugDump: XCTestCase {
    func testDump() throws {
        guard let name = ProcessInfo.processInfo.environment["DUMP_IMAGE"] else { throw XCTSkip("") }
        let image = try DetectionTestSupport.decode(URL(fileURLWithPath: name), divisor: 2)
        let work = WorkImage(image, maxSide: 640).blurred()
        let (labels, regions) = RegionSegmenter().segment(work)
        let big = regions.filter { $0.area > 2000 }.sorted { $0.area > $1.area }
        var out = "P6\n\(work.width) \(work.height)\n255\n".data(using: .ascii)!
        var px = [UInt8](repeating: 0, count: work.width * work.height * 3)
        for i in 0..<(work.width * work.height) {
            if let k = big.firstIndex(where: { $0.label == labels[i] }) {
                px[i * 3] = UInt8(60 + (k * 70) % 190); px[i * 3 + 1] = UInt8((k * 40) % 255); px[i * 3 + 2] = 200
            }
        }
        if let d = BoardDetector().detect(in: image) {
            print(d.corners, d.hole, d.holeContrast, d.backEdgeStart)
            let c = d.hole.center
            for dy in -2...2 { for dx in -2...2 { let i = (Int(c.y) + dy) * work.width + Int(c.x) + dx; px[i * 3 + 1] = 255 } }
        }
        out.append(contentsOf: px)
        try out.write(to: URL(fileURLWithPath: "/tmp/det/labels.ppm"))
    }
}

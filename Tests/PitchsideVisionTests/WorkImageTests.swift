import PitchsideCore
import XCTest
@testable import PitchsideVision

final class WorkImageTests: XCTestCase {
    /// A picture of pseudo-random pixels, so every box sum differs.
    private func noise(width: Int, height: Int, layout: PixelLayout, seed: UInt32) -> ImageBuffer {
        var image = ImageBuffer(width: width, height: height, layout: layout)
        var state = seed
        for i in image.pixels.indices {
            state = state &* 1_664_525 &+ 1_013_904_223
            image.pixels[i] = UInt8(truncatingIfNeeded: state >> 24)
        }
        return image
    }

    /// The census reduces only the board's surroundings: the crop must hold exactly the
    /// values the whole reduction has there, whatever the factor and pixel layout.
    func testCropIsThatRectangleOfTheWholeReduction() {
        for (width, height, layout) in [(1280, 720, PixelLayout.rgb24), (1920, 1080, .rgb24), (641, 361, .rgb24), (1000, 600, .gray8)] {
            let image = noise(width: width, height: height, layout: layout, seed: UInt32(width))
            let whole = WorkImage(image, maxSide: 640)
            let columns = (whole.width / 5)..<(whole.width * 3 / 4), rows = 7..<(whole.height - 3)
            let crop = WorkImage(image, maxSide: 640, columns: columns, rows: rows)
            XCTAssertEqual(crop.width, columns.count)
            XCTAssertEqual(crop.height, rows.count)
            XCTAssertEqual(crop.scale, whole.scale)
            var mismatches = 0
            for y in 0..<crop.height {
                for x in 0..<crop.width where crop.pixel(x, y) != whole.pixel(columns.lowerBound + x, rows.lowerBound + y) {
                    mismatches += 1
                }
            }
            XCTAssertEqual(mismatches, 0, "\(width)×\(height) \(layout)")
        }
    }
}

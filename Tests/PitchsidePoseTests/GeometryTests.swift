import PitchsideCore
@testable import PitchsidePose
import XCTest

final class AnchorTests: XCTestCase {
    func testBlazePoseAnchorLayout() {
        let anchors = AnchorGrid.blazePose.centres()
        XCTAssertEqual(anchors.count, 2254)
        // 28×28 cells × 2, then 14×14 × 2, then 7×7 × 6 (three stride-32 layers share one map).
        XCTAssertEqual(anchors[0], PosePoint(x: 0.5 / 28, y: 0.5 / 28))
        XCTAssertEqual(anchors[1], anchors[0])
        XCTAssertEqual(anchors[2], PosePoint(x: 1.5 / 28, y: 0.5 / 28))
        XCTAssertEqual(anchors[1568], PosePoint(x: 0.5 / 14, y: 0.5 / 14))
        XCTAssertEqual(anchors[1568 + 392], PosePoint(x: 0.5 / 7, y: 0.5 / 7))
        XCTAssertEqual(anchors[1568 + 392 + 5], PosePoint(x: 0.5 / 7, y: 0.5 / 7))
        XCTAssertEqual(anchors[1568 + 392 + 6], PosePoint(x: 1.5 / 7, y: 0.5 / 7))
        XCTAssertEqual(anchors.last, PosePoint(x: 6.5 / 7, y: 6.5 / 7))
    }
}

final class RegionTests: XCTestCase {
    func testUprightPersonGivesUnrotatedRegion() {
        let r = PoseRegion.aligned(center: PosePoint(x: 100, y: 200), scalePoint: PosePoint(x: 100, y: 100))
        XCTAssertEqual(r.rotation, 0, accuracy: 1e-6)
        XCTAssertEqual(r.side, 250, accuracy: 1e-4)   // 2 × 100 × 1.25
        XCTAssertEqual(r.center, PosePoint(x: 100, y: 200))
    }

    func testLyingPersonHeadRightTurnsRegionSoHeadIsUp() {
        let r = PoseRegion.aligned(center: PosePoint(x: 100, y: 100), scalePoint: PosePoint(x: 180, y: 100))
        XCTAssertEqual(r.rotation, .pi / 2, accuracy: 1e-6)
        // The top centre of the region lies toward the head.
        let top = r.imagePoint(u: 0, v: -0.5)
        XCTAssertEqual(top.x, 100 + r.side / 2, accuracy: 1e-3)
        XCTAssertEqual(top.y, 100, accuracy: 1e-3)
    }

    func testImageAndRegionPointsAreInverse() {
        let r = PoseRegion(center: PosePoint(x: 30, y: -12), side: 77, rotation: 2.3)
        let p = r.imagePoint(u: 0.21, v: -0.37)
        let (u, v) = r.regionPoint(p)
        XCTAssertEqual(u, 0.21, accuracy: 1e-5)
        XCTAssertEqual(v, -0.37, accuracy: 1e-5)
    }

    func testAngleNormalization() {
        XCTAssertEqual(PoseRegion.normalizedAngle(3 * .pi / 2), -.pi / 2, accuracy: 1e-5)
        XCTAssertEqual(PoseRegion.normalizedAngle(-3 * .pi / 2), .pi / 2, accuracy: 1e-5)
        XCTAssertEqual(PoseRegion.normalizedAngle(0.5), 0.5, accuracy: 1e-6)
    }
}

final class CropTests: XCTestCase {
    /// 8 × 6 RGB image whose red = 10·x, green = 10·y, blue = 7.
    func makeImage() -> ImageBuffer {
        var image = ImageBuffer(width: 8, height: 6, layout: .rgb24)
        for y in 0..<6 {
            for x in 0..<8 {
                let i = y * image.stride + x * 3
                image.pixels[i] = UInt8(10 * x); image.pixels[i + 1] = UInt8(10 * y); image.pixels[i + 2] = 7
            }
        }
        return image
    }

    func crop(_ image: ImageBuffer, _ region: PoseRegion, size: Int, border: RegionCrop.Border) -> [Float] {
        var out = [Float](repeating: -99, count: size * size * 3)
        out.withUnsafeMutableBufferPointer {
            RegionCrop.crop(image, region: region, size: size, border: border, scale: 1, offset: 0, into: $0)
        }
        return out
    }

    func testAxisAlignedCropCopiesPixels() {
        let image = makeImage()
        // A 4 × 4 region whose pixel centres fall on image pixel centres.
        let out = crop(image, PoseRegion(center: PosePoint(x: 4, y: 3), side: 4), size: 4, border: .replicate)
        for j in 0..<4 {
            for i in 0..<4 {
                let o = (j * 4 + i) * 3
                XCTAssertEqual(out[o], Float(10 * (i + 2)), accuracy: 1e-4)
                XCTAssertEqual(out[o + 1], Float(10 * (j + 1)), accuracy: 1e-4)
                XCTAssertEqual(out[o + 2], 7, accuracy: 1e-4)
            }
        }
    }

    func testRotatedCropFollowsRegionMapping() {
        let image = makeImage()
        let region = PoseRegion(center: PosePoint(x: 4, y: 3), side: 4, rotation: .pi / 2)
        let out = crop(image, region, size: 4, border: .replicate)
        for j in 0..<4 {
            for i in 0..<4 {
                let p = region.imagePoint(u: (Float(i) + 0.5) / 4 - 0.5, v: (Float(j) + 0.5) / 4 - 0.5)
                let o = (j * 4 + i) * 3
                // Red and green are linear in x and y, so bilinear sampling is exact.
                XCTAssertEqual(out[o], 10 * (p.x - 0.5), accuracy: 1e-3)
                XCTAssertEqual(out[o + 1], 10 * (p.y - 0.5), accuracy: 1e-3)
            }
        }
    }

    func testBordersReplicateOrFill() {
        let image = makeImage()
        let big = PoseRegion(center: PosePoint(x: 4, y: 3), side: 40)
        let replicated = crop(image, big, size: 8, border: .replicate)
        XCTAssertEqual(replicated[0], 0)            // top-left corner: pixel (0, 0)
        XCTAssertEqual(replicated[1], 0)
        let last = (8 * 8 - 1) * 3
        XCTAssertEqual(replicated[last], 70)        // bottom-right: pixel (7, 5)
        XCTAssertEqual(replicated[last + 1], 50)
        let filled = crop(image, big, size: 8, border: .constant(200))
        XCTAssertEqual(filled[0], 200)
        XCTAssertEqual(filled[last + 2], 200)
    }

    func testGrayImagesFillAllChannels() {
        var gray = ImageBuffer(width: 4, height: 4, layout: .gray8)
        for i in gray.pixels.indices { gray.pixels[i] = 90 }
        let out = crop(gray, PoseRegion(center: PosePoint(x: 2, y: 2), side: 4), size: 2, border: .replicate)
        XCTAssertEqual(out, [Float](repeating: 90, count: 12))
    }
}

final class CropAgreementTests: XCTestCase {
    /// Bilinear sampling with clamped positions, one sample at a time: what
    /// every path of `RegionCrop` must give.
    func reference(_ image: ImageBuffer, _ region: PoseRegion, size: Int, border: RegionCrop.Border) -> [Float] {
        var out: [Float] = []
        let maxX = Float(image.width - 1), maxY = Float(image.height - 1)
        for j in 0..<size {
            for i in 0..<size {
                let p = region.imagePoint(u: (Float(i) + 0.5) / Float(size) - 0.5, v: (Float(j) + 0.5) / Float(size) - 0.5)
                let x = p.x - 0.5, y = p.y - 0.5
                if case .constant(let c) = border, x < 0 || y < 0 || x > maxX || y > maxY {
                    out += [Float(c), Float(c), Float(c)]
                    continue
                }
                let cx = min(max(x, 0), maxX), cy = min(max(y, 0), maxY)
                let x0 = Int(cx), y0 = Int(cy)
                let x1 = min(x0 + 1, image.width - 1), y1 = min(y0 + 1, image.height - 1)
                let fx = cx - Float(x0), fy = cy - Float(y0)
                for c in 0..<3 {
                    func v(_ x: Int, _ y: Int) -> Float { Float(image.pixels[y * image.stride + x * 3 + c]) }
                    out.append((1 - fy) * ((1 - fx) * v(x0, y0) + fx * v(x1, y0)) + fy * ((1 - fx) * v(x0, y1) + fx * v(x1, y1)))
                }
            }
        }
        return out
    }

    func testEveryPathAgreesWithPlainBilinearSampling() {
        var generator = SystemRandomNumberGenerator()
        var image = ImageBuffer(width: 61, height: 37, layout: .rgb24)
        for i in image.pixels.indices { image.pixels[i] = UInt8.random(in: 0...255, using: &generator) }
        // Regions inside, across each edge, past a corner, wholly outside, turned every way.
        let regions = [
            PoseRegion(center: PosePoint(x: 30, y: 18), side: 20, rotation: 0),
            PoseRegion(center: PosePoint(x: 30, y: 18), side: 25, rotation: 0.4),
            PoseRegion(center: PosePoint(x: 30, y: 18), side: 70, rotation: -2.8),
            PoseRegion(center: PosePoint(x: 2, y: 35), side: 30, rotation: 1.2),
            PoseRegion(center: PosePoint(x: 60, y: 1), side: 18, rotation: .pi / 2),
            PoseRegion(center: PosePoint(x: -40, y: 10), side: 12, rotation: 0.1),
            PoseRegion(center: PosePoint(x: 31, y: 20), side: 36, rotation: .pi),
        ]
        for region in regions {
            for border in [RegionCrop.Border.replicate, .constant(9)] {
                let size = 23
                var out = [Float](repeating: -99, count: size * size * 3)
                out.withUnsafeMutableBufferPointer {
                    RegionCrop.crop(image, region: region, size: size, border: border, scale: 1, offset: 0, into: $0)
                }
                let expected = reference(image, region, size: size, border: border)
                let worst = zip(out, expected).map { abs($0 - $1) }.max()!
                XCTAssertLessThan(worst, 0.5, "\(region) \(border)")
            }
        }
    }
}

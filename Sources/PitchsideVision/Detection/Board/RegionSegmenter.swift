/// One connected region of similar colour.
struct ColourRegion {
    var label: Int32
    var area = 0
    var minX = Int.max, maxX = Int.min, minY = Int.max, maxY = Int.min
    var sum = (0, 0, 0)

    var meanColour: (Int, Int, Int) { (sum.0 / max(1, area), sum.1 / max(1, area), sum.2 / max(1, area)) }
    var boxWidth: Int { maxX - minX + 1 }
    var boxHeight: Int { maxY - minY + 1 }

    /// The share of this region's pixels (`labels`, a picture `imageWidth` wide) that lie inside
    /// `quad`.
    func share(inside quad: [PlanePoint], labels: [Int32], imageWidth: Int) -> Double {
        var inside = 0
        for y in minY...maxY {
            for x in minX...maxX where labels[y * imageWidth + x] == label
                && polygonContains(quad, PlanePoint(Double(x) + 0.5, Double(y) + 0.5)) {
                inside += 1
            }
        }
        return Double(inside) / Double(max(1, area))
    }
}

/// Splits a picture into connected regions of nearly constant colour by region growing.
///
/// A neighbour joins a region when it is close to the pixel it touches (`stepTolerance`) and to
/// the region's running mean (`meanTolerance`), so smooth shading is followed but a slow drift
/// into another surface is not. Textured ground falls apart into small pieces; a painted board
/// top stays whole.
struct RegionSegmenter {
    var stepTolerance = 24
    var meanTolerance = 80

    func segment(_ image: WorkImage) -> (labels: [Int32], regions: [ColourRegion]) {
        let w = image.width, h = image.height
        var labels = [Int32](repeating: -1, count: w * h)
        var regions: [ColourRegion] = []
        var stack: [Int] = []
        stack.reserveCapacity(w * h / 4)
        let t1 = stepTolerance, t2 = meanTolerance
        image.rgb.withUnsafeBufferPointer { px in
            labels.withUnsafeMutableBufferPointer { lab in
                for start in 0..<(w * h) where lab[start] < 0 {
                    let label = Int32(regions.count)
                    var region = ColourRegion(label: label)
                    lab[start] = label
                    stack.append(start)
                    while let p = stack.popLast() {
                        let r = Int(px[p * 3]), g = Int(px[p * 3 + 1]), b = Int(px[p * 3 + 2])
                        region.area += 1
                        region.sum.0 += r; region.sum.1 += g; region.sum.2 += b
                        let x = p % w, y = p / w
                        if x < region.minX { region.minX = x }
                        if x > region.maxX { region.maxX = x }
                        if y < region.minY { region.minY = y }
                        if y > region.maxY { region.maxY = y }
                        let mr = region.sum.0 / region.area, mg = region.sum.1 / region.area, mb = region.sum.2 / region.area
                        @inline(__always) func visit(_ q: Int) {
                            guard lab[q] < 0 else { return }
                            let qr = Int(px[q * 3]), qg = Int(px[q * 3 + 1]), qb = Int(px[q * 3 + 2])
                            guard abs(qr - r) + abs(qg - g) + abs(qb - b) <= t1,
                                  abs(qr - mr) + abs(qg - mg) + abs(qb - mb) <= t2 else { return }
                            lab[q] = label
                            stack.append(q)
                        }
                        if x > 0 { visit(p - 1) }
                        if x < w - 1 { visit(p + 1) }
                        if y > 0 { visit(p - w) }
                        if y < h - 1 { visit(p + w) }
                    }
                    regions.append(region)
                }
            }
        }
        return (labels, regions)
    }
}

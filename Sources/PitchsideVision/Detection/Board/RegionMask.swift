/// One region (with the same-paint fragments joined to it) cut out of the label image, with its
/// enclosed holes filled in.
///
/// Bags lying on the board and the hole itself are holes in the board's colour region; filling
/// them gives the outline of the whole top surface.
struct RegionMask {
    let originX: Int
    let originY: Int
    let width: Int
    let height: Int
    /// 1 where the region (or a hole it encloses) is.
    var filled: [UInt8]
    private(set) var filledArea: Int
    /// 1 where the region's own colour is (before filling).
    let region: [UInt8]
    /// The region's own pixels within `filled` (specks apart from it left out).
    private(set) var regionArea: Int

    init(labels: [Int32], imageWidth: Int, region: ColourRegion) {
        self.init(labels: labels, imageWidth: imageWidth, members: [region.label],
                  box: (region.minX, region.minY, region.maxX, region.maxY))
    }

    /// `members`: the labels making up the surface; `box`: inclusive bounds of their pixels.
    init(labels: [Int32], imageWidth: Int, members: Set<Int32>, box: (minX: Int, minY: Int, maxX: Int, maxY: Int)) {
        let ox = box.minX - 1, oy = box.minY - 1
        let w = box.maxX - box.minX + 3, h = box.maxY - box.minY + 3
        originX = ox
        originY = oy
        width = w
        height = h
        // Flood the outside from the frame of the padded box; whatever it cannot reach is inside.
        var inRegion = [UInt8](repeating: 0, count: w * h)
        let single = members.count == 1 ? members.first : nil
        for y in 1..<(h - 1) {
            let row = (oy + y) * imageWidth
            for x in 1..<(w - 1) {
                let l = labels[row + ox + x]
                if let single { if l == single { inRegion[y * w + x] = 1 } } else if members.contains(l) { inRegion[y * w + x] = 1 }
            }
        }
        let outside = Self.floodFromCorner(blocked: inRegion, width: w, height: h)
        filled = outside.map { $0 == 0 ? 1 : 0 }
        region = inRegion
        filledArea = 0
        regionArea = 0
        countAreas()
    }

    /// The same mask with the pieces apart from the rest left out (`withoutSpecks`).
    func droppingSpecks() -> RegionMask {
        var m = self
        m.filled = Self.withoutSpecks(filled, width: width, height: height)
        m.countAreas()
        return m
    }

    private mutating func countAreas() {
        filledArea = filled.reduce(0) { $0 + Int($1) }
        regionArea = zip(region, filled).reduce(0) { $0 + Int($1.0 & $1.1) }
    }

    /// Pieces of the filled mask smaller than `speckShare` of its largest piece, removed. A
    /// fragment of the top's paint can leave a few pixels apart from the top (a leg, a rail's
    /// edge); the outline's corners reached out to them, and the top, fitted loosely, did not
    /// look solid enough to pass (held2-0006: a board 110 pixels long at 1280×720, a 4-pixel speck
    /// below its near end, confidence 0.54). A top cut in two by bags across it keeps both halves;
    /// but a sliver of the top past bags lying across its end is as small as such a speck, and
    /// the end is carried out to it (`EndUnderBags`): so the detector drops specks only for a
    /// candidate that fails as it stands.
    static func withoutSpecks(_ mask: [UInt8], width: Int, height: Int) -> [UInt8] {
        let pieces = Blobs.label(mask, width: width, height: height)
        guard pieces.count > 1, let largest = pieces.map(\.count).max() else { return mask }
        var out = mask
        for piece in pieces where Double(piece.count) < speckShare * Double(largest) {
            for i in piece { out[i] = 0 }
        }
        return out
    }

    /// See `withoutSpecks`.
    static let speckShare = 0.02

    /// The outside of the region after a morphological closing by a square of half-side
    /// `radius`: gaps in the region narrower than about twice the radius no longer let the
    /// outside in. Padded by `radius + 1` on every side of the mask's box.
    func outsideAfterClosing(radius k: Int) -> (outside: [UInt8], pad: Int, width: Int) {
        Self.outsideAfterClosing(region, width: width, height: height, radius: k)
    }

    /// The same for any 0/1 `region` of `width` × `height`.
    static func outsideAfterClosing(_ region: [UInt8], width: Int, height: Int, radius k: Int) -> (outside: [UInt8], pad: Int, width: Int) {
        let pad = k + 1
        let pw = width + 2 * pad, ph = height + 2 * pad
        // Dilate the region: rows, then columns, each a running count over a window of 2k + 1.
        var rows = [UInt8](repeating: 0, count: pw * ph)
        for y in 0..<height {
            var count = 0
            let src = y * width, dst = (y + pad) * pw + pad
            for x in -k..<(width + k) {
                if x + k < width, region[src + x + k] == 1 { count += 1 }
                if x - k - 1 >= 0, region[src + x - k - 1] == 1 { count -= 1 }
                if count > 0 { rows[dst + x] = 1 }
            }
        }
        var dilated = [UInt8](repeating: 0, count: pw * ph)
        for x in 0..<pw {
            var count = 0
            for y in 0..<ph {
                if y + k < ph, rows[(y + k) * pw + x] == 1 { count += 1 }
                if y - k - 1 >= 0, rows[(y - k - 1) * pw + x] == 1 { count -= 1 }
                if count > 0 { dilated[y * pw + x] = 1 }
            }
        }
        return (floodFromCorner(blocked: dilated, width: pw, height: ph), pad, pw)
    }

    /// 1 where a 4-connected flood from the top-left pixel reaches through unblocked pixels.
    private static func floodFromCorner(blocked: [UInt8], width w: Int, height h: Int) -> [UInt8] {
        var reached = [UInt8](repeating: 0, count: w * h)
        var stack: [Int] = [0]
        reached[0] = 1
        while let p = stack.popLast() {
            let x = p % w, y = p / w
            @inline(__always) func visit(_ q: Int) {
                if reached[q] == 0 && blocked[q] == 0 {
                    reached[q] = 1
                    stack.append(q)
                }
            }
            if x > 0 { visit(p - 1) }
            if x < w - 1 { visit(p + 1) }
            if y > 0 { visit(p - w) }
            if y < h - 1 { visit(p + w) }
        }
        return reached
    }

    /// Whether the work-image point `p` lies on the filled mask.
    func contains(_ p: PlanePoint) -> Bool {
        let x = Int(p.x.rounded(.down)) - originX, y = Int(p.y.rounded(.down)) - originY
        return x >= 0 && x < width && y >= 0 && y < height && filled[y * width + x] == 1
    }

    /// Boundary samples in image (work) coordinates with pixel (i, j) covering [i, i+1] × [j, j+1]:
    /// the left and right ends of every row run and the top and bottom ends of every column.
    func boundaryPoints() -> [PlanePoint] {
        var pts: [PlanePoint] = []
        for y in 0..<height {
            var first = -1, last = -1
            for x in 0..<width where filled[y * width + x] == 1 {
                if first < 0 { first = x }
                last = x
            }
            if first >= 0 {
                let cy = Double(originY + y) + 0.5
                pts.append(PlanePoint(Double(originX + first), cy))
                pts.append(PlanePoint(Double(originX + last + 1), cy))
            }
        }
        for x in 0..<width {
            var first = -1, last = -1
            for y in 0..<height where filled[y * width + x] == 1 {
                if first < 0 { first = y }
                last = y
            }
            if first >= 0 {
                let cx = Double(originX + x) + 0.5
                pts.append(PlanePoint(cx, Double(originY + first)))
                pts.append(PlanePoint(cx, Double(originY + last + 1)))
            }
        }
        return pts
    }
}

extension RegionMask {
    /// Pixels inside `quad` (work coordinates): those of the filled mask, and those of regions
    /// lying almost wholly (`share`) inside it outside the mask: things on the top, such as
    /// bags across its edge, which notch the outline rather than leave a hole in it.
    func cover(of quad: [PlanePoint], labels: [Int32], regions: [ColourRegion], imageWidth: Int, imageHeight: Int,
               share: Double = 0.5) -> (filled: Int, objects: Int) {
        let xs = quad.map(\.x), ys = quad.map(\.y)
        let x0 = max(0, Int(xs.min()!.rounded(.down))), x1 = min(imageWidth - 1, Int(xs.max()!.rounded(.up)))
        let y0 = max(0, Int(ys.min()!.rounded(.down))), y1 = min(imageHeight - 1, Int(ys.max()!.rounded(.up)))
        guard x0 <= x1, y0 <= y1 else { return (0, 0) }
        var filledInside = 0
        var inside: [Int32: Int] = [:]
        for y in y0...y1 {
            for x in x0...x1 where polygonContains(quad, PlanePoint(Double(x) + 0.5, Double(y) + 0.5)) {
                let mx = x - originX, my = y - originY
                if mx >= 0, mx < width, my >= 0, my < height, filled[my * width + mx] == 1 {
                    filledInside += 1
                    continue
                }
                inside[labels[y * imageWidth + x], default: 0] += 1
            }
        }
        let objects = inside.reduce(0) { sum, entry in
            Double(entry.value) >= share * Double(regions[Int(entry.key)].area) ? sum + entry.value : sum
        }
        return (filledInside, objects)
    }
}

/// Pieces of a board top cut off from its main colour region by painted graphics: a border
/// stripe leaves a band of the same paint at each end, a ring around the hole leaves an island.
///
/// A fragment is a region of nearly the same mean colour (within 12 % of its brightness, so
/// the darker front face and side rail of the same paint stay out), no larger than the main
/// region, touching it within a few percent of its size and lying within a quarter of it. Joined to it, they give the whole top's outline.
/// Bags lying across a small top can cut it into pieces of similar size, a bag's width apart:
/// `Reach.acrossBags` joins pieces that far apart lying up to a region-length past it (the
/// detector tries that only when the region alone fails).
enum SurfaceFragments {
    struct Joined {
        var members: Set<Int32>
        var box: (minX: Int, minY: Int, maxX: Int, maxY: Int)
        /// Pixels of the members' colour.
        var area: Int
    }

    /// How far from the region, as fractions of its longer side, a fragment may touch it and
    /// lie, and how large it may be, as a multiple of the region's area.
    struct Reach {
        var touch: Double
        var room: Double
        var size: Double
        /// Painted graphics: a stripe or ring's width apart, within a quarter of the region (the
        /// end beyond a hole's ring can be cut off whole), no larger than it.
        static let graphics = Reach(touch: 0.08, room: 0.25, size: 1)
        /// Bags lying across the top: a bag's width apart (a bag is an eighth of the board, and
        /// the region at least a third of it), within a region-length, up to twice its size
        /// (each piece then stands for the whole top, not a half of it that looks like a board).
        static let acrossBags = Reach(touch: 0.4, room: 1, size: 2)
    }

    static func join(_ region: ColourRegion, regions: [ColourRegion], labels: [Int32], width w: Int, height h: Int,
                     reach limits: Reach = .graphics) -> Joined {
        let long = max(region.boxWidth, region.boxHeight)
        let reach = max(3, Int(limits.touch * Double(long)))
        let room = max(reach, Int(limits.room * Double(long)))
        let x0 = max(0, region.minX - room), x1 = min(w - 1, region.maxX + room)
        let y0 = max(0, region.minY - room), y1 = min(h - 1, region.maxY + room)
        let bw = x1 - x0 + 1, bh = y1 - y0 + 1
        // City-block distance from the main region, two passes.
        let far = Int32(1 << 20)
        var distance = [Int32](repeating: far, count: bw * bh)
        for y in 0..<bh {
            for x in 0..<bw where labels[(y0 + y) * w + x0 + x] == region.label { distance[y * bw + x] = 0 }
        }
        for y in 0..<bh {
            for x in 0..<bw {
                var d = distance[y * bw + x]
                if x > 0 { d = min(d, distance[y * bw + x - 1] + 1) }
                if y > 0 { d = min(d, distance[(y - 1) * bw + x] + 1) }
                distance[y * bw + x] = d
            }
        }
        for y in stride(from: bh - 1, through: 0, by: -1) {
            for x in stride(from: bw - 1, through: 0, by: -1) {
                var d = distance[y * bw + x]
                if x < bw - 1 { d = min(d, distance[y * bw + x + 1] + 1) }
                if y < bh - 1 { d = min(d, distance[(y + 1) * bw + x] + 1) }
                distance[y * bw + x] = d
            }
        }
        let mean = region.meanColour
        let tolerance = max(15, (mean.0 + mean.1 + mean.2) * 12 / 100)
        var judged: [Int32: Bool] = [region.label: true]
        var joined = Joined(members: [region.label], box: (region.minX, region.minY, region.maxX, region.maxY), area: region.area)
        for y in 0..<bh {
            for x in 0..<bw where distance[y * bw + x] <= Int32(reach) {
                let l = labels[(y0 + y) * w + x0 + x]
                guard judged[l] == nil else { continue }
                let r = regions[Int(l)]
                let c = r.meanColour
                let ok = abs(c.0 - mean.0) + abs(c.1 - mean.1) + abs(c.2 - mean.2) <= tolerance && Double(r.area) <= limits.size * Double(region.area)
                    && r.minX >= max(1, x0) && r.maxX <= min(w - 2, x1) && r.minY >= max(1, y0) && r.maxY <= min(h - 2, y1)
                judged[l] = ok
                guard ok else { continue }
                joined.members.insert(l)
                joined.area += r.area
                joined.box = (min(joined.box.minX, r.minX), min(joined.box.minY, r.minY),
                              max(joined.box.maxX, r.maxX), max(joined.box.maxY, r.maxY))
            }
        }
        return joined
    }
}

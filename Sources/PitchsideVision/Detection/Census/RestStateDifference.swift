import PitchsideCore

/// One picture's bags and the pixels around the board they were found in (`BagFinder.scan`).
struct BagScan: Sendable {
    var sightings: [BagSighting]
    /// Top-left corner of the region in the finder's working picture.
    var origin: (x: Int, y: Int)
    var width: Int
    var height: Int
    /// The region's colours, unblurred.
    var colours: WorkImage
    /// 1 where a pixel has a bag's colour (neither board nor ground).
    var bagMask: [UInt8]
    /// Source pixels per working pixel.
    var scale: Double
    /// One bag's area at rest, source pixels.
    var singleBagArea: Double

    /// Whether `other` looked at the same pixels.
    func sameRegion(as other: BagScan) -> Bool {
        origin == other.origin && width == other.width && height == other.height && scale == other.scale
    }

    /// The region's pixels within `sighting`'s box grown by `margin` source pixels; nil when none.
    func pixels(of sighting: BagSighting, margin: Double = 0) -> (x: Range<Int>, y: Range<Int>)? {
        pixels(from: sighting.extentMin, to: sighting.extentMax, margin: margin)
    }

    /// The region's pixels within the box from `low` to `high` (source pixels) grown by
    /// `margin`; nil when none.
    func pixels(from low: PlanePoint, to high: PlanePoint, margin: Double = 0) -> (x: Range<Int>, y: Range<Int>)? {
        let x0 = max(0, Int((low.x - margin) / scale) - origin.x)
        let x1 = min(width, Int(((high.x + margin) / scale).rounded(.up)) - origin.x)
        let y0 = max(0, Int((low.y - margin) / scale) - origin.y)
        let y1 = min(height, Int(((high.y + margin) / scale).rounded(.up)) - origin.y)
        guard x1 > x0, y1 > y0 else { return nil }
        return (x0..<x1, y0..<y1)
    }

    /// Where along the picture's x (source pixels) the bag-coloured pixels of `sighting`'s box
    /// lie in the rows that start above `y`; nil when there are none.
    func columns(of sighting: BagSighting, above y: Double) -> ClosedRange<Double>? {
        guard let box = pixels(of: sighting) else { return nil }
        var low = Int.max, high = Int.min
        for row in box.y where Double(origin.y + row) * scale < y {
            for column in box.x where bagMask[row * width + column] != 0 {
                low = min(low, column)
                high = max(high, column)
            }
        }
        guard low <= high else { return nil }
        return Double(origin.x + low) * scale...Double(origin.x + high + 1) * scale
    }
}

/// A patch of pixels that changed between two rest states.
public struct ChangedPatch: Sendable, Equatable {
    /// Centre, source pixels.
    public var center: PlanePoint
    /// Area, source pixels.
    public var area: Double
    /// Bounding box, source pixels.
    public var extentMin: PlanePoint
    public var extentMax: PlanePoint
    /// Of `area`, the pixels that were bag-coloured before in another colour (a bag come down
    /// on a bag), source pixels.
    public var overBagArea: Double = 0

    /// Whether the patch's centre lies within `sighting`'s box grown by `margin` pixels.
    func lies(in sighting: BagSighting, margin: Double) -> Bool { sighting.covers(center, margin: margin) }
}

/// What changed between the last rest state and this one, pixel by pixel: bag-coloured pixels
/// that were something else before (a bag came to rest there) and bag-coloured pixels that are
/// board or ground now (a bag left).
///
/// Counting bags by the size of the blobs they make fails where bags touch: a bag that comes to
/// rest against a pile grows the pile's blob by less than its own area, and a blob's area moves
/// with compression and noise by as much. The difference between two still pictures of the same
/// scene does not depend on what lies next to the new bag.
struct RestStateDifference: Sendable {
    var appeared: [ChangedPatch]
    var disappeared: [ChangedPatch]
    /// Patches of bag pixels that stayed bag but changed shade (by more than `changeThreshold`,
    /// not more than `newBagOverBagThreshold`): a same-coloured bag on top, or a resting bag
    /// re-lit; each at least `minimumShare` of a bag.
    var reshaded: [ChangedPatch]

    /// Colour distance (`ColourFeature` units, on 3 × 3 blurred pixels) that counts as a change:
    /// well above sensor noise and compression, well below a bag against board or ground.
    static let changeThreshold = 24.0
    /// The share of its brightness by which a pixel that turned bag-coloured (or back) must
    /// change to count, whatever its colour distance: held7-0002 throw 8, a navy bag come to rest
    /// on a light blue top at 640×360 (chroma alike, brightness 122 → 37: distance 15–28 over its
    /// 28 pixels, 6 past `changeThreshold`), was never counted.
    static let flipBrightnessShare = 0.5
    /// How far a pixel that was bag-coloured already must change to count as a new bag's: far
    /// enough for another bag's colour, past the re-shading of a resting bag when one lands or
    /// drops into the hole beside it.
    static let newBagOverBagThreshold = 72.0
    /// The least patch, in one bag's area: a bag that lands on another of its own colour changes
    /// only the part of it that covers board or ground.
    static let minimumShare = 0.3
    /// How much more, in one bag's area, may turn bag-coloured than turns back beside it for the
    /// two to be one bag that shifted.
    static let movedNetShare = 0.5
    /// The least size, in one bag's area, of a second new patch in one rest state.
    static let secondBagShare = 0.8
    /// The least size, in one bag's area, of a bag come down on a pile of its own colour whose
    /// new part and re-shaded part are each too small for a patch (`minimumShare`): on a board
    /// 55 pixels long a bag covers about 30 pixels, and one on top of a pile showed 8 new and 7
    /// re-shaded side by side (dev3-0016 throw 8: 0.52 of a bag; dev3-0010 throw 5: 0.53). A bag
    /// going into the hole beside a pile stirred it by at most 0.33 of a bag in the development
    /// and held games (46 such throws).
    static let pileLandingShare = 0.45
    /// The least share of such a piece that was board or ground before: a resting bag
    /// re-shaded that spread a few pixels at its edge is mostly re-shaded (dev3-0000 throw 1:
    /// 5 new of 27; the bag on the pile in dev3-0016 throw 8: 8 of 15).
    static let pileNewShare = 0.25
    /// How many pixels may turn back to board or ground around a bag come down on a pile, for
    /// each of its new ones.
    static let shiftLeftShare = 0.25
    /// The share of a new patch that must have been a bag of another colour before for it to
    /// be a bag come down on that bag rather than one that shifted.
    static let overBagShare = 0.5
    /// The least piece of a bag short of a patch, in one bag's area, that joins others within
    /// `pieceReach` bag sides to make one.
    static let pieceShare = 0.15
    static let pieceReach = 1.5

    /// nil when the two scans did not look at the same pixels (the board moved). A bag come down
    /// on a pile (`pileLandingShare`) is looked for only when one was seen `arriving`.
    init?(from before: BagScan, to after: BagScan, arriving: Bool = true) {
        guard let patches = Self.patches(from: before, to: after) else { return nil }
        var (appeared, disappeared) = (patches.appeared, patches.disappeared)
        // A bag that shifted a little (it was still settling at the last rest state) leaves
        // a patch of each kind side by side, of a size: a move, not a new bag. A bag that came
        // down on another and pushed it leaves more new than gone (dev7-0010 throw 3: a bag
        // appeared beside 0.4 of one gone). A patch mostly over a bag of another colour is a
        // bag come down on it, whatever turned back beside it (held2-0006 throw 8: a dark blue
        // bag on a yellow one on the ground, its darkest pixels taken for ground).
        let bagSide = after.singleBagArea.squareRoot()
        for a in appeared.indices.reversed() {
            let p = appeared[a]
            if p.overBagArea < Self.overBagShare * p.area, let g = disappeared.indices.first(where: {
                disappeared[$0].center.distance(to: p.center) <= 1.5 * bagSide
                    && p.area - disappeared[$0].area < Self.movedNetShare * after.singleBagArea
            }) {
                appeared.remove(at: a)
                disappeared.remove(at: g)
            }
        }
        // Nothing new on its own: a bag may have come down on a pile of its own colour, its new
        // and re-shaded parts each short of a patch (`pileLandingShare`).
        if appeared.isEmpty, arriving, let landing = patches.pileLandings.first(where: { landing in
            !disappeared.contains { $0.center.distance(to: landing.patch.center) <= 1.5 * bagSide }
        }), landing.newShare >= Self.pileNewShare {
            appeared = [landing.patch]
        }
        // One throw brings one bag between rest states: the largest patch is it. Another counts
        // only when most of a bag's size; smaller ones are bags of a pile re-shaded (compression
        // of a still scene varies from frame to frame). With nothing seen arriving, the largest
        // too: a piece short of most of a bag is a bag that was still settling at the last rest
        // state (held5-0016: a yellow bag on a white top at 640×360 grew by 10 pixels of 26
        // between two rest states and was counted twice).
        let joinedAppeared = Self.joined(appeared, within: bagSide).sorted { $0.area > $1.area }
        self.appeared = joinedAppeared.enumerated().filter {
            ($0.offset == 0 && arriving) || $0.element.area >= Self.secondBagShare * after.singleBagArea
        }.map(\.element)
        self.disappeared = Self.joined(disappeared, within: bagSide)
        self.reshaded = Self.joined(patches.reshaded, within: bagSide)
    }

    /// Whether any patch of bag colour came or went between the two pictures: a bag still
    /// sliding along a pile moves the pile's blob too little to tell, but not its pixels.
    static func anyChange(from before: BagScan, to after: BagScan) -> Bool {
        guard let (appeared, disappeared, _, _) = patches(from: before, to: after) else { return true }
        return !appeared.isEmpty || !disappeared.isEmpty
    }

    /// Whether a pixel changed between two pictures: its colour moved by more than
    /// `changeThreshold`, or it turned bag-coloured or back (`flipped`) and its brightness changed
    /// by more than `flipBrightnessShare` (a dark bag of the top's own hue changes little else).
    static func changed(from was: ColourFeature, to now: ColourFeature, flipped: Bool) -> Bool {
        was.distance(to: now) > changeThreshold
            || (flipped && abs(was.luma - now.luma) > flipBrightnessShare * max(was.luma, now.luma))
    }

    /// Of the bag-coloured pixels of `after` within `sighting`'s box, the share whose colour
    /// changed since `before`; nil when the two scans did not look at the same pixels or the box
    /// holds none. For a blob too small to leave a patch of `minimumShare`: a bag at 640×360 half
    /// hidden behind the board's end shows as a few pixels.
    static func changedShare(of sighting: BagSighting, from before: BagScan, to after: BagScan) -> Double? {
        guard after.sameRegion(as: before), let box = after.pixels(of: sighting) else { return nil }
        let w = after.width
        let a = before.colours.blurred(), b = after.colours.blurred()
        var bag = 0, changed = 0
        for y in box.y {
            for x in box.x where after.bagMask[y * w + x] != 0 {
                bag += 1
                let p = a.pixel(x, y), q = b.pixel(x, y), i = y * w + x
                if Self.changed(from: ColourFeature(p.0, p.1, p.2), to: ColourFeature(q.0, q.1, q.2),
                                flipped: before.bagMask[i] != after.bagMask[i]) { changed += 1 }
            }
        }
        return bag > 0 ? Double(changed) / Double(bag) : nil
    }

    /// Of the bag-coloured pixels of `after` within `sighting`'s box, the share that were already
    /// bag-coloured in `before` (its `bagMask`: faint pixels only where they touch bag colour);
    /// nil when the two scans did not look at the same pixels or the box holds none. A bag too
    /// faint for a blob still shows a few such pixels.
    static func heldShare(of sighting: BagSighting, from before: BagScan, to after: BagScan) -> Double? {
        guard after.sameRegion(as: before), let box = after.pixels(of: sighting) else { return nil }
        let w = after.width
        var bag = 0, held = 0
        for y in box.y {
            for x in box.x where after.bagMask[y * w + x] != 0 {
                bag += 1
                if before.bagMask[y * w + x] != 0 { held += 1 }
            }
        }
        return bag > 0 ? Double(held) / Double(bag) : nil
    }

    /// Of all the pixels within the box from `low` to `high` (source pixels), the share whose
    /// colour changed between the two scans; nil when they did not look at the same pixels or
    /// the box lies outside them. For a bag no longer seen: where it sank into the hole, its
    /// pixels turned to the hole's dark; where it only faded into the top's colour with the
    /// codec, they hardly changed.
    static func changedShare(from low: PlanePoint, to high: PlanePoint, before: BagScan, after: BagScan) -> Double? {
        guard after.sameRegion(as: before), let box = after.pixels(from: low, to: high) else { return nil }
        let w = after.width
        let a = before.colours.blurred(), b = after.colours.blurred()
        var changed = 0
        for y in box.y {
            for x in box.x {
                let p = a.pixel(x, y), q = b.pixel(x, y), i = y * w + x
                if Self.changed(from: ColourFeature(p.0, p.1, p.2), to: ColourFeature(q.0, q.1, q.2),
                                flipped: before.bagMask[i] != after.bagMask[i]) { changed += 1 }
            }
        }
        return Double(changed) / Double(box.x.count * box.y.count)
    }

    /// Of all the pixels of `scan` within the box from `low` to `high` (source pixels), the share
    /// bag-coloured (its `bagMask`: faint pixels only where they touch bag colour); nil when the
    /// box lies outside the scan.
    static func bagColouredShare(from low: PlanePoint, to high: PlanePoint, in scan: BagScan) -> Double? {
        guard let box = scan.pixels(from: low, to: high) else { return nil }
        var coloured = 0
        for y in box.y {
            for x in box.x where scan.bagMask[y * scan.width + x] != 0 { coloured += 1 }
        }
        return Double(coloured) / Double(box.x.count * box.y.count)
    }

    /// Of the pixels within `sighting`'s box (grown by half a bag) whose colour changed between
    /// the rest states `before` and `last`, the share that is back as it was at `before`: its
    /// colour then again, or no longer bag-coloured where it turned so (a bag first seen at
    /// `last` that left since). nil when the scans did not all look at the same pixels, or fewer
    /// than `minimumShare` of a bag changed.
    static func revertedShare(of sighting: BagSighting, before: BagScan, last: BagScan, now: BagScan) -> Double? {
        guard now.sameRegion(as: before), now.sameRegion(as: last),
              let box = now.pixels(of: sighting, margin: 0.5 * now.singleBagArea.squareRoot()) else { return nil }
        let k = now.scale, w = now.width
        let a = before.colours.blurred(), b = last.colours.blurred(), c = now.colours.blurred()
        var changed = 0, reverted = 0
        for y in box.y {
            for x in box.x {
                let i = y * w + x
                guard before.bagMask[i] != 0 || last.bagMask[i] != 0 else { continue }
                let p = a.pixel(x, y), q = b.pixel(x, y), r = c.pixel(x, y)
                let was = ColourFeature(p.0, p.1, p.2)
                guard Self.changed(from: was, to: ColourFeature(q.0, q.1, q.2), flipped: before.bagMask[i] != last.bagMask[i]) else { continue }
                changed += 1
                // Back: its colour at `before` again, or no longer bag-coloured where it turned so
                // (the hole behind a bag that sank into it need not look as it did).
                if !Self.changed(from: was, to: ColourFeature(r.0, r.1, r.2), flipped: before.bagMask[i] != now.bagMask[i])
                    || (before.bagMask[i] == 0 && now.bagMask[i] == 0) { reverted += 1 }
            }
        }
        guard Double(changed) >= Self.minimumShare * now.singleBagArea / (k * k) else { return nil }
        return Double(reverted) / Double(changed)
    }

    /// The patches that turned bag-coloured, that turned back, and that stayed bag but changed
    /// shade, unpaired; and the pieces of picture where a bag may have come down on a pile of its
    /// own colour (pixels turned bag-coloured touching re-shaded ones, together at least
    /// `pileLandingShare` of a bag), largest first. nil when the two scans did not look at the
    /// same pixels.
    static func patches(from before: BagScan, to after: BagScan)
        -> (appeared: [ChangedPatch], disappeared: [ChangedPatch], reshaded: [ChangedPatch],
            pileLandings: [(patch: ChangedPatch, newShare: Double)])? {
        guard after.sameRegion(as: before) else { return nil }
        let w = after.width, h = after.height
        let a = before.colours.blurred(), b = after.colours.blurred()
        var grown = [UInt8](repeating: 0, count: w * h)
        var gone = [UInt8](repeating: 0, count: w * h)
        var shaded = [UInt8](repeating: 0, count: w * h)
        for i in 0..<(w * h) where after.bagMask[i] != 0 || before.bagMask[i] != 0 {
            let x = i % w, y = i / w
            let p = a.pixel(x, y), q = b.pixel(x, y)
            let was = ColourFeature(p.0, p.1, p.2), now = ColourFeature(q.0, q.1, q.2)
            guard Self.changed(from: was, to: now, flipped: after.bagMask[i] != before.bagMask[i]) else { continue }
            let d = was.distance(to: now)
            if after.bagMask[i] == 0 {
                gone[i] = 1
            } else if before.bagMask[i] == 0 || d > Self.newBagOverBagThreshold {
                grown[i] = 1
            } else {
                shaded[i] = 1
            }
        }
        let minimum = Self.minimumShare * after.singleBagArea / (after.scale * after.scale)
        func patch(_ blob: [Int]) -> ChangedPatch {
            var sx = 0.0, sy = 0.0, x0 = Int.max, x1 = Int.min, y0 = Int.max, y1 = Int.min, overBag = 0
            for i in blob {
                let x = i % w, y = i / w
                sx += Double(x) + 0.5; sy += Double(y) + 0.5
                x0 = min(x0, x); x1 = max(x1, x); y0 = min(y0, y); y1 = max(y1, y)
                if before.bagMask[i] != 0, after.bagMask[i] != 0 { overBag += 1 }
            }
            let n = Double(blob.count), k = after.scale
            let ox = Double(after.origin.x), oy = Double(after.origin.y)
            return ChangedPatch(center: PlanePoint((ox + sx / n) * k, (oy + sy / n) * k), area: n * k * k,
                                extentMin: PlanePoint((ox + Double(x0)) * k, (oy + Double(y0)) * k),
                                extentMax: PlanePoint((ox + Double(x1 + 1)) * k, (oy + Double(y1 + 1)) * k),
                                overBagArea: Double(overBag) * k * k)
        }
        func patches(_ mask: [UInt8]) -> [ChangedPatch] {
            Blobs.label(mask, width: w, height: h).filter { Double($0.count) >= minimum }.map(patch)
        }
        var changedBag = [UInt8](repeating: 0, count: w * h)
        for i in 0..<(w * h) where grown[i] != 0 || shaded[i] != 0 { changedBag[i] = 1 }
        let pileMinimum = Self.pileLandingShare * after.singleBagArea / (after.scale * after.scale)
        let margin = Int((after.singleBagArea.squareRoot() / after.scale).rounded(.up))
        // Some of it must have been board or ground before (a bag on top reaches past the pile),
        // and next to nothing turned back to board or ground around it: a resting bag that
        // shifted a little leaves as many pixels as it takes (dev3-0000 throw 1).
        let pileLandings = Blobs.label(changedBag, width: w, height: h).compactMap { blob -> (patch: ChangedPatch, newShare: Double)? in
            let new = blob.reduce(0) { $0 + Int(grown[$1]) }
            guard Double(blob.count) >= pileMinimum, new > 0 else { return nil }
            let xs = blob.map { $0 % w }, ys = blob.map { $0 / w }
            var left = 0
            for y in max(0, ys.min()! - margin)...min(h - 1, ys.max()! + margin) {
                for x in max(0, xs.min()! - margin)...min(w - 1, xs.max()! + margin) where gone[y * w + x] != 0 { left += 1 }
            }
            guard Double(left) <= Self.shiftLeftShare * Double(new) else { return nil }
            return (patch(blob), Double(new) / Double(blob.count))
        }.sorted { $0.patch.area > $1.patch.area }
        // A small bag that comes to rest can show as pieces each short of a patch (held2-0018
        // throw 1: a dark blue bag on dark ground at 640×360, two pieces of a third of a bag
        // side by side): pieces of a fair size close together count as one.
        let pieceMinimum = Self.pieceShare * after.singleBagArea / (after.scale * after.scale)
        let grownBlobs = Blobs.label(grown, width: w, height: h)
        let pieces = grownBlobs.filter { Double($0.count) >= pieceMinimum && Double($0.count) < minimum }.map(patch)
        let joinedPieces = Self.joined(pieces, within: Self.pieceReach * after.singleBagArea.squareRoot())
            .filter { $0.area >= Self.minimumShare * after.singleBagArea && $0.area > pieces.map(\.area).max() ?? 0 }
        let appeared = grownBlobs.filter { Double($0.count) >= minimum }.map(patch)
        return (appeared + joinedPieces, patches(gone), patches(shaded), pileLandings)
    }

    /// Patches whose centres lie within `distance` of each other joined into one: one bag that
    /// comes to rest partly over another of its own colour changes two pieces of picture.
    static func joined(_ patches: [ChangedPatch], within distance: Double) -> [ChangedPatch] {
        var out: [ChangedPatch] = []
        for p in patches.sorted(by: { $0.area > $1.area }) {
            if let i = out.firstIndex(where: { $0.center.distance(to: p.center) <= distance }) {
                let q = out[i], n = q.area + p.area
                out[i] = ChangedPatch(center: (q.center * q.area + p.center * p.area) * (1 / n), area: n,
                                      extentMin: PlanePoint(min(q.extentMin.x, p.extentMin.x), min(q.extentMin.y, p.extentMin.y)),
                                      extentMax: PlanePoint(max(q.extentMax.x, p.extentMax.x), max(q.extentMax.y, p.extentMax.y)),
                                      overBagArea: q.overBagArea + p.overBagArea)
            } else {
                out.append(p)
            }
        }
        return out
    }
}

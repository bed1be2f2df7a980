import Foundation
import PitchsideCore

/// Finds the bags in one picture around a known board and says where each lies.
///
/// A bag is a compact blob whose colour is far from the board top's and from every colour of
/// the ground around the board (chroma counts more than brightness, so shadows and trim do
/// not). Blobs are kept when their size fits a 6 in bag at the board's scale. A blob mostly
/// inside the hole is in the hole (an overhead view sees it there; a side view never does);
/// one whose centre lies on the top surface is on the board; the rest are on the ground.
public struct BagFinder: Sendable {
    /// Colour distance (chroma units) a bag must keep from the board, and from a textured ground
    /// (`groundColourThreshold`).
    public var colourThreshold = 45.0
    /// How far around the board to look, in board lengths.
    public var reach = 0.6
    public var workingSize = 640
    /// The most bags one blob on the top is taken to hold: a game's eight can lie in one pile (dev
    /// game 3001: seven bags touching along a 640×360 top made a blob of 7.2 bags' area; with
    /// four the most, it was no bag at all, and the census said every bag had gone).
    public var maxBagsPerBlob = 8
    /// How much larger than its true area a blob of bags can look: one bag alone measured 1.3–1.8
    /// bag areas at 640×360 (blur), so a pile of `maxBagsPerBlob` may reach 1.8 times theirs
    /// (dev3-0005: eight bags piled on a 1280×720 top passed 8.5 bags' area, the pile was no
    /// bag, and the census moved every bag of it into the hole at once).
    public var blurGrowth = 1.8
    /// The most bags one blob off the top is taken to hold: a larger blob on the ground is
    /// something else (a person's legs, a shadow).
    public var maxBagsPerGroundBlob = 4
    /// ... except, in a side view, a blob no taller than this many bag sides lying wholly inside
    /// the region looked at: bags scattered flat on the ground that touch (held18-0008: five
    /// bags behind a 960×540 board's back end made one blob of seven bag areas, it was dropped,
    /// and a sixth that slid off the back end into it was taken to have gone into the hole).
    /// Legs stand taller; whatever the region's edge cuts off may be anything.
    public var flatGroundPileRows = 2.0
    /// How far past a half a blob's area (in bag areas) must reach before it counts one more bag
    /// (a blurred bag looks larger than it is: one alone measured 1.3–1.8 bag areas at 640×360).
    public var splitMargin = 0.35
    /// The widest one bag on the top looks, in bag sides (a square turned 45° is 1.41 across,
    /// and blur adds about a pixel each side at 640×360): a blob on the top wider holds two or
    /// more (dev4-0004: two olive bags side by side made a blob of 1.80 bags' area, counted one).
    public var widestBag = 1.8
    /// ... when its area also says more than one bag: pairs side by side measured 1.67–1.80 bag
    /// areas (dev4-0004, held14-0005), while one olive bag at a 640×360 top's front corner, the
    /// edge's shade joined to it, made a blob 1.97 sides wide of only 1.07–1.17 (held20-0019:
    /// counted two, every rest state of the game one over).
    public var pairAreaShare = 1.4
    /// A blob on the top in a side view narrower than `oneBagRoomAcross` bag sides and shorter
    /// than `oneBagRoomRows` of one bag's rows has no room for a second bag, whatever its area:
    /// a bag blurred at 640×360 fills its box (dev3-0003: one olive bag on a blue top, 10 × 4
    /// pixels, all of them bag-coloured, 1.95 bags' area; counted two, every rest state of the
    /// game one over). Two bags side by side measured 1.75 sides or more across, one behind the
    /// other 1.7 bag rows or more tall.
    public var oneBagRoomAcross = 1.6
    public var oneBagRoomRows = 1.5
    /// Darker than this share of the lit top's brightness, a pixel on the top is not its paint
    /// (the top's outline is drawn at about 0.55).
    public var darkOnTopShare = 0.65
    /// ... and just above the top in a side view (its outline and far edge blur into it there).
    public var darkAboveTopShare = 0.45
    /// The darkest share of the lit top's brightness a face of the board takes in shade.
    public var minimumShadeShare = 0.25
    /// On the top and just above it, a colour near the paint's that is no shade of it
    /// (`isShade`) is the paint only this bright or brighter, a share of the lit top's
    /// brightness: an olive bag on a wooden top lies near the paint's yellowish hue at 0.6-0.7 of
    /// its brightness (held4-0013: two such bags standing above the top's far edge were taken
    /// for paint all game). Elsewhere the board's faces show darker paint (`isPaint`).
    public var litPaintShare = 0.8

    /// In a side view, how far below the top's near side (board lengths) its rail shows: a 9 cm
    /// rail on a 1.22 m board, and the codec's blur.
    public var railReach = 0.1
    /// There the paint in shade may lie this far in chroma from the lit top scaled to its
    /// brightness (`ColourFeature.asShade`), between `railShadeShares` of the top's brightness:
    /// farther than a shade elsewhere (`isShade`), since a lit top clipped at the picture's
    /// white reads off the paint's hue while the rail does not (held14-0014: a yellow board at
    /// gain 1.13, top (255, 246, 85), rail (221, 186, 63), 30 off; the rail was counted as bags
    /// on the ground all game).
    public var railChromaTolerance = 45.0
    public var railShadeShares = 0.5...1.0
    /// How far below each end's edge (board lengths) its end face shows, taken as the rail is:
    /// the front end's face and the back end's rail.
    public var endFaceReach = 0.1

    /// How far past the top's box, in board lengths, its faces in shade can show: past its ends
    /// (a front face, legs seen at a slant) and below it (the rail, legs down to the ground: the
    /// back stands about a quarter of the board's length high).
    public var faceReachPastEnds = 0.15
    public var faceReachBelow = 0.35

    /// Ground colour threshold: how many times the ground's own spread (`groundColourThreshold`).
    public var groundSpreadFactor = 6.0
    /// ... and the least it may be.
    public var minimumGroundThreshold = 30.0
    /// A pixel off the ground by `faintShare` of the ground threshold, whose hue is no ground
    /// colour's in any shade, is faintly bag-coloured: the ground in shade (a person's shadow)
    /// keeps the ground's hue, a small bag blurred into the ground does not. A faint pixel counts
    /// when it is darker than every ground colour (below `darkerThanGroundShare` of its
    /// brightness), else only as part of a blob that has bag-coloured pixels (dev8-0000, -0018:
    /// olive bags on grey ground at 640×360 lay 17–34 from it, under the threshold, and were never
    /// counted; dev8-0002: one on grass showed 8 pixels past the threshold, 2 rows, too thin for
    /// a bag, the rest of it 17–29 off).
    public var faintShare = 0.5
    public var darkerThanGroundShare = 0.9
    /// On a plain ground (its threshold measured under `colourThreshold`) a small bag may show
    /// only as a dip in brightness: the codec keeps colour at half the resolution, so a bag two
    /// or three pixels tall takes the ground's chroma and keeps only its own darkness
    /// (held17-0001: an olive bag on grass at 640×360 read (46, 76, 16) on (76, 106, 46), never
    /// counted). A pixel there below `dipShare` of every ground colour's brightness whose chroma
    /// stays the ground's rather than dimming with it (as a shadow's does) is a bag's, away from
    /// the board's faces. Only where a bag is at most `dipBagSide` source pixels across: a larger
    /// one keeps its colour through the codec, and a darker patch of a plain ground as large is
    /// its texture (the drawn test grounds' blotches).
    public var dipShare = 0.8
    public var dipBagSide = 10.0

    public init() {}

    public func find(in image: ImageBuffer, board fullBoard: BoardDetection) -> [BagSighting] {
        scan(in: image, board: fullBoard)?.sightings ?? []
    }

    /// The bags, and what the census needs to compare two rest states pixel by pixel: the region
    /// looked at, its colours and which of its pixels are bag-coloured.
    func scan(in image: ImageBuffer, board fullBoard: BoardDetection) -> BagScan? {
        let reduced = WorkImage.reducedSize(of: image, maxSide: workingSize)
        let board = fullBoard.scaled(toWidth: reduced.width, height: reduced.height)
        let k = Double(image.width) / Double(reduced.width)
        let quad = board.corners
        let length = board.lengthPixels
        let bag = BoardGeometry.bagSide / BoardGeometry.length * length
        let box = board.boundingBox
        let overhead = box.height > 0.35 * box.width && box.width > 0.35 * box.height
        let x0 = max(0, Int(box.x - reach * length)), x1 = min(reduced.width - 1, Int(box.x + box.width + reach * length))
        let y0 = max(0, Int(box.y - reach * length)), y1 = min(reduced.height - 1, Int(box.y + box.height + reach * length))
        guard x1 > x0, y1 > y0 else { return nil }
        // Only the board's surroundings are reduced; `work` pixel (x, y) is picture pixel (x0 + x, y0 + y).
        let work = WorkImage(image, maxSide: workingSize, columns: x0..<(x1 + 1), rows: y0..<(y1 + 1))
        let hole = board.hole
        func inHole(_ x: Double, _ y: Double, grow: Double) -> Bool {
            let a = hole.angleDegrees * Double.pi / 180
            let dx = x - hole.center.x, dy = y - hole.center.y
            let u = dx * cos(a) + dy * sin(a), v = -dx * sin(a) + dy * cos(a)
            let ma = max(1e-6, hole.semiMajor * grow), mi = max(1e-6, hole.semiMinor * grow)
            return (u * u) / (ma * ma) + (v * v) / (mi * mi) <= 1
        }

        // Board colour: the median feature over the top surface away from the hole.
        var boardSamples: [ColourFeature] = []
        var groundSamples: [ColourFeature] = []
        let step = max(1, Int(min(Double(x1 - x0), Double(y1 - y0)) / 120))
        for y in stride(from: y0, through: y1, by: step) {
            for x in stride(from: x0, through: x1, by: step) {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                let p = work.pixel(x - x0, y - y0)
                let d = polygonSignedDistance(quad, PlanePoint(px, py))
                if d < -0.02 * length, !inHole(px, py, grow: 1.3) {
                    boardSamples.append(ColourFeature(p.0, p.1, p.2))
                } else if d > 0.03 * length {
                    groundSamples.append(ColourFeature(p.0, p.1, p.2))
                }
            }
        }
        guard !boardSamples.isEmpty else { return nil }
        let boardColour = topPaint(boardSamples, found: board.surfaceColour)
        let ground = ColourClusters(samples: groundSamples, k: 4, minimumShare: 0.08)
        let groundThreshold = groundColourThreshold(groundSamples, clusters: ground)
        let dipsAreBags = groundThreshold < colourThreshold && bag * k <= dipBagSide

        // The top's box grown by a bag: only there can a pixel be on or just above the top (most
        // of the region around the board lies outside it, and the distance to the top costs).
        let nearTop = (x: (box.x - bag)...(box.x + box.width + bag), y: (box.y - bag)...(box.y + box.height + bag))
        // Where the board's faces in shade can show: a little past its ends, and below the top
        // down to the feet of its legs. Farther off, its paint in shade is a bag of that colour
        // (an olive bag on grey ground beside a yellow board reads as the board's paint in shade:
        // dev6-0004, -0005 and -0015 never counted their resting ground bags).
        let faces = (x: (box.x - faceReachPastEnds * length)...(box.x + box.width + faceReachPastEnds * length),
                     y: (box.y - bag)...(box.y + box.height + faceReachBelow * length))
        let rail = overhead ? nil : RailBand(nearSideFrom: quad[3], to: quad[2], depth: railReach * length)
        // The end faces show the same paint in shade below the ends' edges (held28-0011: the
        // front end of a yellow board at 960×540, (172, 144, 19) against a top of (255, 245, 90),
        // past the near side's end and counted as a bag on the ground all game).
        let endFaces = overhead ? [] : [EndFaceBand(endFrom: quad[3], to: quad[0], depth: endFaceReach * length),
                                        EndFaceBand(endFrom: quad[2], to: quad[1], depth: endFaceReach * length)].compactMap { $0 }
        /// Whether a pixel has a bag's colour where it lies, or faintly (`faintShare`). On the top
        /// (clear of its outline) only the top's paint, lit or shaded, and bags show: a ground
        /// colour there is a bag's (an olive bag on a blue board), and so is paint far darker than
        /// the lit top (a navy bag on a light blue board, an olive one on a yellow board). Just
        /// above the top in a side view no face of the board shows either. Elsewhere a bag is no
        /// ground, and where the board's faces can show (`faces`), neither board, its shade, nor a
        /// blend of board and ground.
        func bagColour(_ f: ColourFeature, at p: PlanePoint) -> BagColour {
            let edgeDistance = nearTop.x.contains(p.x) && nearTop.y.contains(p.y) ? polygonSignedDistance(quad, p) : .infinity
            if edgeDistance < -1, !inHole(p.x, p.y, grow: 1.5) {
                if f.luma < darkOnTopShare * boardColour.luma { return .bag }
                return isShade(f, of: boardColour) || isLitPaint(f, of: boardColour) ? .none : .bag
            }
            let level = groundContrast(f, against: ground, threshold: groundThreshold, dips: dipsAreBags)
            guard level != .none else { return .none }
            // Where the board's faces show, a faint colour is as often the board's edge blurred
            // into what lies behind it (dev8-0002: the far edge of a white top on grass grew into
            // a blob of five bags), and a dip its legs or its shade.
            if level == .faint || level == .dip, faces.x.contains(p.x), faces.y.contains(p.y) { return .none }
            // Just above the top in a side view: outside its outline, the point half a bag below
            // on it (possible only near the top's box, where the distance was measured).
            let justAbove = !overhead && edgeDistance > 0 && edgeDistance.isFinite
                && polygonContains(quad, PlanePoint(p.x, p.y + 0.5 * bag))
            if !overhead, f.luma < darkAboveTopShare * boardColour.luma, edgeDistance <= 0 || justAbove {
                return level
            }
            guard faces.x.contains(p.x), faces.y.contains(p.y) else { return level }
            // Just above the top (a bag standing on it near its far edge) no face of the board
            // shows, nor its paint in shade: only the lit top where the outline ran a pixel or two
            // low (held5-0000: an olive bag there, blurred into the grey ground, lay within a shade
            // of a wooden top's paint and was never counted).
            let paint = justAbove ? isLitPaint(f, of: boardColour)
                : isPaint(f, of: boardColour) || ((rail?.contains(p) == true || endFaces.contains { $0.contains(p) })
                    && isShade(f, of: boardColour, shares: railShadeShares, chromaTolerance: railChromaTolerance))
            return !paint && !isBlend(f, of: boardColour, with: ground) ? level : .none
        }
        // Foreground mask over the region around the board: 1 for bag colour, `overHole` for bag
        // colour over a side view's hole, which only counts as part of a bag seen around it, and
        // `faint` for a faint bag colour, kept only where it touches bag colour.
        let w = x1 - x0 + 1, h = y1 - y0 + 1
        let overHole: UInt8 = 2, faint: UInt8 = 3
        var fg = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let p = work.pixel(x, y)
                let point = PlanePoint(Double(x0 + x) + 0.5, Double(y0 + y) + 0.5)
                let f = ColourFeature(p.0, p.1, p.2)
                let colour = bagColour(f, at: point)
                guard colour != .none else { continue }
                if !overhead, inHole(point.x, point.y, grow: 1.1) {
                    // The hole is dark and its rim blends into the paint: neither is a bag. A bag
                    // lying across the hole's mouth shows there in its own colour, even a dark one
                    // (navy is no blend of the paint and black), and cut there it was too small or
                    // too thin to count (dev-stack-0013).
                    if f.asShade(of: boardColour).chromaOff >= colourThreshold, ground.distance(to: f) > groundThreshold {
                        fg[y * w + x] = overHole
                    }
                    continue
                }
                fg[y * w + x] = colour == .faint ? faint : 1
            }
        }
        Blobs.grow(&fg, width: w, height: h, from: 1, into: faint)
        let blobs = Blobs.label(fg, width: w, height: h)
        let single = singleBagArea(quad: quad, bag: bag, length: length)
        let minArea = max(6.0, (overhead ? 0.12 : 0.05) * bag * bag)
        let maxArea = max(3.5 * bag * bag, (Double(maxBagsPerBlob) * blurGrowth + 0.5) * single)
        let maxGroundArea = max(3.5 * bag * bag, (Double(maxBagsPerGroundBlob) + 0.5) * single)
        /// One bag from its pixels: centre, mean colour, and where it lies.
        func sighting(_ blob: [Int]) -> BagSighting {
            var sx = 0.0, sy = 0.0, sr = 0, sg = 0, sb = 0, holeCount = 0
            for i in blob {
                let cx = Double(x0 + i % w) + 0.5, cy = Double(y0 + i / w) + 0.5
                sx += cx; sy += cy
                let p = work.pixel(i % w, i / w)
                sr += p.0; sg += p.1; sb += p.2
                if inHole(cx, cy, grow: 1.15) { holeCount += 1 }
            }
            let n = Double(blob.count)
            let c = PlanePoint(sx / n, sy / n)
            let place: BagPlacement
            if overhead, Double(holeCount) / n >= 0.7 {
                place = .inHole
            } else if onTop(c, quad: quad, overhead: overhead, bag: bag) {
                place = .onBoard
            } else {
                place = .onGround
            }
            return BagSighting(center: PlanePoint(c.x * k, c.y * k),
                               colour: RGBColour(r: UInt8(sr / blob.count), g: UInt8(sg / blob.count), b: UInt8(sb / blob.count)),
                               place: place, area: n * k * k)
        }

        var found: [BagSighting] = []
        let topArea = abs(polygonArea(quad))
        for blob in blobs where Double(blob.count) >= minArea
            && Double(blob.lazy.filter { fg[$0] != overHole }.count) >= minArea {
            var bx0 = Int.max, bx1 = Int.min, by0 = Int.max, by1 = Int.min
            for i in blob { bx0 = min(bx0, i % w); bx1 = max(bx1, i % w); by0 = min(by0, i / w); by1 = max(by1, i / w) }
            // A pile on the top can outgrow `maxArea` (bags lying on bags show their sides): six
            // yellow bags and two olive ones on a 640×360 top made one blob of 19 bag areas, it
            // was dropped, and every bag read as gone (dev4-0016). Such a pile still lies on the
            // top, no more than a bag above it; a larger blob there (a person in front) does not.
            if Double(blob.count) > maxArea {
                let onTopOnly = Double(x0 + bx0) >= box.x - 0.5 * bag && Double(x0 + bx1 + 1) <= box.x + box.width + 0.5 * bag
                    && Double(y0 + by0) >= box.y - 1.5 * bag && Double(y0 + by1 + 1) <= box.y + box.height + bag
                guard onTopOnly, Double(blob.count) <= 1.5 * topArea else { continue }
            }
            // A bag is compact: a thin streak (the seam between the board's side and the ground)
            // is not one.
            let longest = Double(max(bx1 - bx0, by1 - by0) + 1)
            guard Double(blob.count) / longest >= 0.2 * bag else { continue }
            // Bags that touch or overlap (a small side view puts them a few pixels apart) make
            // one blob: its area says how many, a first guess the census refines with what it
            // saw at rest before.
            var sighting = sighting(blob)
            let flatPile = !overhead && Double(by1 - by0 + 1) <= flatGroundPileRows * bag
                && bx0 > 0 && by0 > 0 && bx1 < w - 1 && by1 < h - 1
            guard sighting.place == .onBoard || Double(blob.count) <= maxGroundArea || flatPile else { continue }
            let byArea = Int((Double(blob.count) / single + 0.5 - splitMargin).rounded(.down))
            // Two bags side by side on the top blur into less than two bags' area, but no bag
            // alone reaches `widestBag` sides across. (Off the top a blob that wide is as often
            // a bag and its shadow or the board's leg: counted by area.)
            let across = longest / bag
            let widePair = sighting.place == .onBoard && across >= widestBag && Double(blob.count) >= pairAreaShare * single
            let byWidth = widePair ? Int((across + 0.5 - splitMargin).rounded(.down)) : 1
            // One bag's rows: its area over its width.
            let rows = Double(by1 - by0 + 1) / (single / bag)
            let roomForOne = !overhead && sighting.place == .onBoard && across < oneBagRoomAcross && rows < oneBagRoomRows
            let count = roomForOne ? 1 : min(maxBagsPerBlob, max(1, byArea, byWidth))
            sighting.count = count
            sighting.extentMin = PlanePoint(Double(x0 + bx0) * k, Double(y0 + by0) * k)
            sighting.extentMax = PlanePoint(Double(x0 + bx1 + 1) * k, Double(y0 + by1 + 1) * k)
            sighting.singleBagArea = single * k * k
            found.append(sighting)
        }
        return BagScan(sightings: found, origin: (x0, y0), width: w, height: h,
                       colours: WorkImage(width: w, height: h, rgb: work.rgb, scale: k),
                       bagMask: fg, scale: k, singleBagArea: single * k * k)
    }

    /// How far from every ground colour a bag's must lie: `colourThreshold` on a textured
    /// ground, less on a plain one, where a small bag blurs towards it (the synthetic games'
    /// grounds come through the codec with nine in ten of their pixels within 1–5 of their
    /// cluster; an olive bag on grass at 640×360 lay 20–31 from the grass).
    /// `groundSpreadFactor` times that spread, between `minimumGroundThreshold` and
    /// `colourThreshold`.
    func groundColourThreshold(_ samples: [ColourFeature], clusters: ColourClusters) -> Double {
        guard samples.count >= 20, !clusters.centres.isEmpty else { return colourThreshold }
        // The spread matters only below `colourThreshold / groundSpreadFactor`: a histogram of the
        // distances up to there, in one pass over the samples rather than a sort of them all on
        // every frame.
        let cap = colourThreshold / groundSpreadFactor, binWidth = 0.01
        var bins = [Int](repeating: 0, count: Int((cap / binWidth).rounded(.up)) + 1)
        for s in samples {
            let d = clusters.distance(to: s)
            if d < cap { bins[Int(d / binWidth)] += 1 }
        }
        var within = 0
        for (i, n) in bins.enumerated() {
            within += n
            if within > samples.count * 9 / 10 {
                return min(colourThreshold, max(minimumGroundThreshold, groundSpreadFactor * Double(i + 1) * binWidth))
            }
        }
        return colourThreshold
    }

    /// The top's paint from samples over the top: their median. When that median is far from the
    /// colour the board was found with (`found`), bags cover most of the top (six navy bags on a
    /// yellow board, dev game 1013) and it is a bag's colour: then only the samples near `found`
    /// count, while at least a fifth of them are.
    func topPaint(_ samples: [ColourFeature], found: RGBColour) -> ColourFeature {
        let all = ColourFeature.median(of: samples)
        let reference = ColourFeature(found)
        guard all.distance(to: reference) > colourThreshold else { return all }
        let paint = samples.filter { $0.distance(to: reference) <= colourThreshold }
        return paint.count >= max(8, samples.count / 5) ? ColourFeature.median(of: paint) : all
    }

    /// The area one bag at rest covers in the picture: its top (the board's top surface scaled
    /// down to the bag's square; the ground near the board is seen at much the same angle) and
    /// its near edge (side × thickness).
    func singleBagArea(quad: [PlanePoint], bag: Double, length: Double) -> Double {
        let top = abs(polygonArea(quad)) * (BoardGeometry.bagSide * BoardGeometry.bagSide) / (BoardGeometry.length * BoardGeometry.width)
        let edge = bag * (BoardGeometry.bagThickness / BoardGeometry.length * length)
        return max(4, top + edge)
    }

    /// Whether `f` is the board's paint, lit or in shade. Near the paint's colour counts only down
    /// to the darkest shade the board's faces take (`minimumShadeShare`): chroma counts more than
    /// brightness, so a navy bag lying against a light blue board's end is "near" its paint, but
    /// no face of the board is that dark (dev-stack-0002: such a bag, slid off the back end,
    /// was 5 pixels of a blob, and the census took the throw for one through the hole).
    private func isPaint(_ f: ColourFeature, of board: ColourFeature) -> Bool {
        if isShade(f, of: board) { return true }
        return f.distance(to: board) <= colourThreshold && f.luma >= minimumShadeShare * board.luma
    }

    /// Whether `f` is the board's paint lit: near its colour and about as bright (`litPaintShare`).
    /// Where only the top can show (on it, and just above it in a side view), a colour near the
    /// paint's but darker and no shade of it is a bag's: an olive bag on a wooden top.
    private func isLitPaint(_ f: ColourFeature, of board: ColourFeature) -> Bool {
        f.distance(to: board) <= colourThreshold && f.luma >= litPaintShare * board.luma
    }

    /// Whether `f` is the board's own paint in shade (its front face, rail, legs, border stripe):
    /// the board's chroma scaled with the brightness.
    private func isShade(_ f: ColourFeature, of board: ColourFeature) -> Bool {
        guard board.luma > 1 else { return false }
        return isShade(f, of: board, shares: minimumShadeShare...1.1, chromaTolerance: 0.6 * colourThreshold)
    }

    /// Whether `f`, read as `board`'s paint in shade (`ColourFeature.asShade`), lies within
    /// `shares` of its brightness and `chromaTolerance` of its chroma: a face in shade (`isShade`),
    /// or the rail below a side view's near side (`railShadeShares`, `railChromaTolerance`).
    private func isShade(_ f: ColourFeature, of board: ColourFeature, shares: ClosedRange<Double>, chromaTolerance: Double) -> Bool {
        let shade = f.asShade(of: board)
        return shares.contains(shade.share) && shade.chromaOff < chromaTolerance
    }

    /// How plainly `f` is no ground colour: past `threshold` from them all, or faintly so (past
    /// `faintShare` of it, with a hue none of them takes in any shade), and then a bag's colour
    /// when darker than them all (`darkerThanGroundShare`); nearer, a dip in a ground colour's
    /// brightness when `dips` (`isDip`).
    private func groundContrast(_ f: ColourFeature, against ground: ColourClusters, threshold: Double, dips: Bool) -> BagColour {
        let distance = ground.distance(to: f)
        if distance > threshold { return .bag }
        guard !ground.centres.isEmpty else { return .none }
        guard distance > faintShare * threshold else { return dips && isDip(f, against: ground) ? .dip : .none }
        var darker = true
        for c in ground.centres {
            let shade = f.asShade(of: c)
            if shade.chromaOff <= faintShare * threshold { return .none }
            if shade.share > darkerThanGroundShare { darker = false }
        }
        return darker ? .bag : .faint
    }

    /// Whether `f` is a dip in a ground colour's brightness (`dipShare`) that keeps its chroma
    /// where a shadow would dim it with the brightness; only on a ground with hue enough for
    /// the two to differ (`minimumDimming` chroma units).
    private func isDip(_ f: ColourFeature, against ground: ColourClusters) -> Bool {
        guard ground.centres.allSatisfy({ f.luma < dipShare * $0.luma }),
              let nearest = ground.centres.min(by: { $0.distance(to: f) < $1.distance(to: f) }) else { return false }
        let kept = f.chromaDistance(to: nearest)
        let dimmed = f.asShade(of: nearest).chromaOff
        return dimmed >= Self.minimumDimming && kept < 0.5 * dimmed
    }
    static let minimumDimming = 6.0

    /// Whether `f` is a mixture of the board's paint (in any shade) and a ground colour: the
    /// pixels along the seam where a thin board side meets the ground, in a small picture.
    private func isBlend(_ f: ColourFeature, of board: ColourFeature, with ground: ColourClusters) -> Bool {
        for g in ground.centres {
            // f − g = u·board − a·g with a (share of board) in 0…1 and u = a·k (k: the shade).
            let d = (f.rg - g.rg, f.yb - g.yb, f.luma - g.luma)
            let c1 = (board.rg, board.yb, board.luma), c2 = (-g.rg, -g.yb, -g.luma)
            let a11 = c1.0 * c1.0 + c1.1 * c1.1 + c1.2 * c1.2, a12 = c1.0 * c2.0 + c1.1 * c2.1 + c1.2 * c2.2
            let a22 = c2.0 * c2.0 + c2.1 * c2.1 + c2.2 * c2.2
            let b1 = c1.0 * d.0 + c1.1 * d.1 + c1.2 * d.2, b2 = c2.0 * d.0 + c2.1 * d.1 + c2.2 * d.2
            let det = a11 * a22 - a12 * a12
            guard abs(det) > 1e-6 else { continue }
            let u = (b1 * a22 - b2 * a12) / det, a = (a11 * b2 - a12 * b1) / det
            guard a >= 0, a <= 1, u >= 0.25 * a, u <= 1.1 * a else { continue }
            let r = (d.0 - u * c1.0 - a * c2.0, d.1 - u * c1.1 - a * c2.1, d.2 - u * c1.2 - a * c2.2)
            if (r.0 * r.0 + r.1 * r.1).squareRoot() + 0.25 * abs(r.2) < 0.5 * colourThreshold { return true }
        }
        return false
    }

    /// In a side view a bag on the board stands up from the thin top surface, so its centre may
    /// lie a little above the quadrilateral: on the top when any point of the short drop below
    /// it is. (Only the drop's lowest point was tried before: at an end of the board, whose
    /// edge slants, a bag near the end dropped past the front edge and counted as on the
    /// ground, dev3-0005's first bag.)
    private func onTop(_ c: PlanePoint, quad: [PlanePoint], overhead: Bool, bag: Double) -> Bool {
        if polygonContains(quad, c) { return true }
        guard !overhead else { return false }
        return stride(from: 0.05, through: 0.4, by: 0.05).contains { polygonContains(quad, PlanePoint(c.x, c.y + $0 * bag)) }
    }
}

/// How a pixel's colour reads in `BagFinder.scan`: a bag's, faintly a bag's (a bag's only in a blob
/// with bag-coloured pixels), a bag's by its darkness alone (`BagFinder.dipShare`), or not.
enum BagColour {
    case none, faint, dip, bag
}

import Foundation
import PitchsideCore

/// The outcome of one board search: the board, or why there is none.
public struct BoardSearchResult: Sendable {
    /// The board when found with at least the minimum confidence.
    public var detection: BoardDetection?
    /// The best candidate's confidence, even when it was too low to report.
    public var bestConfidence: Double
    /// Why nothing was reported (empty when a board was found).
    public var reason: String
    /// Every region examined, largest first, with its verdict (for `inspect board --explain`).
    public var candidates: [BoardCandidate] = []
}

/// One colour region the detector examined and what it made of it.
public struct BoardCandidate: Sendable {
    /// Bounding box of the region in the picture's pixels.
    public var x: Int, y: Int, width: Int, height: Int
    /// Pixels of the region's colour.
    public var area: Int
    /// The candidate's confidence when it got as far as a hole search.
    public var confidence: Double?
    /// Why it was rejected, or the figures it was scored on.
    public var verdict: String
}

/// Finds the board's top surface, its hole and the scale in one RGB picture, whatever the
/// board's colour: a side-on elevated view (a thin quadrilateral) or an overhead one.
///
/// Steps: reduce the picture (a small one is also searched doubled), split it into regions of near-constant colour, fill each large
/// region's enclosed holes (bags, the hole), fit a quadrilateral to its outline, look for a
/// round hole at the regulation position, and score. A candidate without a hole never reaches
/// the minimum confidence, so a frame with no board gives no board rather than a guess.
///
/// ```swift
/// let detector = BoardDetector()
/// if let board = detector.detect(in: image) { print(board.corners, board.metresPerPixel) }
/// ```
public struct BoardDetector: Sendable {
    /// Apple's sample accepts board detections at 0.6.
    public var minimumConfidence = 0.6
    /// Longest side of the picture searched: a side-on board's hole is only a few pixels tall,
    /// so 720p frames are searched at full size.
    public var workingSize = 1280
    /// Smallest board top as a fraction of the picture area: a side-on board 15 m away covers
    /// well under a thousandth of a 720p frame.
    public var minimumAreaFraction = 0.0003
    /// Colour regions examined, largest first.
    public var maximumCandidates = 48
    /// Longest-to-shortest side ratio a 2:1 top can show without foreshortening (perspective
    /// stretches it a little).
    public var maximumUnforeshortenedAspect = 2.6
    /// Largest angle between a foreshortened top's long axis and the horizontal, degrees.
    public var maximumSideViewTilt = 35.0
    /// Shortest length of a top seen without foreshortening, as a fraction of the picture's
    /// shorter side: such a top is seen from above, from close by, and fills much of the picture.
    public var minimumOverheadLength = 0.15
    /// Shortest foreshortened top, in searched pixels, on which the top's paint around the hole
    /// counts as top when judging whether the hole is enclosed (`HoleFinder`).
    public var minimumPaintedLength = 48.0

    /// Least share of its outline a top notched by bags standing over its far edge fills on its
    /// own (held6-0013: 0.72; held20-0006: 0.65, two olive bags across the far half of a top
    /// 110 pixels long cutting the paint behind them off its region).
    public var notchedTopSolidity = 0.62
    /// A patch under a notched top's hole outside its filled region is the hole when darker than
    /// this share of the top's brightness and this share of it lies inside the outline
    /// (`ColourRegion.share(inside:)`), not a bag over the edge or a speck of paint.
    var holePatchDarkerThan = 0.6
    var holePatchInsideShare = 0.9

    public init() {}

    public func detect(in image: ImageBuffer) -> BoardDetection? {
        search(in: image).detection
    }

    public func search(in image: ImageBuffer) -> BoardSearchResult {
        // A small picture is also searched at twice its size, unblurred: a side-on board 60
        // pixels long is only about five pixels deep, and at its own size its top runs into the
        // darker rail below it.
        let reduced = WorkImage(image, maxSide: workingSize)
        var passes = [(plain: reduced, work: reduced.blurred())]
        if max(image.width, image.height) * 2 <= workingSize {
            let doubled = WorkImage(doubling: image)
            passes.append((doubled, doubled))
        }
        var scoredList: [Scored] = []
        var bestReason = "no region of uniform colour large enough for a board inside the frame"
        var examined: [BoardCandidate] = []
        for (plain, work) in passes {
            let (labels, regions) = RegionSegmenter().segment(work)
            let minArea = max(40, Int(minimumAreaFraction * Double(work.width * work.height)))
            let candidates = regions
                .filter { $0.area >= minArea && $0.minX > 0 && $0.minY > 0 && $0.maxX < work.width - 1 && $0.maxY < work.height - 1 }
                .sorted { $0.area > $1.area }
                .prefix(maximumCandidates)
            if !candidates.isEmpty, scoredList.isEmpty { bestReason = "no candidate region looks like a board top" }
            for region in candidates {
                let outcome = evaluate(region, regions: regions, labels: labels, work: work, plain: plain)
                let k = work.scale
                var report = BoardCandidate(x: Int(Double(region.minX) * k), y: Int(Double(region.minY) * k),
                                            width: Int((Double(region.boxWidth) * k).rounded()),
                                            height: Int((Double(region.boxHeight) * k).rounded()),
                                            area: region.area, confidence: nil, verdict: "")
                switch outcome {
                case .success(var scored):
                    report.confidence = scored.detection.confidence
                    report.verdict = scored.summary
                    scored.detection = scored.detection.scaled(toWidth: image.width, height: image.height)
                    scoredList.append(scored)
                case .failure(let why):
                    report.verdict = why.message
                    if scoredList.isEmpty { bestReason = why.message }
                }
                examined.append(report)
            }
        }
        // One camera sees every flat thing on the ground alike: when a foreshortened top lying
        // across the picture passes, the view is side-on, and nothing standing upright in the
        // picture can be a board top in it.
        // A top that passes only with bags counted as top (joined across them, or notched by
        // them) is the last resort: counting them can also make a wrong top that outscores the
        // right one found as it stands (dev8-0000: the hole placed at the other end, 0.77
        // against 0.68, kept all game; dev8-0016 likewise with a notched one).
        let passing = scoredList.filter { $0.detection.confidence >= minimumConfidence }
        let acceptable = passing.contains { !$0.bagsCountedAsTop } ? passing.filter { !$0.bagsCountedAsTop } : passing
        let sideOn = acceptable.contains { $0.foreshortened && $0.axisFromHorizontal <= maximumSideViewTilt }
        let pool = sideOn ? acceptable.filter { $0.axisFromHorizontal <= 45 } : (acceptable.isEmpty ? scoredList : acceptable)
        let best = pool.reduce(nil as Scored?) { b, s in b.map { s.ranks(above: $0) ? s : $0 } ?? s }
        guard let found = best?.detection else {
            return BoardSearchResult(detection: nil, bestConfidence: 0, reason: bestReason, candidates: examined)
        }
        guard found.confidence >= minimumConfidence else {
            let why = found.holeContrast < 0.5 ? "best candidate has no hole" : "best candidate is not board-shaped"
            return BoardSearchResult(detection: nil, bestConfidence: found.confidence,
                                     reason: "\(why) (confidence \(String(format: "%.2f", found.confidence)) < \(minimumConfidence))",
                                     candidates: examined)
        }
        return BoardSearchResult(detection: found, bestConfidence: found.confidence, reason: "", candidates: examined)
    }

    struct Rejection: Error { let message: String }

    /// A candidate that got through the shape tests and the hole search.
    struct Scored {
        var detection: BoardDetection
        /// Unsaturated evidence, to choose between candidates of equal confidence.
        var evidence: Double
        /// Longer than an unforeshortened top can look.
        var foreshortened: Bool
        /// Angle between the long axis and the horizontal, degrees.
        var axisFromHorizontal: Double
        /// Passed only with bags within its outline counted as top (joined across them,
        /// `SurfaceFragments.Reach.acrossBags`, or notched by them).
        var bagsCountedAsTop: Bool
        var summary: String

        func ranks(above other: Scored) -> Bool {
            detection.confidence != other.detection.confidence
                ? detection.confidence > other.detection.confidence : evidence > other.evidence
        }
    }

    /// The candidate as it stands; when that fails, again without the specks of its paint lying
    /// apart from it (`RegionMask.withoutSpecks`); then with bags standing over its edge counted
    /// as top (`BagsAsTop.notching`); then, for a top that bags lying across it cut into pieces,
    /// joined to pieces of its paint a bag's width apart (`SurfaceFragments.Reach.acrossBags`),
    /// the bags counted as top; and the best of them.
    private func evaluate(_ region: ColourRegion, regions: [ColourRegion], labels: [Int32], work: WorkImage,
                          plain: WorkImage) -> Result<Scored, Rejection> {
        let top = SurfaceFragments.join(region, regions: regions, labels: labels, width: work.width, height: work.height)
        let attempt = evaluate(region, top: top, joinedAcrossBags: false, regions: regions, labels: labels, work: work, plain: plain)
        if case .success(let a) = attempt, a.detection.confidence >= minimumConfidence { return attempt }
        let wider = SurfaceFragments.join(region, regions: regions, labels: labels, width: work.width, height: work.height,
                                          reach: .acrossBags)
        // Only a top cut in pieces: with no other large piece joined, a half of a top with a bag
        // at its end, the bag counted as top, looks like a whole short top (held4-0013).
        let pieces = wider.members.subtracting(top.members).filter { 4 * regions[Int($0)].area >= region.area }
        guard !pieces.isEmpty else { return attempt }
        return better(attempt, evaluate(region, top: wider, joinedAcrossBags: true, regions: regions, labels: labels, work: work,
                                        plain: plain))
    }

    private func evaluate(_ region: ColourRegion, top: SurfaceFragments.Joined, joinedAcrossBags: Bool, regions: [ColourRegion],
                          labels: [Int32], work: WorkImage, plain: WorkImage) -> Result<Scored, Rejection> {
        let mask = RegionMask(labels: labels, imageWidth: work.width, members: top.members, box: top.box)
        let bags: BagsAsTop = joinedAcrossBags ? .cuttingIntoPieces : .none
        // The outline depends on the mask alone; counting bags as top only scores it anew.
        let fitted = outline(of: mask, region: region, plain: plain)
        var holes = HoleSearches()
        var attempt = fitted.flatMap {
            evaluate(region, top: top, outline: $0, mask: mask, bags: bags, regions: regions, labels: labels, work: work, holes: &holes)
        }
        if case .success(let a) = attempt, a.detection.confidence >= minimumConfidence { return attempt }
        let speckless = mask.droppingSpecks()
        if speckless.filledArea < mask.filledArea {
            var specklessHoles = HoleSearches()
            attempt = better(attempt, outline(of: speckless, region: region, plain: plain).flatMap {
                evaluate(region, top: top, outline: $0, mask: speckless, bags: bags, regions: regions, labels: labels, work: work,
                         holes: &specklessHoles)
            })
            if case .success(let a) = attempt, a.detection.confidence >= minimumConfidence { return attempt }
        }
        guard !joinedAcrossBags else { return attempt }
        return better(attempt, fitted.flatMap {
            evaluate(region, top: top, outline: $0, mask: mask, bags: .notching, regions: regions, labels: labels, work: work,
                     holes: &holes)
        })
    }

    /// Which bags within a candidate's outline count as top (`RegionMask.cover(of:)`).
    enum BagsAsTop {
        /// None: the top's own paint only.
        case none
        /// Bags standing over a side view's far edge notch the outline without cutting it: they
        /// count at the solidity floor of a whole top (held6-0013: a far top 100 searched pixels
        /// long, two bags at its back end, 0.72 without them).
        case notching
        /// Bags lying across a top cut it into pieces, joined across them
        /// (`SurfaceFragments.Reach.acrossBags`): a lower solidity floor.
        case cuttingIntoPieces
    }

    private func better(_ a: Result<Scored, Rejection>, _ b: Result<Scored, Rejection>) -> Result<Scored, Rejection> {
        switch (a, b) {
        case (.success(let x), .success(let y)): return y.detection.confidence > x.detection.confidence ? b : a
        case (.failure, .success): return b
        default: return a
        }
    }

    /// A candidate's outline: the quadrilateral fitted to its mask, and refined against the
    /// picture (the near rail split off, an end carried past bags, the edges polished).
    private struct Outline {
        var rough: [PlanePoint]
        /// The mask's share of the rough quadrilateral.
        var solidity: Double
        /// The share of the filled mask that has the region's colour.
        var colourShare: Double
        /// Too long for an unforeshortened top: a side view.
        var sideOn: Bool
        /// An end was carried past bags lying across the top (`EndUnderBags`).
        var extendedPastBags: Bool
        /// Before polishing, and after.
        var refined: [PlanePoint]
        var polished: [PlanePoint]
        /// The picture the edges were polished on: an end laid anew is polished on it too.
        var plain: WorkImage
    }

    private func outline(of mask: RegionMask, region: ColourRegion, plain: WorkImage) -> Result<Outline, Rejection> {
        guard let quad = QuadFitter.fit(boundary: mask.boundaryPoints()) else {
            return .failure(Rejection(message: "outline too small for a quadrilateral"))
        }
        let rough = ordered(quad)
        let quadArea = polygonArea(rough)
        guard quadArea > 1 else { return .failure(Rejection(message: "degenerate quadrilateral")) }
        let roughSides = (0..<4).map { rough[$0].distance(to: rough[($0 + 1) % 4]) }
        let roughAspect = max(roughSides[0] + roughSides[2], roughSides[1] + roughSides[3])
            / max(1e-6, min(roughSides[0] + roughSides[2], roughSides[1] + roughSides[3]))
        let sideOn = roughAspect > maximumUnforeshortenedAspect
        // A side-on top's region may have run down into its near rail, and stopped at bags lying
        // across the top.
        let railCut = sideOn ? (RailSplit.split(rough, image: plain) ?? rough) : rough
        let pastBags = sideOn ? EndUnderBags.extend(railCut, image: plain) : nil
        let refined = pastBags ?? railCut
        let polished = ordered(EdgePolish.polish(refined, image: plain, sideOn: sideOn, paint: Self.paint(of: region)))
        return .success(Outline(rough: rough, solidity: Double(mask.filledArea) / quadArea,
                                colourShare: Double(mask.regionArea) / Double(mask.filledArea), sideOn: sideOn,
                                extendedPastBags: pastBags != nil, refined: refined, polished: polished, plain: plain))
    }

    private func evaluate(_ region: ColourRegion, top: SurfaceFragments.Joined, outline: Outline, mask: RegionMask, bags: BagsAsTop,
                          regions: [ColourRegion], labels: [Int32], work: WorkImage,
                          holes: inout HoleSearches) -> Result<Scored, Rejection> {
        var solidity = outline.solidity
        // Bags stand over a top's far edge only in a side view, and a top only notched by them
        // fills most of its outline on its own: a ragged region does not become a top by
        // counting everything within its outline (dev8-0009: a grey top on grey ground, no bags,
        // its front face counted in at a slant).
        if bags == .notching {
            guard outline.sideOn else { return .failure(Rejection(message: "no side view: no bags stand over the top's far edge")) }
            guard solidity >= notchedTopSolidity else {
                return .failure(Rejection(message: String(format: "solidity %.2f: too ragged for a top notched by bags", solidity)))
            }
        }
        if bags != .none {
            // Bags lying across a top cut into pieces also notch its edges, and stand above its
            // back edge: within the outline they are top, and the polished outline hugs the top.
            for q in [outline.rough, outline.polished] {
                let c = mask.cover(of: q, labels: labels, regions: regions, imageWidth: work.width, imageHeight: work.height)
                solidity = max(solidity, Double(c.filled + c.objects) / max(1, abs(polygonArea(q))))
            }
        }
        let shape = Shape(outline: outline, solidity: solidity, fragments: top.members.count - 1, bags: bags)
        // Polishing moves sides onto the picture's edges; on a board with rounded corners or a
        // bag over its edge a side can land astray. When the polished outline does not pass, the
        // outline it started from is scored too, and kept if it does better.
        let attempt = score(outline.polished, shape: shape, region: region, top: top, mask: mask, labels: labels, regions: regions, work: work,
                            holes: &holes)
        if case .success(let a) = attempt, a.detection.confidence >= minimumConfidence { return attempt }
        guard outline.polished != outline.refined else { return attempt }
        return better(attempt, score(outline.refined, shape: shape, region: region, top: top, mask: mask, labels: labels, regions: regions, work: work,
                                     holes: &holes))
    }

    /// The region's mean colour, as `EdgePolish` takes it.
    private static func paint(of region: ColourRegion) -> (Double, Double, Double) {
        let mean = region.meanColour
        return (Double(mean.0), Double(mean.1), Double(mean.2))
    }

    /// A back end bent alone, laid parallel to the front end where the hole places it
    /// (`BackEndSquaring`), then polished onto the picture's edges: the two ends of a side view
    /// lie 7–10° apart in perspective, so the end laid parallel misses the real one by a few
    /// pixels at a corner (held28-0012 at 1280×720, a white top with a painted border that kept
    /// the back end out of the region: the near back corner 6.5 px short, 5.5 % of the length,
    /// all game, and a bag resting by it counted on the ground; polished, every corner lies
    /// within a pixel). The polished outline stands when it needs no squaring itself (its back
    /// end no longer bent, its middle where the hole puts it).
    private func backEndSquaredAndPolished(_ corners: [PlanePoint], backEdgeStart: Int, holeCentre: PlanePoint,
                                           outline: Outline, paint: (Double, Double, Double)) -> [PlanePoint]? {
        guard let squared = BackEndSquaring.square(corners, backEdgeStart: backEdgeStart, holeCentre: holeCentre) else { return nil }
        let polished = EdgePolish.polish(squared, image: outline.plain, sideOn: true, paint: paint)
        // The polish (which keeps the corners' order) may move the other sides too: a bent end
        // had made it give up on the whole outline (a corner moved too far), so the rest of it
        // may not have been polished yet.
        guard BackEndSquaring.square(polished, backEdgeStart: backEdgeStart, holeCentre: holeCentre) == nil else { return squared }
        return polished
    }

    /// The hole searches already run on one candidate's mask, by the corners searched within:
    /// counting bags as top changes how a candidate scores, not where its hole lies, and the
    /// search is the costliest part of scoring (a fifth of a 640×360 frame's whole search).
    private struct HoleSearches {
        private var done: [(corners: [PlanePoint], lengthAlongFirstEdge: Bool, paintInsideOutline: Bool, found: HoleFinder.Found?)] = []

        mutating func find(corners: [PlanePoint], lengthAlongFirstEdge: Bool, paintInsideOutline: Bool,
                           with finder: HoleFinder) -> HoleFinder.Found? {
            if let known = done.first(where: {
                $0.corners == corners && $0.lengthAlongFirstEdge == lengthAlongFirstEdge && $0.paintInsideOutline == paintInsideOutline
            }) {
                return known.found
            }
            let found = finder.find(corners: corners, lengthAlongFirstEdge: lengthAlongFirstEdge, paintInsideOutline: paintInsideOutline)
            done.append((corners, lengthAlongFirstEdge, paintInsideOutline, found))
            return found
        }
    }

    /// What the candidate's outline alone says, before its corners are placed.
    private struct Shape {
        var outline: Outline
        /// The outline's solidity, with the bags counted as top (`bags`) where they count.
        var solidity: Double
        var fragments: Int
        /// Which bags within the outline were counted as top.
        var bags = BagsAsTop.none
    }

    /// Proportions, orientation and the hole search for one placement of the corners.
    private func score(_ corners: [PlanePoint], shape: Shape, region: ColourRegion, top: SurfaceFragments.Joined,
                       mask: RegionMask, labels: [Int32], regions: [ColourRegion], work: WorkImage, holes: inout HoleSearches) -> Result<Scored, Rejection> {
        let solidity = shape.solidity, colourShare = shape.outline.colourShare, rough = shape.outline.rough
        let e = (0..<4).map { corners[$0].distance(to: corners[($0 + 1) % 4]) }
        let lengthAlongFirstEdge = e[0] + e[2] >= e[1] + e[3]
        let longSide = lengthAlongFirstEdge ? (e[0] + e[2]) / 2 : (e[1] + e[3]) / 2
        let shortSide = lengthAlongFirstEdge ? (e[1] + e[3]) / 2 : (e[0] + e[2]) / 2
        let aspect = longSide / max(1e-6, shortSide)
        // Longer than a flat 2:1 top looks unforeshortened: a side view.
        let foreshortened = aspect > maximumUnforeshortenedAspect
        guard aspect >= 1.2, aspect <= 25, shortSide >= 3 else {
            return .failure(Rejection(message: "region proportions are not a board's (aspect \(String(format: "%.1f", aspect)))"))
        }
        // Opposite sides of a board seen in perspective stay within a factor of two.
        guard e[0] / max(1e-6, e[2]) < 2, e[2] / max(1e-6, e[0]) < 2, e[1] / max(1e-6, e[3]) < 2.5, e[3] / max(1e-6, e[1]) < 2.5 else {
            return .failure(Rejection(message: "quadrilateral too irregular"))
        }
        // A flat 2:1 top looks longer than about 2.6:1 only when foreshortened, and an upright
        // camera foreshortens the ground vertically: such a top lies across the picture. A tall,
        // thin upright region (a leg, a post, a person) is not a board top seen from anywhere.
        let axis = lengthAlongFirstEdge ? (corners[1] - corners[0]) + (corners[2] - corners[3])
                                        : (corners[2] - corners[1]) + (corners[3] - corners[0])
        let tilt = abs(atan2(axis.y, axis.x) * 180 / Double.pi)
        let axisFromHorizontal = min(tilt, 180 - tilt)
        if foreshortened, axisFromHorizontal > maximumSideViewTilt {
            return .failure(Rejection(message: String(format: "long and thin but %.0f° from horizontal (aspect %.1f): not a foreshortened top", axisFromHorizontal, aspect)))
        }
        // A small patch of 2:1 proportions with a dark island (a shirt with an arm across it, a
        // sign) is not a board seen from above: that board would be large.
        if !foreshortened, longSide < minimumOverheadLength * Double(min(work.width, work.height)) {
            return .failure(Rejection(message: String(format: "unforeshortened (aspect %.1f) but only %.0f px long: too small for a board seen from above", aspect, longSide * work.scale)))
        }
        let mean = region.meanColour
        let finder = HoleFinder(labels: labels, image: work, boardLabels: top.members, mask: mask,
                                boardColour: ColourFeature(mean.0, mean.1, mean.2))
        // The paint around a side view's hole counts only on a top long enough to show the hole
        // over several pixels: on a small one any dark speck in painted paper passed (two of the
        // real photographs gave a 14-pixel scrap as a side view).
        let paintEncloses = foreshortened && longSide >= minimumPaintedLength
        guard let hole = holes.find(corners: corners, lengthAlongFirstEdge: lengthAlongFirstEdge, paintInsideOutline: paintEncloses,
                                    with: finder),
              let plane = BoardPlane(corners: corners, lengthAlongFirstEdge: lengthAlongFirstEdge, backEdgeStart: hole.backEdgeStart)
        else { return .failure(Rejection(message: "no plane through the quadrilateral")) }
        // Solidity from 0.76: a far board seen low with bags on its front edge fills 0.85 of its
        // outline (dev game 1006). Without a hole no candidate reaches the minimum confidence.
        // A top cut by bags still loses a blurred pixel or two at every bag's edge, and a small
        // one its painted border at each end: a tenth less (held4-0013: 0.83 with all its bags).
        let solidityFloor = shape.bags == .cuttingIntoPieces ? 0.66 : 0.76
        let shapeScore = clamp((solidity - solidityFloor) / 0.14) * clamp((colourShare - 0.45) / 0.25)
        let confidence = shapeScore * (0.35 + 0.65 * hole.strength)
        let ellipse = plane.ellipse(along: hole.along, across: hole.across, radius: BoardGeometry.holeRadius)
        // A dark bag counted into a notched top is no hole: the hole lies within the top's own
        // outline (dev8-0016: an olive bag over the far edge of a top 60 pixels long, taken
        // for the hole at the wrong end, on a speck of the top's paint beside it), or is a dark
        // patch lying wholly inside the outline (a painted ring around the hole cuts it off the
        // region: held16-0006, a small yellow top with a bag on its front end, was not found
        // for 33 s).
        if shape.bags == .notching, !mask.contains(ellipse.center),
           !isDarkPatchInside(corners, at: ellipse.center, topColour: mean, labels: labels, regions: regions, work: work) {
            return .failure(Rejection(message: "hole on a bag counted as top"))
        }
        // A side view's front end bent by bags lying across it is laid parallel to its back end
        // (`FrontEndSquaring`), a back end bent alone parallel to the front end where the hole
        // places it (`BackEndSquaring`); a small side view's back end is placed by its hole
        // (`HoleAnchoredEnd`), and the scale with all three.
        let squared = foreshortened
            ? FrontEndSquaring.square(corners, backEdgeStart: hole.backEdgeStart)
                ?? backEndSquaredAndPolished(corners, backEdgeStart: hole.backEdgeStart, holeCentre: ellipse.center,
                                             outline: shape.outline, paint: Self.paint(of: region))
            : nil
        let ends = squared ?? corners
        let anchored = foreshortened && plane.centreLineLength * work.scale < HoleAnchoredEnd.longestBoard
            ? HoleAnchoredEnd.place(ends, backEdgeStart: hole.backEdgeStart, holeCentre: ellipse.center) : nil
        let placed = anchored ?? ends
        let placedPlane = (anchored ?? squared).flatMap {
            BoardPlane(corners: $0, lengthAlongFirstEdge: lengthAlongFirstEdge, backEdgeStart: hole.backEdgeStart)
        } ?? plane
        let d = BoardDetection(
            imageWidth: work.width, imageHeight: work.height, corners: placed, hole: ellipse,
            metresPerPixel: BoardGeometry.length / placedPlane.centreLineLength, confidence: confidence,
            backEdgeStart: hole.backEdgeStart, lengthAlongFirstEdge: lengthAlongFirstEdge,
            surfaceColour: RGBColour(r: UInt8(mean.0), g: UInt8(mean.1), b: UInt8(mean.2)),
            holeContrast: max(0, hole.contrast))
        func points(_ q: [PlanePoint]) -> String {
            q.map { String(format: "(%.1f, %.1f)", $0.x * work.scale, $0.y * work.scale) }.joined(separator: " ")
        }
        let summary = String(format: "confidence %.2f: solidity %.2f, colour share %.2f (%d fragments), aspect %.1f at %.0f°, hole contrast %.2f, enclosed %.2f; outline quadrilateral %@, %@%@polished %@%@",
                             confidence, solidity, colourShare, shape.fragments, aspect, axisFromHorizontal, hole.contrast, hole.enclosed,
                             points(rough), shape.bags == .cuttingIntoPieces ? "joined across bags lying on it, " : "",
                             shape.outline.extendedPastBags ? "carried past bags across the top, " : "", points(corners),
                             (squared.map { ", an end laid anew " + points($0) } ?? "")
                                + (anchored.map { ", back end placed by the hole " + points($0) } ?? ""))
        return .success(Scored(detection: d, evidence: solidity * colourShare * max(0, hole.contrast) * hole.enclosed
                                   * hole.nearRegulationPlace,
                               foreshortened: foreshortened, axisFromHorizontal: axisFromHorizontal,
                               bagsCountedAsTop: shape.bags != .none, summary: summary))
    }

    /// Whether the colour region under `p` is darker than the top's paint (`holePatchDarkerThan`
    /// of its brightness) and lies wholly (`holePatchInsideShare`) inside `corners`.
    private func isDarkPatchInside(_ corners: [PlanePoint], at p: PlanePoint, topColour: (Int, Int, Int), labels: [Int32],
                                   regions: [ColourRegion], work: WorkImage) -> Bool {
        let x = Int(p.x.rounded(.down)), y = Int(p.y.rounded(.down))
        guard x >= 0, x < work.width, y >= 0, y < work.height, labels[y * work.width + x] >= 0 else { return false }
        let patch = regions[Int(labels[y * work.width + x])]
        func brightness(_ c: (Int, Int, Int)) -> Double { Double(c.0 + c.1 + c.2) }
        return brightness(patch.meanColour) < holePatchDarkerThan * brightness(topColour)
            && patch.share(inside: corners, labels: labels, imageWidth: work.width) >= holePatchInsideShare
    }

    /// Clockwise on screen from the top-left: the first side is the upper of the two opposite
    /// sides that lie more across the picture (a side view's back edge, an overhead view's far
    /// end), so a short end slanting into the distance never comes first.
    private func ordered(_ quad: [PlanePoint]) -> [PlanePoint] {
        let cw = polygonArea(quad) >= 0 ? quad : quad.reversed()
        func slope(_ i: Int) -> Double {
            let d = cw[(i + 1) % 4] - cw[i]
            return abs(d.y) / max(1e-9, abs(d.x) + abs(d.y))
        }
        let pair = slope(0) + slope(2) <= slope(1) + slope(3) ? [0, 2] : [1, 3]
        func midY(_ i: Int) -> Double { (cw[i].y + cw[(i + 1) % 4].y) / 2 }
        let start = midY(pair[0]) <= midY(pair[1]) ? pair[0] : pair[1]
        return (0..<4).map { cw[(start + $0) % 4] }
    }
}

@inline(__always) func clamp(_ v: Double, _ lo: Double = 0, _ hi: Double = 1) -> Double { min(hi, max(lo, v)) }

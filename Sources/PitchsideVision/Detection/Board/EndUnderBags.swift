import Foundation

/// Carries a side-on top's end past bags lying across it.
///
/// In a side view a bag covers the top's whole depth. One lying across the top (a bag left on
/// the board before the game, a pile near the front) cuts the top's colour region in two, and the
/// part holding the hole passed for the whole board: dev3 games 7003, 7010 and 7015 measured a
/// board 12–50 % short for the whole game, and every speed and every bag's place with it.
///
/// On lines along the top, spread across its depth, each is followed past the end: a stretch of
/// neither the top's paint nor the ground (the bags), then the top's paint again, then the ground.
/// Where most lines agree, the end moves out to where the paint stops. An end that gives onto
/// the ground, or onto a shaded end face and then the ground, stays where it is.
enum EndUnderBags {
    /// Lines along the top, at these fractions of its depth from the far side (the near part of a
    /// side view can hold the rail's shade, the far part a bag's overhang).
    static let linesAcross: [Double] = [0.25, 0.35, 0.45, 0.55, 0.65, 0.75]
    /// Share of the lines that must find paint beyond a gap and then the ground.
    static let agreement = 0.6
    /// Longest stretch of bags crossed, as a share of the length found: three bags in a row cover
    /// 40 % of a board, and the part found may be only the rest of it (dev3 7015).
    static let maximumGapShare = 1.0
    /// Longest stretch of paint a line may start on before the bags, as a share of the length found.
    static let maximumLeadShare = 0.05
    /// How far past the end a line looks, as a share of the length found: the part found holds
    /// the hole and may be under a third of the board (dev3 7010).
    static let maximumReachShare = 2.5
    /// Longest stretch of ground between bags, or between a bag and the paint beyond it, as a
    /// share of the length found.
    static let groundGapShare = 0.08
    /// ... and before any paint is met: a bag of the ground's colour lying across the top reads as
    /// ground over its whole width (dev8-0016 at 640×360: an olive bag on a light blue board
    /// before green grass). Blurred and crossed at a slant it reaches half the length found
    /// when that is half the board (held11-0001: 16 of 33 pixels, and the board found a third
    /// short all game with a quarter).
    static let groundBagShare = 0.5
    /// Widest end face in shade between where the paint stops and the ground, as a share of the
    /// length found carried to that end.
    static let endFaceShare = 0.2
    /// Least move worth making, as a share of the length found.
    static let minimumMoveShare = 0.05
    /// Brightness, relative to the top's, within which the top's chroma is its paint: the lit top
    /// varies across a board by up to a quarter (dev3 7010), the rail and end faces in shade lie
    /// near three quarters.
    static let paintBrightness = 0.82...1.35
    /// Chroma distance within which a pixel is the top's paint (scaled to its brightness), and
    /// the ground's colour distance within which it is the ground.
    static let paintChroma = 20.0
    static let groundDistance = 28.0

    /// The corners (ordered as `BoardDetector` orders a side view: far side first, clockwise)
    /// with either end moved past bags lying across the top, or nil when neither moves.
    static func extend(_ corners: [PlanePoint], image: WorkImage) -> [PlanePoint]? {
        guard corners.count == 4 else { return nil }
        let e = (0..<4).map { corners[$0].distance(to: corners[($0 + 1) % 4]) }
        guard e[0] + e[2] > e[1] + e[3], e.allSatisfy({ $0 >= 2 }) else { return nil }
        let length = (e[0] + e[2]) / 2
        guard let paint = topColour(corners, image: image), let ground = groundColour(corners, image: image) else { return nil }
        let classifier = Classifier(paint: paint, ground: ground)
        var out = corners
        var moved = false
        // The right end (corners 1 and 2) and the left end (corners 0 and 3).
        for (far, near, otherFar, otherNear) in [(1, 2, 0, 3), (0, 3, 1, 2)] {
            var ends: [PlanePoint] = []
            for f in linesAcross {
                let start = corners[far] + (corners[near] - corners[far]) * f
                let back = corners[otherFar] + (corners[otherNear] - corners[otherFar]) * f
                let along = start - back
                let unit = along * (1 / max(1e-9, along.distance(to: PlanePoint(0, 0))))
                if let s = paintEnd(from: start, unit: unit, length: length, image: image, classifier: classifier) {
                    ends.append(start + unit * s)
                }
            }
            guard Double(ends.count) >= agreement * Double(linesAcross.count), let line = EdgePolish.robustLine(ends),
                  let newFar = lineIntersection(line.0, line.1, corners[otherFar], corners[far]),
                  let newNear = lineIntersection(line.0, line.1, corners[otherNear], corners[near]) else { continue }
            // Outward along both long sides, by enough to matter and no farther than a line looked.
            let farMove = (newFar - corners[far]), nearMove = (newNear - corners[near])
            let farOut = corners[far] - corners[otherFar], nearOut = corners[near] - corners[otherNear]
            let a = farMove.x * farOut.x + farMove.y * farOut.y, b = nearMove.x * nearOut.x + nearMove.y * nearOut.y
            let shortest = min(farMove.distance(to: PlanePoint(0, 0)), nearMove.distance(to: PlanePoint(0, 0)))
            let longest = max(farMove.distance(to: PlanePoint(0, 0)), nearMove.distance(to: PlanePoint(0, 0)))
            guard a > 0, b > 0, shortest >= max(2, minimumMoveShare * length), longest <= maximumReachShare * length else { continue }
            out[far] = newFar
            out[near] = newNear
            moved = true
        }
        return moved ? out : nil
    }

    /// Where, going out from `start` along `unit`, the top's paint stops after a stretch of bags;
    /// nil when the line meets the ground first, or finds no end within reach.
    private static func paintEnd(from start: PlanePoint, unit: PlanePoint, length: Double, image: WorkImage,
                                 classifier: Classifier) -> Double? {
        let step = 0.5
        let reach = maximumReachShare * length
        // The line, sample by sample, up to the ground proper: a run of it longer than ground
        // shows between bags, or between a bag and the paint beyond it (a bag over the far side).
        let groundGap = max(2, groundGapShare * length)
        let groundBag = max(2, groundBagShare * length)
        // Longest stretch of paint a line may start on before the bags (see `lead` below).
        let leadLimit = max(1, maximumLeadShare * length)
        var kinds: [Classifier.Kind] = []
        var groundRun = 0
        var metPaint = false
        /// Whether the ground run is the ground proper: longer than a bag of its colour before
        /// any paint, longer than ground between bags after it.
        func atGroundProper() -> Bool { Double(groundRun) * step > (metPaint ? groundGap : groundBag) }
        var s = step
        while s < reach {
            let c = image.sample(start.x + unit.x * s, start.y + unit.y * s)
            let kind = classifier.kind(of: ColourFeature(Int(c.0), Int(c.1), Int(c.2)))
            // Paint past the first few samples (which may start on paint, below) is paint beyond bags.
            metPaint = metPaint || (kind == .paint && kinds.last == .paint && Double(kinds.count) * step > leadLimit)
            kinds.append(kind)
            groundRun = kind == .ground ? groundRun + 1 : 0
            if atGroundProper() { break }
            s += step
        }
        guard atGroundProper() else { return nil }
        let groundStart = kinds.count - groundRun
        // The end found may stop a little short of the bags: the top's region can end along a
        // bag's slanting edge, and the lines on its near part then start on paint (dev6-0013 at
        // 1280×720: four of six lines did, and the board was measured 45 % short all game).
        let lead = kinds.prefix { $0 == .paint }.count
        guard Double(lead) * step <= leadLimit else { return nil }
        // Paint (two samples running) must begin within a gap of bags, at least a pixel of them
        // (of the ground's colour too: `groundBagShare`).
        guard let firstPaint = (lead..<max(lead, groundStart - 1)).first(where: { kinds[$0] == .paint && kinds[$0 + 1] == .paint }),
              Double(firstPaint - lead) * step <= maximumGapShare * length,
              Double(firstPaint - lead) * step >= 1 else { return nil }
        // The end is where the last paint stops; between it and the ground only an end face in
        // shade (further bags on the top between paint are crossed), as wide as the whole board
        // allows: the part found may be half of it (dev8-0016: 6 of 24 pixels at 640×360).
        guard let lastPaint = (firstPaint..<groundStart).last(where: { kinds[$0] == .paint }),
              Double(groundStart - lastPaint - 1) * step <= max(2, endFaceShare * (length + Double(lastPaint + 1) * step))
        else { return nil }
        return Double(lastPaint + 1) * step + step / 2
    }

    struct Classifier {
        enum Kind { case paint, ground, other }
        let paint: ColourFeature
        let ground: ColourFeature

        func kind(of c: ColourFeature) -> Kind {
            let shade = c.asShade(of: paint)
            if paintBrightness.contains(shade.share), shade.chromaOff <= paintChroma { return .paint }
            return c.distance(to: ground) <= groundDistance ? .ground : .other
        }
    }

    /// The top's lit paint: the median over its far half, clear of the rail's shade.
    private static func topColour(_ corners: [PlanePoint], image: WorkImage) -> ColourFeature? {
        var samples: [ColourFeature] = []
        for j in 0..<24 {
            let t = 0.1 + 0.8 * Double(j) / 23
            let far = corners[0] + (corners[1] - corners[0]) * t
            let near = corners[3] + (corners[2] - corners[3]) * t
            for f in [0.2, 0.3, 0.4, 0.5] {
                let p = far + (near - far) * f
                let c = image.sample(p.x, p.y)
                samples.append(ColourFeature(Int(c.0), Int(c.1), Int(c.2)))
            }
        }
        return medianColour(samples)
    }

    /// The ground behind the top: the median just beyond its far side.
    private static func groundColour(_ corners: [PlanePoint], image: WorkImage) -> ColourFeature? {
        let d = corners[1] - corners[0]
        let len = max(1e-9, d.distance(to: PlanePoint(0, 0)))
        var n = PlanePoint(d.y / len, -d.x / len)
        let centre = corners.reduce(PlanePoint(0, 0), +) * 0.25
        let mid = (corners[0] + corners[1]) * 0.5
        if (mid.x - centre.x) * n.x + (mid.y - centre.y) * n.y < 0 { n = n * -1 }
        var samples: [ColourFeature] = []
        for j in 0..<24 {
            let p = corners[0] + d * (0.1 + 0.8 * Double(j) / 23)
            for off in [3.0, 4.0, 5.0] {
                let q = p + n * off
                guard q.x >= 0, q.y >= 0, q.x < Double(image.width), q.y < Double(image.height) else { continue }
                let c = image.sample(q.x, q.y)
                samples.append(ColourFeature(Int(c.0), Int(c.1), Int(c.2)))
            }
        }
        return medianColour(samples)
    }

    private static func medianColour(_ samples: [ColourFeature]) -> ColourFeature? {
        samples.count >= 8 ? ColourFeature.median(of: samples) : nil
    }
}

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
}

/// Finds the board's top surface, its hole and the scale in one RGB picture, whatever the
/// board's colour: a side-on elevated view (a thin quadrilateral) or an overhead one.
///
/// Steps: reduce the picture, split it into regions of near-constant colour, fill each large
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
    /// Smallest board top as a fraction of the picture area.
    public var minimumAreaFraction = 0.0015

    public init() {}

    public func detect(in image: ImageBuffer) -> BoardDetection? {
        search(in: image).detection
    }

    public func search(in image: ImageBuffer) -> BoardSearchResult {
        let work = WorkImage(image, maxSide: workingSize).blurred()
        let (labels, regions) = RegionSegmenter().segment(work)
        let minArea = max(40, Int(minimumAreaFraction * Double(work.width * work.height)))
        let candidates = regions
            .filter { $0.area >= minArea && $0.minX > 0 && $0.minY > 0 && $0.maxX < work.width - 1 && $0.maxY < work.height - 1 }
            .sorted { $0.area > $1.area }
            .prefix(16)
        guard !candidates.isEmpty else {
            return BoardSearchResult(detection: nil, bestConfidence: 0,
                                     reason: "no region of uniform colour large enough for a board inside the frame")
        }
        var best: (BoardDetection, Double)?
        var bestReason = "no candidate region looks like a board top"
        for region in candidates {
            switch evaluate(region, labels: labels, work: work) {
            case .success(let d):
                if d.confidence > (best?.1 ?? -1) { best = (d, d.confidence) }
            case .failure(let why):
                if best == nil { bestReason = why.message }
            }
        }
        guard let (found, confidence) = best else {
            return BoardSearchResult(detection: nil, bestConfidence: 0, reason: bestReason)
        }
        let full = found.scaled(toWidth: image.width, height: image.height)
        guard confidence >= minimumConfidence else {
            let why = found.holeContrast < 0.5 ? "best candidate has no hole" : "best candidate is not board-shaped"
            return BoardSearchResult(detection: nil, bestConfidence: confidence,
                                     reason: "\(why) (confidence \(String(format: "%.2f", confidence)) < \(minimumConfidence))")
        }
        return BoardSearchResult(detection: full, bestConfidence: confidence, reason: "")
    }

    struct Rejection: Error { let message: String }

    private func evaluate(_ region: ColourRegion, labels: [Int32], work: WorkImage) -> Result<BoardDetection, Rejection> {
        let mask = RegionMask(labels: labels, imageWidth: work.width, region: region)
        guard let quad = QuadFitter.fit(boundary: mask.boundaryPoints()) else {
            return .failure(Rejection(message: "outline too small for a quadrilateral"))
        }
        let corners = ordered(quad)
        let quadArea = polygonArea(corners)
        guard quadArea > 1 else { return .failure(Rejection(message: "degenerate quadrilateral")) }
        let solidity = Double(mask.filledArea) / quadArea
        let colourShare = Double(region.area) / Double(mask.filledArea)
        let e = (0..<4).map { corners[$0].distance(to: corners[($0 + 1) % 4]) }
        let lengthAlongFirstEdge = e[0] + e[2] >= e[1] + e[3]
        let longSide = lengthAlongFirstEdge ? (e[0] + e[2]) / 2 : (e[1] + e[3]) / 2
        let shortSide = lengthAlongFirstEdge ? (e[1] + e[3]) / 2 : (e[0] + e[2]) / 2
        let aspect = longSide / max(1e-6, shortSide)
        guard aspect >= 1.2, aspect <= 25, shortSide >= 3 else {
            return .failure(Rejection(message: "region proportions are not a board's (aspect \(String(format: "%.1f", aspect)))"))
        }
        // Opposite sides of a board seen in perspective stay within a factor of two.
        guard e[0] / max(1e-6, e[2]) < 2, e[2] / max(1e-6, e[0]) < 2, e[1] / max(1e-6, e[3]) < 2.5, e[3] / max(1e-6, e[1]) < 2.5 else {
            return .failure(Rejection(message: "quadrilateral too irregular"))
        }
        let mean = region.meanColour
        let finder = HoleFinder(labels: labels, image: work, boardLabel: region.label,
                                boardColour: ColourFeature(mean.0, mean.1, mean.2))
        guard let hole = finder.find(corners: corners, lengthAlongFirstEdge: lengthAlongFirstEdge),
              let plane = BoardPlane(corners: corners, lengthAlongFirstEdge: lengthAlongFirstEdge, backEdgeStart: hole.backEdgeStart)
        else { return .failure(Rejection(message: "no plane through the quadrilateral")) }
        let shape = clamp((solidity - 0.80) / 0.12) * clamp((colourShare - 0.45) / 0.25)
        let holeScore = clamp((hole.contrast - 0.35) / 0.4)
        let confidence = shape * (0.35 + 0.65 * holeScore)
        let ellipse = plane.ellipse(along: hole.along, across: hole.across, radius: BoardGeometry.holeRadius)
        let d = BoardDetection(
            imageWidth: work.width, imageHeight: work.height, corners: corners, hole: ellipse,
            metresPerPixel: BoardGeometry.length / plane.centreLineLength, confidence: confidence,
            backEdgeStart: hole.backEdgeStart, lengthAlongFirstEdge: lengthAlongFirstEdge,
            surfaceColour: RGBColour(r: UInt8(mean.0), g: UInt8(mean.1), b: UInt8(mean.2)),
            holeContrast: max(0, hole.contrast))
        return .success(d)
    }

    /// Clockwise on screen, starting with the first corner of the highest side.
    private func ordered(_ quad: [PlanePoint]) -> [PlanePoint] {
        let cw = polygonArea(quad) >= 0 ? quad : quad.reversed()
        var start = 0, top = Double.infinity
        for i in 0..<4 {
            let midY = (cw[i].y + cw[(i + 1) % 4].y) / 2
            if midY < top { top = midY; start = i }
        }
        return (0..<4).map { cw[(start + $0) % 4] }
    }
}

@inline(__always) func clamp(_ v: Double, _ lo: Double = 0, _ hi: Double = 1) -> Double { min(hi, max(lo, v)) }

import PitchsideCore

/// The picture around a known board, kept so the board can be found again by matching it
/// after the camera moved (or seemed to), instead of by a fresh search.
///
/// A fresh search needs a clean top: once bags lie on it, or a bag hides its hole, the detector
/// may no longer pass it (dev game 3011: a walker in a plain scene read as a camera move at
/// frame 751, and the board with a bag on it was never found again). The board's surroundings
/// (its edges, legs, shadow, the ground's marks) are the same picture as before, shifted by
/// however far the camera went.
public struct BoardPatch: Sendable {
    /// The patch's top-left corner in the picture it was cut from, pixels.
    public let x0: Int, y0: Int
    public let width: Int, height: Int
    /// The size of the picture it was cut from: a patch says nothing about a picture of another size.
    public let imageWidth: Int, imageHeight: Int
    /// Gray values (green channel of RGB, luma otherwise), row by row.
    let gray: [UInt8]

    /// The board's bounding box grown by `margin` of its size on each side (at least 6 pixels),
    /// clipped to the picture; nil when too little of it lies inside.
    public init?(board: BoardDetection, image: ImageBuffer, margin: Double = 0.25) {
        let box = board.boundingBox
        let mx = max(6, margin * box.width), my = max(6, margin * box.height)
        let x0 = max(0, Int((box.x - mx).rounded(.down))), y0 = max(0, Int((box.y - my).rounded(.down)))
        let x1 = min(image.width, Int((box.x + box.width + mx).rounded(.up)))
        let y1 = min(image.height, Int((box.y + box.height + my).rounded(.up)))
        guard x1 - x0 >= 8, y1 - y0 >= 8 else { return nil }
        self.init(image: image, x0: x0, y0: y0, width: x1 - x0, height: y1 - y0)
    }

    init(image: ImageBuffer, x0: Int, y0: Int, width: Int, height: Int) {
        self.x0 = x0
        self.y0 = y0
        self.width = width
        self.height = height
        imageWidth = image.width
        imageHeight = image.height
        var gray = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { gray[y * width + x] = image.rgb(x: x0 + x, y: y0 + y).g }
        }
        self.gray = gray
    }
}

/// Finds a `BoardPatch` again in a later picture: the whole-pixel shift, near the ones given,
/// at which the patch matches the picture best, when that match is good and distinct.
public enum BoardRelocator {
    /// Pixels searched on each side of each expected shift.
    public static let searchRadius = 4
    /// Largest mean absolute difference (gray levels, after the two means are evened out, each
    /// pixel's capped at `differenceCap`) of an accepted match: two frames of a still scene differ
    /// by their noise and compression; a board that moved, or a person standing in front of it,
    /// differs by far more.
    public static let maximumMeanDifference = 9.0
    /// A pixel's difference counts up to this much: a bag that came to rest since the patch was
    /// cut changes its few pixels completely, and should weigh as little as it covers.
    public static let differenceCap: Int32 = 32
    /// Largest ratio of the best cost to the median cost three or more pixels away: the patch
    /// must have the texture to say where it is (a board's edges on grass have plenty).
    public static let maximumCostRatio = 0.6

    /// The shift (dx, dy) of the patch's content from where it was cut, or nil when it is not
    /// found near any of `expected` (each searched ±`searchRadius`; in pixels, rounded).
    ///
    /// A best match on the edge of the searched shifts may only be the nearest to a better one
    /// beyond: the search goes on once around it, and a best still on the edge is no answer.
    /// Taking it placed the board 2 px off for a whole game (dev6-0011: found while the camera
    /// panned 6 px, matched at the 4 px edge, and every later check matched its own picture).
    public static func locate(_ patch: BoardPatch, in image: ImageBuffer, expected: [(dx: Double, dy: Double)]) -> (dx: Int, dy: Int)? {
        guard patch.imageWidth == image.width, patch.imageHeight == image.height else { return nil }
        var best: (dx: Int, dy: Int, cost: Double)?
        var costs: [(dx: Int, dy: Int, cost: Double)] = []
        // Two expected shifts close together search some shifts twice; each is costed once.
        var seen = Set<SIMD2<Int>>()
        func search(around cx: Int, _ cy: Int) {
            for dy in (cy - searchRadius)...(cy + searchRadius) {
                for dx in (cx - searchRadius)...(cx + searchRadius) where seen.insert(SIMD2(dx, dy)).inserted {
                    guard let c = meanDifference(patch, image, dx: dx, dy: dy) else { continue }
                    costs.append((dx, dy, c))
                    if c < (best?.cost ?? .infinity) { best = (dx, dy, c) }
                }
            }
        }
        /// Whether a shift next to it was not looked at (shifts leaving the picture were).
        func onEdge(_ b: (dx: Int, dy: Int, cost: Double)) -> Bool {
            (-1...1).contains { ny in (-1...1).contains { nx in !seen.contains(SIMD2(b.dx + nx, b.dy + ny)) } }
        }
        for e in expected { search(around: Int(e.dx.rounded()), Int(e.dy.rounded())) }
        if let b = best, onEdge(b) { search(around: b.dx, b.dy) }
        guard let best, best.cost <= maximumMeanDifference, !onEdge(best) else { return nil }
        let far = costs.filter { max(abs($0.dx - best.dx), abs($0.dy - best.dy)) >= 3 }.map(\.cost).sorted()
        guard !far.isEmpty, best.cost <= maximumCostRatio * far[far.count / 2] else { return nil }
        return (best.dx, best.dy)
    }

    /// Mean min(|patch − picture shifted by (dx, dy) − d|, `differenceCap`) over the patch, where
    /// d evens out the two means (a change of exposure is not a move); nil when the shifted patch
    /// leaves the picture.
    static func meanDifference(_ patch: BoardPatch, _ image: ImageBuffer, dx: Int, dy: Int) -> Double? {
        let x0 = patch.x0 + dx, y0 = patch.y0 + dy
        guard x0 >= 0, y0 >= 0, x0 + patch.width <= image.width, y0 + patch.height <= image.height else { return nil }
        let n = patch.width * patch.height
        var sumPatch = 0, sumImage = 0
        var shifted = [Int32](repeating: 0, count: n)
        for y in 0..<patch.height {
            for x in 0..<patch.width {
                let v = Int32(image.rgb(x: x0 + x, y: y0 + y).g)
                shifted[y * patch.width + x] = v
                sumImage += Int(v)
                sumPatch += Int(patch.gray[y * patch.width + x])
            }
        }
        let d = Int32((Double(sumPatch - sumImage) / Double(n)).rounded())
        var total = 0
        for i in 0..<n { total += Int(min(differenceCap, abs(Int32(patch.gray[i]) - shifted[i] - d))) }
        return Double(total) / Double(n)
    }
}

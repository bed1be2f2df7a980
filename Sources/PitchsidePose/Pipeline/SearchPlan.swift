/// Where the detector looks when no person is tracked.
///
/// The detector sees its input at 224 × 224, so a person 60 px tall in a
/// 640 × 360 frame shrinks to about 20 px when the whole frame is given: too
/// small. After the whole frame, the plan tries a square around the last
/// known person, then overlapping square tiles at smaller scales, so the same
/// person fills more of the detector's view.
public struct SearchPlan: Sendable, Equatable {
    /// Tile sides as fractions of the image's shorter side.
    public var tileFractions: [Float]
    /// Fraction of a tile shared with its neighbour.
    public var overlap: Float
    /// Tiles smaller than this (pixels) are not used.
    public var minTileSide: Float
    /// The square around the last known person is this many times the person's height.
    public var aroundLastScale: Float

    public init(tileFractions: [Float] = [1.0, 0.5, 1.0 / 3], overlap: Float = 0.25, minTileSide: Float = 96, aroundLastScale: Float = 2.5) {
        self.tileFractions = tileFractions
        self.overlap = overlap
        self.minTileSide = minTileSide
        self.aroundLastScale = aroundLastScale
    }

    /// Overlapping square tiles covering the image at each scale, larger tiles first.
    public func tiles(width: Int, height: Int) -> [PoseRegion] {
        tileFractions.flatMap { tiles(width: width, height: height, side: min(Float(width), Float(height)) * $0) }
    }

    /// Overlapping square tiles of `side` pixels covering the image; none when
    /// `side` is under `minTileSide` or covers the whole image.
    public func tiles(width: Int, height: Int, side: Float) -> [PoseRegion] {
        let w = Float(width), h = Float(height)
        guard side >= minTileSide else { return [] }
        // A tile as large as the image along both axes is the whole-image pass.
        if side >= w && side >= h { return [] }
        let xs = Self.starts(length: w, side: side, overlap: overlap)
        let ys = Self.starts(length: h, side: side, overlap: overlap)
        return ys.flatMap { y in xs.map { x in PoseRegion(center: PosePoint(x: x + side / 2, y: y + side / 2), side: side) } }
    }

    /// A square around `box` (pixels), `aroundLastScale` times its longer side, at least `minTileSide`.
    public func around(_ box: PoseBox) -> PoseRegion {
        PoseRegion(center: box.center, side: max(max(box.width, box.height) * aroundLastScale, minTileSide))
    }

    /// Evenly spaced tile starts from 0 to `length - side` with at least `overlap` shared.
    static func starts(length: Float, side: Float, overlap: Float) -> [Float] {
        guard length > side else { return [(length - side) / 2] }
        let step = side * (1 - overlap)
        let count = Int(((length - side) / step).rounded(.up)) + 1
        let spacing = (length - side) / Float(count - 1)
        return (0..<count).map { Float($0) * spacing }
    }
}

/// An ellipse in pixels: the board's hole as the camera sees it.
public struct PixelEllipse: Sendable, Equatable, Codable {
    public var center: PlanePoint
    /// Semi-axis along the direction `angleDegrees`, pixels.
    public var semiMajor: Double
    /// Semi-axis across it, pixels.
    public var semiMinor: Double
    /// Direction of the major axis from the image x axis, degrees, clockwise on screen (y down).
    public var angleDegrees: Double

    public init(center: PlanePoint, semiMajor: Double, semiMinor: Double, angleDegrees: Double) {
        self.center = center
        self.semiMajor = semiMajor
        self.semiMinor = semiMinor
        self.angleDegrees = angleDegrees
    }
}

/// What the board detector found in one picture, in the picture's pixels.
///
/// Corners are the top surface's, clockwise on screen from the top-left (back-left, back-right,
/// front-right, front-left in a side view).
public struct BoardDetection: Sendable, Equatable, Codable {
    public var imageWidth: Int
    public var imageHeight: Int
    public var corners: [PlanePoint]
    public var hole: PixelEllipse
    /// Metres per pixel along the board's length (the throw line): 1.22 m over the length of the
    /// board's centre line in the picture.
    public var metresPerPixel: Double
    /// 0…1; below `BoardDetector.minimumConfidence` the detector reports nothing.
    public var confidence: Double
    /// Index into `corners` of the corner that starts the board's back edge (the end with the hole).
    public var backEdgeStart: Int
    /// Whether the board's length runs along the first corner pair (c0 → c1), as in a side view.
    public var lengthAlongFirstEdge: Bool
    /// Mean colour of the top surface.
    public var surfaceColour: RGBColour
    /// How round the hole looked (inside minus surround darkness, 0…1).
    public var holeContrast: Double

    /// The corners in normalized coordinates.
    public var normalizedCorners: [PlanePoint] {
        corners.map { PlanePoint($0.x / Double(imageWidth), $0.y / Double(imageHeight)) }
    }

    /// Board length in pixels (along the centre line).
    public var lengthPixels: Double { BoardGeometry.length / metresPerPixel }

    /// Axis-aligned box around the corners, pixels (x, y, width, height).
    public var boundingBox: (x: Double, y: Double, width: Double, height: Double) {
        let xs = corners.map(\.x), ys = corners.map(\.y)
        let x0 = xs.min() ?? 0, y0 = ys.min() ?? 0
        return (x0, y0, (xs.max() ?? 0) - x0, (ys.max() ?? 0) - y0)
    }

    /// The same board moved by (dx, dy) pixels in the same picture (the camera turned a little).
    public func translated(dx: Double, dy: Double) -> BoardDetection {
        var d = self
        d.corners = corners.map { PlanePoint($0.x + dx, $0.y + dy) }
        d.hole.center = PlanePoint(hole.center.x + dx, hole.center.y + dy)
        return d
    }

    /// The same detection in another picture size (e.g. after detecting on a reduced copy).
    public func scaled(toWidth width: Int, height: Int) -> BoardDetection {
        let sx = Double(width) / Double(imageWidth), sy = Double(height) / Double(imageHeight)
        var d = self
        d.imageWidth = width
        d.imageHeight = height
        d.corners = corners.map { PlanePoint($0.x * sx, $0.y * sy) }
        d.hole.center = PlanePoint(hole.center.x * sx, hole.center.y * sy)
        d.hole.semiMajor *= (sx + sy) / 2
        d.hole.semiMinor *= (sx + sy) / 2
        d.metresPerPixel /= (sx + sy) / 2
        return d
    }
}

/// An 8-bit RGB colour.
public struct RGBColour: Sendable, Equatable, Codable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }
}

/// Regulation board dimensions (metres) the detector and census rely on.
public enum BoardGeometry {
    public static let length = 1.22
    public static let width = 0.61
    public static let holeRadius = 0.076
    /// Hole centre from the back edge.
    public static let holeFromBack = 0.229
    public static let bagSide = 0.152
    /// A bag's thickness where it lies flat (filled with corn, about 1.25 in).
    public static let bagThickness = 0.032
}

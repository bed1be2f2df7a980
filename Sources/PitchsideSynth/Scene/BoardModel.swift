import Foundation

/// The regulation board in the world: a 1.22 × 0.61 m top inclined from a low front edge to a
/// 0.30 m back, a 0.152 m hole centred 0.229 m from the back edge, centred on the throw line.
///
/// Surface coordinates: `s` metres along the top from the front edge (0) to the back (1.22),
/// `w` metres across (the world z axis).
public struct BoardModel: Sendable, Equatable, Codable {
    public static let length = 1.22
    public static let width = 0.61
    public static let holeDiameter = 0.152
    public static let holeFromBack = 0.229
    public static let backHeight = 0.30
    /// Depth of the side rails below the top surface.
    public static let railDepth = 0.09

    /// x of the front edge (near the thrower), metres.
    public var frontX: Double
    /// Height of the top surface at the front edge.
    public var frontHeight: Double

    public init(frontX: Double, frontHeight: Double) {
        self.frontX = frontX
        self.frontHeight = frontHeight
    }

    public var sinIncline: Double { (Self.backHeight - frontHeight) / Self.length }
    public var cosIncline: Double { (1 - sinIncline * sinIncline).squareRoot() }
    public var inclineDegrees: Double { degrees(asin(sinIncline)) }
    public var backX: Double { frontX + Self.length * cosIncline }
    public var holeS: Double { Self.length - Self.holeFromBack }
    public var holeRadius: Double { Self.holeDiameter / 2 }

    /// World point of surface coordinates (s, w), lifted `lift` metres along the surface normal.
    public func point(s: Double, w: Double, lift: Double = 0) -> Vec3 {
        Vec3(frontX + s * cosIncline, frontHeight + s * sinIncline, w) + normal * lift
    }

    /// Unit normal of the top surface (up and toward the thrower).
    public var normal: Vec3 { Vec3(-sinIncline, cosIncline, 0) }
    /// Unit direction up the slope.
    public var uphill: Vec3 { Vec3(cosIncline, sinIncline, 0) }

    public var holeCentre: Vec3 { point(s: holeS, w: 0) }

    /// Surface coordinates of a world point (its projection on the top plane).
    public func surfaceCoordinates(_ p: Vec3) -> (s: Double, w: Double, height: Double) {
        let d = p - point(s: 0, w: 0)
        return (d.dot(uphill), p.z, d.dot(normal))
    }

    /// Height of the top surface above the ground at x (nil off the board's length).
    public func surfaceHeight(x: Double) -> Double? {
        guard x >= frontX, x <= backX else { return nil }
        return frontHeight + (x - frontX) / cosIncline * sinIncline
    }

    public func isOnTop(s: Double, w: Double) -> Bool {
        s >= 0 && s <= Self.length && abs(w) <= Self.width / 2
    }

    public func isOverHole(s: Double, w: Double) -> Bool {
        let ds = s - holeS
        return ds * ds + w * w < holeRadius * holeRadius
    }

    /// The four top corners in the world: front-near, front-far, back-far, back-near, where
    /// near means toward +z.
    public var topCorners: [Vec3] {
        let h = Self.width / 2
        return [point(s: 0, w: h), point(s: 0, w: -h), point(s: Self.length, w: -h), point(s: Self.length, w: h)]
    }
}

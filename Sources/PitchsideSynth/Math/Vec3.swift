import Foundation

/// A point or direction in the world, metres: x along the throw line (thrower → board),
/// y up, z across (toward the camera for a thrower-left scene).
public struct Vec3: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(_ x: Double, _ y: Double, _ z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let zero = Vec3(0, 0, 0)
    public static let up = Vec3(0, 1, 0)

    public static func + (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x + b.x, a.y + b.y, a.z + b.z) }
    public static func - (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x - b.x, a.y - b.y, a.z - b.z) }
    public static func * (a: Vec3, s: Double) -> Vec3 { Vec3(a.x * s, a.y * s, a.z * s) }
    public static func * (s: Double, a: Vec3) -> Vec3 { a * s }
    public static prefix func - (a: Vec3) -> Vec3 { Vec3(-a.x, -a.y, -a.z) }

    public func dot(_ b: Vec3) -> Double { x * b.x + y * b.y + z * b.z }
    public func cross(_ b: Vec3) -> Vec3 {
        Vec3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x)
    }
    public var length: Double { dot(self).squareRoot() }
    public var normalized: Vec3 {
        let l = length
        return l > 0 ? self * (1 / l) : self
    }
    public var horizontalLength: Double { (x * x + z * z).squareRoot() }
}

/// A point in the image, pixels, origin top-left, y down.
public struct Pixel: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    public func distance(to p: Pixel) -> Double { ((x - p.x) * (x - p.x) + (y - p.y) * (y - p.y)).squareRoot() }
}

@inlinable func clamp(_ v: Double, _ lo: Double, _ hi: Double) -> Double { min(max(v, lo), hi) }
@inlinable func lerp(_ a: Double, _ b: Double, _ t: Double) -> Double { a + (b - a) * t }
@inlinable func smoothstep(_ t: Double) -> Double {
    let c = clamp(t, 0, 1)
    return c * c * (3 - 2 * c)
}
@inlinable func radians(_ degrees: Double) -> Double { degrees * Double.pi / 180 }
@inlinable func degrees(_ radians: Double) -> Double { radians * 180 / Double.pi }

import Foundation
import PitchsideCore

/// A 2-D point or vector in normalized image coordinates (x right, y down).
public struct Vec2: Sendable, Equatable, Codable {
    public var x: Double
    public var y: Double

    public init(_ x: Double, _ y: Double) {
        self.x = x
        self.y = y
    }

    public init(_ p: PSPoint) { self.init(p.x, p.y) }

    public var wire: PSPoint {
        var p = PSPoint()
        p.x = x
        p.y = y
        return p
    }

    public static func - (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x - b.x, a.y - b.y) }
    public static func + (a: Vec2, b: Vec2) -> Vec2 { Vec2(a.x + b.x, a.y + b.y) }
    public var length: Double { (x * x + y * y).squareRoot() }
    public func distance(to other: Vec2) -> Double { (self - other).length }
}

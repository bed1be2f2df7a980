/// A point in pixels (or any plane), x right, y down.
public struct PosePoint: Sendable, Equatable {
    public var x: Float
    public var y: Float

    public init(x: Float, y: Float) {
        self.x = x
        self.y = y
    }

    public static func + (a: PosePoint, b: PosePoint) -> PosePoint { PosePoint(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: PosePoint, b: PosePoint) -> PosePoint { PosePoint(x: a.x - b.x, y: a.y - b.y) }
    public static func * (a: PosePoint, s: Float) -> PosePoint { PosePoint(x: a.x * s, y: a.y * s) }

    public func distance(to other: PosePoint) -> Float {
        let d = other - self
        return (d.x * d.x + d.y * d.y).squareRoot()
    }

    public static func midpoint(_ a: PosePoint, _ b: PosePoint) -> PosePoint { PosePoint(x: (a.x + b.x) / 2, y: (a.y + b.y) / 2) }
}

/// An axis-aligned box in pixels (or normalized units).
public struct PoseBox: Sendable, Equatable {
    public var minX: Float
    public var minY: Float
    public var maxX: Float
    public var maxY: Float

    public init(minX: Float, minY: Float, maxX: Float, maxY: Float) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
    }

    public var width: Float { max(0, maxX - minX) }
    public var height: Float { max(0, maxY - minY) }
    public var area: Float { width * height }
    public var center: PosePoint { PosePoint(x: (minX + maxX) / 2, y: (minY + maxY) / 2) }

    public func contains(_ p: PosePoint) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }

    /// Intersection over union; 0 when either box is empty.
    public func iou(_ other: PoseBox) -> Float {
        let w = min(maxX, other.maxX) - max(minX, other.minX)
        let h = min(maxY, other.maxY) - max(minY, other.minY)
        guard w > 0, h > 0 else { return 0 }
        let inter = w * h
        let union = area + other.area - inter
        return union > 0 ? inter / union : 0
    }

    /// The smallest box holding all points; nil for none.
    public static func enclosing<S: Sequence>(_ points: S) -> PoseBox? where S.Element == PosePoint {
        var box: PoseBox?
        for p in points {
            if var b = box {
                b.minX = min(b.minX, p.x); b.minY = min(b.minY, p.y)
                b.maxX = max(b.maxX, p.x); b.maxY = max(b.maxY, p.y)
                box = b
            } else {
                box = PoseBox(minX: p.x, minY: p.y, maxX: p.x, maxY: p.y)
            }
        }
        return box
    }
}

import Foundation

/// A square, rotated region of an image in pixels: what a model sees.
///
/// A point (u, v) of the region, both in [-0.5, 0.5] with v down the region,
/// lies in the image at `center + R(rotation) · (u, v) · side`. Rotation is in
/// radians, positive turning the region's "up" toward the image's +x
/// (clockwise on screen, y being down).
public struct PoseRegion: Sendable, Equatable {
    public var center: PosePoint
    public var side: Float
    public var rotation: Float

    public init(center: PosePoint, side: Float, rotation: Float = 0) {
        self.center = center
        self.side = side
        self.rotation = rotation
    }

    /// An axis-aligned square holding the whole image, centred on it (letterboxing).
    public static func wholeImage(width: Int, height: Int) -> PoseRegion {
        PoseRegion(center: PosePoint(x: Float(width) / 2, y: Float(height) / 2), side: Float(max(width, height)))
    }

    /// Image position of region coordinates (u, v) in [-0.5, 0.5].
    @inlinable
    public func imagePoint(u: Float, v: Float) -> PosePoint {
        let c = cos(rotation), s = sin(rotation)
        return PosePoint(x: center.x + (c * u - s * v) * side, y: center.y + (s * u + c * v) * side)
    }

    /// Region coordinates (u, v) of an image point: the inverse of `imagePoint`.
    public func regionPoint(_ p: PosePoint) -> (u: Float, v: Float) {
        let c = cos(rotation), s = sin(rotation)
        let dx = (p.x - center.x) / side, dy = (p.y - center.y) / side
        return (c * dx + s * dy, -s * dx + c * dy)
    }

    /// The body-aligned region MediaPipe builds from two keypoints: the body
    /// centre and a point whose distance from it encloses the body. The region
    /// is centred on the centre, turned so that centre → scale point is "up",
    /// and `scale` times the enclosing circle's diameter wide.
    public static func aligned(center: PosePoint, scalePoint: PosePoint, scale: Float = 1.25) -> PoseRegion {
        let angle = Float.pi / 2 - atan2(-(scalePoint.y - center.y), scalePoint.x - center.x)
        let side = 2 * center.distance(to: scalePoint) * scale
        return PoseRegion(center: center, side: side, rotation: normalizedAngle(angle))
    }

    /// The angle in [-π, π).
    public static func normalizedAngle(_ angle: Float) -> Float {
        let twoPi = 2 * Float.pi
        return angle - twoPi * ((angle + Float.pi) / twoPi).rounded(.down)
    }
}

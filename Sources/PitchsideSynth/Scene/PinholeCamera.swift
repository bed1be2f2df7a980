import Foundation

/// A pinhole camera looking at the court from the side, elevated.
///
/// Projects world points (metres) to pixels. During the settle period the whole picture is
/// shifted by a whole-pixel offset (pan and shake); `project` includes that offset, so the truth
/// and the pixels always agree.
public struct PinholeCamera: Sendable, Equatable {
    public let position: Vec3
    public let forward: Vec3
    public let right: Vec3
    public let up: Vec3
    /// Focal length in pixels.
    public let focal: Double
    public let width: Int
    public let height: Int
    /// Whole-pixel image shift (settle period), added to every projection.
    public var offsetX: Int = 0
    public var offsetY: Int = 0

    public init(position: Vec3, lookAt: Vec3, focal: Double, width: Int, height: Int) {
        self.position = position
        let f = (lookAt - position).normalized
        let r = f.cross(.up).normalized
        forward = f
        right = r
        up = r.cross(f)
        self.focal = focal
        self.width = width
        self.height = height
    }

    /// Distance of a point in front of the camera along its axis.
    @inlinable public func depth(_ p: Vec3) -> Double { (p - position).dot(forward) }

    /// Pixel of a world point (points behind the camera are pushed far away).
    @inlinable public func project(_ p: Vec3) -> Pixel {
        let d = p - position
        let z = max(d.dot(forward), 1e-3)
        return Pixel(
            Double(width) / 2 + focal * d.dot(right) / z + Double(offsetX),
            Double(height) / 2 - focal * d.dot(up) / z + Double(offsetY))
    }

    /// Pixels per metre for a small length seen face-on at point p.
    @inlinable public func scale(at p: Vec3) -> Double { focal / max(depth(p), 1e-3) }

    /// The camera that frames every given point with a margin (fraction of the frame), keeping
    /// the direction from `position` toward `lookAt`; the focal length is the largest that fits.
    public static func framing(
        position: Vec3, points: [Vec3], width: Int, height: Int, margin: Double
    ) -> PinholeCamera {
        // Aim at the centre of the points' angular extent, then fit the focal length.
        var centre = Vec3.zero
        for p in points { centre = centre + p }
        centre = centre * (1 / Double(points.count))
        var camera = PinholeCamera(position: position, lookAt: centre, focal: 1, width: width, height: height)
        for _ in 0..<3 {
            var minU = Double.infinity, maxU = -Double.infinity, minV = Double.infinity, maxV = -Double.infinity
            for p in points {
                let d = p - position
                let z = d.dot(camera.forward)
                minU = min(minU, d.dot(camera.right) / z)
                maxU = max(maxU, d.dot(camera.right) / z)
                minV = min(minV, d.dot(camera.up) / z)
                maxV = max(maxV, d.dot(camera.up) / z)
            }
            let midU = (minU + maxU) / 2, midV = (minV + maxV) / 2
            let target = position + camera.forward + camera.right * midU + camera.up * midV
            camera = PinholeCamera(position: position, lookAt: target, focal: 1, width: width, height: height)
            let fu = Double(width) * (1 - 2 * margin) / (maxU - minU)
            let fv = Double(height) * (1 - 2 * margin) / (maxV - minV)
            camera = PinholeCamera(position: position, lookAt: target, focal: min(fu, fv), width: width, height: height)
        }
        return camera
    }
}

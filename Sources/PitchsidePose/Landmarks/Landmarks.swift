import Foundation

/// One BlazePose landmark in image pixels: position, relative depth (pixels,
/// the same scale as x; smaller is nearer the camera), and the probabilities
/// that it is visible (not occluded) and present (inside the image).
public struct PoseLandmark: Sendable, Equatable {
    public var x: Float
    public var y: Float
    public var z: Float
    public var visibility: Float
    public var presence: Float

    public init(x: Float, y: Float, z: Float, visibility: Float, presence: Float) {
        self.x = x
        self.y = y
        self.z = z
        self.visibility = visibility
        self.presence = presence
    }

    public var point: PosePoint { PosePoint(x: x, y: y) }
}

/// Decodes the landmark model's output and projects it back to the image.
///
/// The model gives 39 landmarks × (x, y, z, visibility logit, presence logit)
/// in crop pixels (0…256): the 33 body landmarks, then auxiliary points, of
/// which 33 (body centre) and 34 (body scale) give the next frame's region.
public enum LandmarkDecoder {
    public static let bodyLandmarkCount = 33
    public static let outputLandmarkCount = 39
    public static let valuesPerLandmark = 5
    /// Auxiliary landmark indices the tracking region is built from.
    public static let centreIndex = 33
    public static let scaleIndex = 34

    /// All 39 landmarks in image pixels, for a crop of `region` at `inputSize`.
    public static func decode(_ raw: UnsafeBufferPointer<Float>, region: PoseRegion, inputSize: Float = 256) -> [PoseLandmark] {
        precondition(raw.count >= outputLandmarkCount * valuesPerLandmark, "landmark output too short")
        var result: [PoseLandmark] = []
        result.reserveCapacity(outputLandmarkCount)
        for i in 0..<outputLandmarkCount {
            let b = i * valuesPerLandmark
            let p = region.imagePoint(u: raw[b] / inputSize - 0.5, v: raw[b + 1] / inputSize - 0.5)
            result.append(PoseLandmark(
                x: p.x, y: p.y, z: raw[b + 2] / inputSize * region.side,
                visibility: sigmoid(raw[b + 3]), presence: sigmoid(raw[b + 4])))
        }
        return result
    }

    /// The region for the next frame, from the auxiliary landmarks.
    public static func trackingRegion(_ landmarks: [PoseLandmark]) -> PoseRegion {
        PoseRegion.aligned(center: landmarks[centreIndex].point, scalePoint: landmarks[scaleIndex].point)
    }

    @inlinable
    static func sigmoid(_ x: Float) -> Float { 1 / (1 + exp(-x)) }
}

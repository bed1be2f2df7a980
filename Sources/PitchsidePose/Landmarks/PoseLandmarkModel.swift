import PitchsideCore

/// BlazePose's full landmark model (`pose_landmark_full.tflite`) on one
/// body-aligned region: crop to 256 × 256 in [0, 1] with replicated borders,
/// infer, project the 39 landmarks back to the image.
public final class PoseLandmarkModel {
    public static let inputSize = 256
    public let model: LiteRtModel
    private let landmarkOutput: Int
    private let presenceOutput: Int

    /// What one run found: 39 landmarks in image pixels and the pose presence (a probability).
    public struct Output: Sendable {
        public var landmarks: [PoseLandmark]
        public var presence: Float
    }

    public init(runtime: LiteRtRuntime, path: String, threads: Int = 1) throws {
        let model = try LiteRtModel(runtime: runtime, path: path, threads: threads)
        guard model.inputs == [TensorShape(dimensions: [1, 256, 256, 3])],
              let landmarks = model.outputs.firstIndex(of: TensorShape(dimensions: [1, 195])),
              let presence = model.outputs.firstIndex(of: TensorShape(dimensions: [1, 1]))
        else {
            throw PoseError.wrongModel(
                path: path, expected: "in f32[1,256,256,3] → out f32[1,195], f32[1,1], … (pose_landmark_full.tflite)",
                found: "in \(model.inputs) → out \(model.outputs)")
        }
        self.model = model
        self.landmarkOutput = landmarks
        self.presenceOutput = presence
    }

    /// Landmarks of the person in `region` of `image`.
    public func landmarks(in image: ImageBuffer, region: PoseRegion) throws -> Output {
        let size = Self.inputSize
        model.withInput(0) { input in
            RegionCrop.crop(image, region: region, size: size, border: .replicate, scale: 1 / 255, offset: 0, into: input)
        }
        try model.run()
        let presence = model.withOutput(presenceOutput) { $0[0] }
        let landmarks = model.withOutput(landmarkOutput) { raw in
            LandmarkDecoder.decode(raw, region: region, inputSize: Float(size))
        }
        return Output(landmarks: landmarks, presence: presence)
    }
}

import PitchsideCore

/// BlazePose's person detector (`pose_detection.tflite`) run on one square
/// region of an image: crop to 224 × 224 in [-1, 1], infer, decode, merge.
///
/// ```swift
/// let detector = try PoseDetectorModel(runtime: runtime, path: assets.detectorModel, threads: 1)
/// let people = try detector.detect(in: image, region: .wholeImage(width: image.width, height: image.height))
/// ```
public final class PoseDetectorModel {
    public static let inputSize = 224
    public let model: LiteRtModel
    public var decoder: DetectorDecoder
    public var suppression: WeightedNonMaxSuppression
    private let regressorOutput: Int
    private let scoreOutput: Int

    public init(runtime: LiteRtRuntime, path: String, threads: Int = 1, minScore: Float = 0.5) throws {
        let model = try LiteRtModel(runtime: runtime, path: path, threads: threads)
        let anchors = AnchorGrid.blazePose.centres()
        let n = anchors.count
        // Outputs are found by shape, not position, so that a reordering does not matter.
        guard model.inputs == [TensorShape(dimensions: [1, 224, 224, 3])],
              let regressors = model.outputs.firstIndex(of: TensorShape(dimensions: [1, n, 12])),
              let scores = model.outputs.firstIndex(of: TensorShape(dimensions: [1, n, 1]))
        else {
            throw PoseError.wrongModel(
                path: path, expected: "in f32[1,224,224,3] → out f32[1,\(n),12], f32[1,\(n),1] (pose_detection.tflite)",
                found: "in \(model.inputs) → out \(model.outputs)")
        }
        self.model = model
        self.regressorOutput = regressors
        self.scoreOutput = scores
        self.decoder = DetectorDecoder(anchors: anchors, minScore: minScore)
        self.suppression = WeightedNonMaxSuppression(iouThreshold: 0.3)
    }

    /// People in `region` of `image`, best first, in image pixels; `minScore`
    /// overrides the decoder's threshold for this call.
    public func detect(in image: ImageBuffer, region: PoseRegion, minScore: Float? = nil) throws -> [PersonDetection] {
        let size = Self.inputSize
        model.withInput(0) { input in
            RegionCrop.crop(image, region: region, size: size, border: .constant(0),
                            scale: 2 / 255, offset: -1, into: input)
        }
        try model.run()
        let found = model.withOutput(regressorOutput) { regressors in
            model.withOutput(scoreOutput) { scores in
                var decoder = self.decoder
                if let minScore { decoder.minScore = minScore }
                return decoder.decode(regressors: regressors, scores: scores)
            }
        }
        return suppression(found).map { detection in
            detection.mapped { region.imagePoint(u: $0.x - 0.5, v: $0.y - 0.5) }
        }
    }
}

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
    /// overrides the decoder's threshold for this call. The `hiding` boxes (image
    /// pixels; people already known) are greyed out first: beside a person it
    /// scores high, the detector often misses a second one.
    public func detect(in image: ImageBuffer, region: PoseRegion, minScore: Float? = nil,
                       hiding: [PoseBox] = []) throws -> [PersonDetection] {
        let size = Self.inputSize
        model.withInput(0) { input in
            RegionCrop.crop(image, region: region, size: size, border: .constant(0),
                            scale: 2 / 255, offset: -1, into: input)
            for box in hiding { Self.grey(box, of: region, in: input) }
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

    /// Sets the input pixels under `box` (image pixels) to mid-grey (0 in the model's [-1, 1] scale).
    /// Only axis-aligned regions are greyed (the detector's whole image and tiles).
    static func grey(_ box: PoseBox, of region: PoseRegion, in input: UnsafeMutableBufferPointer<Float>) {
        guard region.rotation == 0 else { return }
        let size = Float(inputSize)
        let a = region.regionPoint(PosePoint(x: box.minX, y: box.minY))
        let b = region.regionPoint(PosePoint(x: box.maxX, y: box.maxY))
        let x0 = max(0, Int(((a.u + 0.5) * size).rounded(.down))), x1 = min(inputSize, Int(((b.u + 0.5) * size).rounded(.up)))
        let y0 = max(0, Int(((a.v + 0.5) * size).rounded(.down))), y1 = min(inputSize, Int(((b.v + 0.5) * size).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        for y in y0..<y1 {
            let row = (y * inputSize + x0) * 3
            for i in row..<(row + (x1 - x0) * 3) { input[i] = 0 }
        }
    }
}

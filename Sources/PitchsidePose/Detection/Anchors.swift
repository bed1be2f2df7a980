/// SSD anchor centres, in the detector input's normalized coordinates, as
/// MediaPipe's SsdAnchorsCalculator generates them for fixed-size anchors.
///
/// Layers that share a stride share one feature map; each grid cell gets two
/// anchors per layer (the aspect ratio 1 anchor and the interpolated-scale one),
/// all of size 1 × 1 because `fixed_anchor_size` is set.
public struct AnchorGrid: Sendable, Equatable {
    public var inputSize: Int
    public var strides: [Int]
    public var offset: Float
    public var anchorsPerLayer: Int

    /// BlazePose's detector (pose_detection.tflite): 224 input, strides 8, 16, 32, 32, 32 → 2254 anchors.
    public static let blazePose = AnchorGrid(inputSize: 224, strides: [8, 16, 32, 32, 32], offset: 0.5, anchorsPerLayer: 2)

    public init(inputSize: Int, strides: [Int], offset: Float, anchorsPerLayer: Int) {
        self.inputSize = inputSize
        self.strides = strides
        self.offset = offset
        self.anchorsPerLayer = anchorsPerLayer
    }

    /// Anchor centres in output order: feature map by feature map, row-major, anchors of a cell together.
    public func centres() -> [PosePoint] {
        var result: [PosePoint] = []
        var layer = 0
        while layer < strides.count {
            var last = layer
            while last + 1 < strides.count && strides[last + 1] == strides[layer] { last += 1 }
            let perCell = anchorsPerLayer * (last - layer + 1)
            let cells = (inputSize + strides[layer] - 1) / strides[layer]
            for y in 0..<cells {
                for x in 0..<cells {
                    let centre = PosePoint(x: (Float(x) + offset) / Float(cells), y: (Float(y) + offset) / Float(cells))
                    for _ in 0..<perCell { result.append(centre) }
                }
            }
            layer = last + 1
        }
        return result
    }
}

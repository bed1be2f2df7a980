import CFFmpeg

/// Shrinks planar 8-bit YUV by a whole factor with box (area) averaging, keeping
/// the pixel format (internal). Used before the YUV → RGB step when a rendition
/// is an exact 1/k of the source (1920×1080 → 640×360, 1280×720 → 640×360): an
/// aliasing-free reduction far cheaper than libswscale's general scaler.
final class BoxShrinker {
    private var storage: [UInt8] = []
    private var rowSums: [UInt16] = []

    /// The whole factor k such that source / k == target in both directions, if the format allows it.
    static func factor(
        format: AVPixelFormat, sourceWidth: Int, sourceHeight: Int, targetWidth: Int, targetHeight: Int
    ) -> Int? {
        guard let shift = chromaShift(format), targetWidth > 0, targetHeight > 0,
              sourceWidth % targetWidth == 0, sourceHeight % targetHeight == 0 else { return nil }
        let k = sourceWidth / targetWidth
        guard k >= 2, k <= 16, sourceHeight / targetHeight == k else { return nil }
        // Chroma planes must shrink by the same whole factor.
        guard (sourceWidth >> shift.x) % k == 0, (sourceHeight >> shift.y) % k == 0,
              sourceWidth % (1 << shift.x) == 0, sourceHeight % (1 << shift.y) == 0,
              targetWidth % (1 << shift.x) == 0, targetHeight % (1 << shift.y) == 0 else { return nil }
        return k
    }

    /// Log2 chroma subsampling of the planar 8-bit YUV formats handled here.
    static func chromaShift(_ format: AVPixelFormat) -> (x: Int, y: Int)? {
        switch format {
        case AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P: return (1, 1)
        case AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUVJ422P: return (1, 0)
        case AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUVJ444P: return (0, 0)
        default: return nil
        }
    }

    /// Shrinks `frame` by `factor` and calls `body` with the small picture's planes and strides.
    func shrink<R>(
        _ frame: UnsafeMutablePointer<AVFrame>, factor: Int,
        _ body: (_ planes: [UnsafePointer<UInt8>?], _ strides: [Int32], _ width: Int, _ height: Int) throws -> R
    ) rethrows -> R {
        let format = AVPixelFormat(rawValue: frame.pointee.format)
        let shift = Self.chromaShift(format)!
        let width = Int(frame.pointee.width) / factor, height = Int(frame.pointee.height) / factor
        let chromaWidth = width >> shift.x, chromaHeight = height >> shift.y
        let sizes = [(width, height), (chromaWidth, chromaHeight), (chromaWidth, chromaHeight)]
        let total = sizes.reduce(0) { $0 + $1.0 * $1.1 }
        if storage.count < total { storage = [UInt8](repeating: 0, count: total) }
        let longestRow = Int(frame.pointee.width)
        if rowSums.count < longestRow { rowSums = [UInt16](repeating: 0, count: longestRow) }
        return try storage.withUnsafeMutableBufferPointer { buffer in
            try rowSums.withUnsafeMutableBufferPointer { sums in
                try frame.withPlanes { sourcePlanes, sourceStrides in
                    var planes: [UnsafePointer<UInt8>?] = []
                    var offset = 0
                    for (plane, size) in sizes.enumerated() {
                        let target = buffer.baseAddress! + offset
                        pitchside_box_shrink(sourcePlanes[plane], sourceStrides[plane], target, Int32(size.0),
                                             Int32(size.0), Int32(size.1), Int32(factor), sums.baseAddress!)
                        planes.append(UnsafePointer(target))
                        offset += size.0 * size.1
                    }
                    return try body(planes + [nil], sizes.map { Int32($0.0) } + [0], width, height)
                }
            }
        }
    }
}

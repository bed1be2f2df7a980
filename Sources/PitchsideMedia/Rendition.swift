import PitchsideCore

/// One picture format a consumer asks for: a name, a pixel layout and a size limit.
///
/// ```swift
/// let gray = Rendition(name: "gray", layout: .gray8)                   // full size
/// let small = Rendition(name: "rgb640", layout: .rgb24, maxWidth: 640)  // 1920×1080 → 640×360
/// ```
public struct Rendition: Hashable, Sendable, CustomStringConvertible {
    /// The name used in topics (`frame/<stream>/<rendition>`).
    public var name: String
    public var layout: PixelLayout
    /// Largest output width; nil for no limit. Pictures are only ever shrunk, keeping aspect.
    public var maxWidth: Int?
    /// Largest output height; nil for no limit.
    public var maxHeight: Int?

    public init(name: String, layout: PixelLayout, maxWidth: Int? = nil, maxHeight: Int? = nil) {
        self.name = name
        self.layout = layout
        self.maxWidth = maxWidth
        self.maxHeight = maxHeight
    }

    /// Full-size GRAY8, what the stability analyser uses.
    public static let grayFull = Rendition(name: "gray", layout: .gray8)

    /// Full-size YUV420P, the decoder's own planes: what the trajectory analyser uses (a bag can
    /// have the luma of the ground behind it and differ only in colour).
    public static let yuvFull = Rendition(name: "yuv", layout: .yuv420p)

    /// The output size for a source of the given size: the largest that fits the limits, aspect kept.
    /// yuv420p sizes are rounded down to even numbers (its chroma planes are half size).
    public func targetSize(sourceWidth: Int, sourceHeight: Int) -> (width: Int, height: Int) {
        let size = scaledSize(sourceWidth: sourceWidth, sourceHeight: sourceHeight)
        guard layout == .yuv420p else { return size }
        return (max(2, size.width & ~1), max(2, size.height & ~1))
    }

    private func scaledSize(sourceWidth: Int, sourceHeight: Int) -> (width: Int, height: Int) {
        var scale = 1.0
        if let maxWidth, maxWidth > 0, sourceWidth > maxWidth { scale = min(scale, Double(maxWidth) / Double(sourceWidth)) }
        if let maxHeight, maxHeight > 0, sourceHeight > maxHeight {
            scale = min(scale, Double(maxHeight) / Double(sourceHeight))
        }
        if scale >= 1 { return (sourceWidth, sourceHeight) }
        return (max(1, Int((Double(sourceWidth) * scale).rounded())), max(1, Int((Double(sourceHeight) * scale).rounded())))
    }

    public var description: String {
        let limit = [maxWidth.map { "w≤\($0)" }, maxHeight.map { "h≤\($0)" }].compactMap { $0 }.joined(separator: ",")
        return "\(name)(\(layout.rawValue)\(limit.isEmpty ? ", full size" : ", " + limit))"
    }
}

/// How scaled renditions are filtered (libswscale flags).
public enum ScalingQuality: Sendable {
    /// SWS_FAST_BILINEAR: fastest; aliases when shrinking a lot.
    case fast
    /// SWS_BILINEAR.
    case bilinear
    /// Area averaging (the default): a box filter for whole-factor reductions, SWS_AREA otherwise.
    case area
}

/// Pixel layouts the analysers and renditions use.
public enum PixelLayout: String, Sendable, Codable, CaseIterable {
    /// One byte per pixel, luma.
    case gray8
    /// Three bytes per pixel, R G B.
    case rgb24
    /// Three planes back to back: Y (width × height, rows `stride` apart), then U and V at half
    /// the width and height (rows `stride / 2` apart), as H.264 decoders produce them. Width,
    /// height and stride are even.
    case yuv420p

    /// Bytes per pixel of the first (or only) plane.
    public var bytesPerPixel: Int {
        switch self {
        case .gray8, .yuv420p: return 1
        case .rgb24: return 3
        }
    }

    /// Bytes of a picture of `height` rows whose first plane has rows `stride` bytes apart.
    public func byteCount(stride: Int, height: Int) -> Int {
        switch self {
        case .gray8, .rgb24: return stride * height
        case .yuv420p: return stride * height + 2 * (stride / 2) * (height / 2)
        }
    }
}

/// A packed, single-plane picture owned by Swift: what the pure analysers see.
///
/// ```swift
/// var image = ImageBuffer(width: 640, height: 360, layout: .gray8)
/// image[10, 20] = 255          // x = 10, y = 20 (gray8 only)
/// ```
public struct ImageBuffer: Sendable, Equatable {
    public let width: Int
    public let height: Int
    public let layout: PixelLayout
    /// Bytes from the start of one row to the next (≥ width × bytesPerPixel).
    public let stride: Int
    public var pixels: [UInt8]

    /// A black image with tightly packed rows.
    public init(width: Int, height: Int, layout: PixelLayout) {
        precondition(width > 0 && height > 0, "image size must be positive")
        precondition(layout != .yuv420p || (width % 2 == 0 && height % 2 == 0), "yuv420p needs an even size")
        self.width = width
        self.height = height
        self.layout = layout
        let stride = width * layout.bytesPerPixel
        self.stride = stride
        // Black: Y 0, and for yuv420p neutral chroma (128).
        var pixels = [UInt8](repeating: 0, count: layout.byteCount(stride: stride, height: height))
        if layout == .yuv420p {
            let lumaBytes = stride * height
            for i in lumaBytes..<pixels.count { pixels[i] = 128 }
        }
        self.pixels = pixels
    }

    /// Offsets of the U and V planes in `pixels` and their row stride (yuv420p only).
    public var chromaPlanes: (u: Int, v: Int, stride: Int) {
        precondition(layout == .yuv420p, "only yuv420p has chroma planes")
        let u = stride * height, cs = stride / 2
        return (u, u + cs * (height / 2), cs)
    }

    /// Wraps existing bytes; fails when they do not add up to the size given.
    public init(width: Int, height: Int, layout: PixelLayout, stride: Int? = nil, pixels: [UInt8]) throws {
        let rowBytes = width * layout.bytesPerPixel
        let stride = stride ?? rowBytes
        guard width > 0, height > 0 else {
            throw ImageBufferError.badSize("image size \(width)×\(height) must be positive")
        }
        guard stride >= rowBytes else {
            throw ImageBufferError.badSize("stride \(stride) is less than a row of \(rowBytes) bytes")
        }
        if layout == .yuv420p {
            guard width % 2 == 0, height % 2 == 0, stride % 2 == 0 else {
                throw ImageBufferError.badSize("yuv420p needs an even width, height and stride, not \(width)×\(height) stride \(stride)")
            }
            guard pixels.count >= layout.byteCount(stride: stride, height: height) else {
                throw ImageBufferError.badSize(
                    "\(pixels.count) bytes do not hold \(width)×\(height) yuv420p with stride \(stride)")
            }
        }
        guard pixels.count >= stride * (height - 1) + rowBytes else {
            throw ImageBufferError.badSize(
                "\(pixels.count) bytes do not hold \(width)×\(height) \(layout.rawValue) with stride \(stride)")
        }
        self.width = width
        self.height = height
        self.layout = layout
        self.stride = stride
        self.pixels = pixels
    }

    /// Gray value at (x, y); for RGB images, the red channel.
    @inlinable
    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * stride + x * layout.bytesPerPixel] }
        set { pixels[y * stride + x * layout.bytesPerPixel] = newValue }
    }

    /// The (r, g, b) at (x, y); gray images (and yuv420p, by its luma) give the same value three times.
    @inlinable
    public func rgb(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = y * stride + x * layout.bytesPerPixel
        if layout != .rgb24 { return (pixels[i], pixels[i], pixels[i]) }
        return (pixels[i], pixels[i + 1], pixels[i + 2])
    }
}

public enum ImageBufferError: Error, CustomStringConvertible, Equatable {
    case badSize(String)

    public var description: String {
        switch self {
        case .badSize(let message): return message
        }
    }
}

/// Pixel layouts the analysers and renditions use.
public enum PixelLayout: String, Sendable, Codable, CaseIterable {
    /// One byte per pixel, luma.
    case gray8
    /// Three bytes per pixel, R G B.
    case rgb24

    public var bytesPerPixel: Int {
        switch self {
        case .gray8: return 1
        case .rgb24: return 3
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
        self.width = width
        self.height = height
        self.layout = layout
        self.stride = width * layout.bytesPerPixel
        self.pixels = [UInt8](repeating: 0, count: stride * height)
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

    /// The (r, g, b) at (x, y); gray images give the same value three times.
    @inlinable
    public func rgb(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8) {
        let i = y * stride + x * layout.bytesPerPixel
        if layout == .gray8 { return (pixels[i], pixels[i], pixels[i]) }
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

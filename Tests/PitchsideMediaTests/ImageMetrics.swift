import PitchsideCore

/// Small measurements the media tests compare pictures with.
enum ImageMetrics {
    /// Mean absolute difference per sample of two images of the same size and layout.
    static func meanAbsoluteError(_ a: ImageBuffer, _ b: ImageBuffer) -> Double {
        precondition(a.width == b.width && a.height == b.height && a.layout == b.layout)
        let rowBytes = a.width * a.layout.bytesPerPixel
        var total = 0
        for y in 0..<a.height {
            for i in 0..<rowBytes {
                total += abs(Int(a.pixels[y * a.stride + i]) - Int(b.pixels[y * b.stride + i]))
            }
        }
        return Double(total) / Double(rowBytes * a.height)
    }

    /// Largest absolute difference of two images of the same size and layout.
    static func maxAbsoluteError(_ a: ImageBuffer, _ b: ImageBuffer) -> Int {
        let rowBytes = a.width * a.layout.bytesPerPixel
        var worst = 0
        for y in 0..<a.height {
            for i in 0..<rowBytes { worst = max(worst, abs(Int(a.pixels[y * a.stride + i]) - Int(b.pixels[y * b.stride + i]))) }
        }
        return worst
    }

    /// Full-range BT.601 luma of an rgb24 image.
    static func luma(_ image: ImageBuffer) -> ImageBuffer {
        var gray = ImageBuffer(width: image.width, height: image.height, layout: .gray8)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let (r, g, b) = image.rgb(x: x, y: y)
                let value = 0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b)
                gray[x, y] = UInt8(min(255, max(0, value.rounded())))
            }
        }
        return gray
    }

    /// Centroid of the pixels brighter than `threshold` in a gray image, or nil when none are.
    static func brightCentroid(_ image: ImageBuffer, threshold: UInt8) -> (x: Double, y: Double)? {
        var sx = 0.0, sy = 0.0, n = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width where image[x, y] > threshold {
                sx += Double(x); sy += Double(y); n += 1
            }
        }
        return n == 0 ? nil : (sx / n, sy / n)
    }
}

import PitchsideCore

/// A tightly packed RGB picture at analysis resolution, with the factor back to the source.
///
/// The board and census analysers work on a reduced copy of the frame: the board is large,
/// and a few hundred pixels across are enough to find it and its hole.
struct WorkImage {
    let width: Int
    let height: Int
    /// R G B per pixel, rows packed.
    var rgb: [UInt8]
    /// Source pixels per work pixel.
    let scale: Double

    /// Box-averages `image` down by the smallest integer factor that brings its longer side to
    /// at most `maxSide` (gray images are expanded to RGB).
    init(_ image: ImageBuffer, maxSide: Int) {
        let factor = max(1, (max(image.width, image.height) + maxSide - 1) / maxSide)
        let w = max(1, image.width / factor), h = max(1, image.height / factor)
        width = w
        height = h
        scale = Double(factor)
        var out = [UInt8](repeating: 0, count: w * h * 3)
        let bpp = image.layout.bytesPerPixel
        let stride = image.stride
        let area = UInt32(factor * factor)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                        for dy in 0..<factor {
                            var i = (y * factor + dy) * stride + x * factor * bpp
                            for _ in 0..<factor {
                                if bpp == 3 {
                                    r &+= UInt32(src[i]); g &+= UInt32(src[i + 1]); b &+= UInt32(src[i + 2])
                                } else {
                                    let v = UInt32(src[i]); r &+= v; g &+= v; b &+= v
                                }
                                i += bpp
                            }
                        }
                        let o = (y * w + x) * 3
                        dst[o] = UInt8(r / area); dst[o + 1] = UInt8(g / area); dst[o + 2] = UInt8(b / area)
                    }
                }
            }
        }
        rgb = out
    }

    init(width: Int, height: Int, rgb: [UInt8], scale: Double) {
        self.width = width
        self.height = height
        self.rgb = rgb
        self.scale = scale
    }

    /// A 3 × 3 box-blurred copy: takes the edge off sensor noise and fine texture.
    func blurred() -> WorkImage {
        let w = width, h = height
        var out = rgb
        rgb.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 1..<max(1, h - 1) {
                    for x in 1..<max(1, w - 1) {
                        for c in 0..<3 {
                            var s = 0
                            for dy in -1...1 {
                                let row = (y + dy) * w
                                s += Int(src[(row + x - 1) * 3 + c]) + Int(src[(row + x) * 3 + c]) + Int(src[(row + x + 1) * 3 + c])
                            }
                            dst[(y * w + x) * 3 + c] = UInt8(s / 9)
                        }
                    }
                }
            }
        }
        return WorkImage(width: w, height: h, rgb: out, scale: scale)
    }

    @inline(__always)
    func pixel(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = (y * width + x) * 3
        return (Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }
}

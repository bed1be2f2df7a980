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
        let size = Self.reducedSize(of: image, maxSide: maxSide)
        self.init(image, factor: size.factor, columns: 0..<size.width, rows: 0..<size.height)
    }

    /// The rectangle `columns` × `rows` (in reduced pixels) of what `init(_:maxSide:)` gives,
    /// the same values, computing only those: the census needs just the board's surroundings.
    init(_ image: ImageBuffer, maxSide: Int, columns: Range<Int>, rows: Range<Int>) {
        let size = Self.reducedSize(of: image, maxSide: maxSide)
        precondition(columns.lowerBound >= 0 && columns.upperBound <= size.width && rows.lowerBound >= 0
                     && rows.upperBound <= size.height, "crop outside the reduced picture")
        self.init(image, factor: size.factor, columns: columns, rows: rows)
    }

    /// The size `init(_:maxSide:)` gives `image`, and its reduction factor.
    static func reducedSize(of image: ImageBuffer, maxSide: Int) -> (width: Int, height: Int, factor: Int) {
        let factor = max(1, (max(image.width, image.height) + maxSide - 1) / maxSide)
        return (max(1, image.width / factor), max(1, image.height / factor), factor)
    }

    private init(_ image: ImageBuffer, factor: Int, columns: Range<Int>, rows: Range<Int>) {
        let w = columns.count, h = rows.count
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
                    let sy = (rows.lowerBound + y) * factor
                    for x in 0..<w {
                        let sx = (columns.lowerBound + x) * factor
                        var r: UInt32 = 0, g: UInt32 = 0, b: UInt32 = 0
                        for dy in 0..<factor {
                            var i = (sy + dy) * stride + sx * bpp
                            if bpp == 3 {
                                for _ in 0..<factor {
                                    r &+= UInt32(src[i]); g &+= UInt32(src[i + 1]); b &+= UInt32(src[i + 2])
                                    i += 3
                                }
                            } else {
                                for _ in 0..<factor {
                                    let v = UInt32(src[i]); r &+= v; g &+= v; b &+= v
                                    i += bpp
                                }
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

    /// `image` at twice its size, bilinear (gray images are expanded to RGB).
    init(doubling image: ImageBuffer) {
        let source = WorkImage(image, maxSide: max(image.width, image.height))
        let w = source.width * 2, h = source.height * 2
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                // Output pixel centre (x + 0.5) / 2 in source pixels.
                let c = source.sample((Double(x) + 0.5) / 2, (Double(y) + 0.5) / 2)
                let o = (y * w + x) * 3
                out[o] = UInt8(c.0.rounded()); out[o + 1] = UInt8(c.1.rounded()); out[o + 2] = UInt8(c.2.rounded())
            }
        }
        self.init(width: w, height: h, rgb: out, scale: 0.5)
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

    /// The colour at a real position (pixel (i, j) centred at (i + 0.5, j + 0.5)), bilinear,
    /// clamped to the picture.
    func sample(_ x: Double, _ y: Double) -> (Double, Double, Double) {
        let fx = min(max(x - 0.5, 0), Double(width - 1)), fy = min(max(y - 0.5, 0), Double(height - 1))
        let ix = min(Int(fx), width - 2 < 0 ? 0 : width - 2), iy = min(Int(fy), height - 2 < 0 ? 0 : height - 2)
        let ax = fx - Double(ix), ay = fy - Double(iy)
        let x1 = min(ix + 1, width - 1), y1 = min(iy + 1, height - 1)
        var out = (0.0, 0.0, 0.0)
        for c in 0..<3 {
            let p00 = Double(rgb[(iy * width + ix) * 3 + c]), p10 = Double(rgb[(iy * width + x1) * 3 + c])
            let p01 = Double(rgb[(y1 * width + ix) * 3 + c]), p11 = Double(rgb[(y1 * width + x1) * 3 + c])
            let v = (p00 * (1 - ax) + p10 * ax) * (1 - ay) + (p01 * (1 - ax) + p11 * ax) * ay
            if c == 0 { out.0 = v } else if c == 1 { out.1 = v } else { out.2 = v }
        }
        return out
    }
}

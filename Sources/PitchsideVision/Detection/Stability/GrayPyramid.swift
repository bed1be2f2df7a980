import PitchsideCore

/// A small gray pyramid of one frame: the frame box-averaged down to a few hundred pixels
/// across, then halved twice more.
struct GrayPyramid {
    struct Level {
        let width: Int
        let height: Int
        let pixels: [UInt8]
        /// Summed-area table, (width + 1) × (height + 1): any rectangle's mean in four reads.
        let integral: [UInt32]

        init(width: Int, height: Int, pixels: [UInt8]) {
            self.width = width
            self.height = height
            self.pixels = pixels
            var table = [UInt32](repeating: 0, count: (width + 1) * (height + 1))
            for y in 0..<height {
                var row: UInt32 = 0
                for x in 0..<width {
                    row &+= UInt32(pixels[y * width + x])
                    table[(y + 1) * (width + 1) + x + 1] = table[y * (width + 1) + x + 1] &+ row
                }
            }
            integral = table
        }

        /// Sum of the pixels in columns x0..<x1, rows y0..<y1.
        func sum(x0: Int, x1: Int, y0: Int, y1: Int) -> Int {
            let w = width + 1
            return Int(integral[y1 * w + x1]) - Int(integral[y0 * w + x1]) - Int(integral[y1 * w + x0]) + Int(integral[y0 * w + x0])
        }
    }

    /// Finest first.
    let levels: [Level]
    /// Source pixels per finest-level pixel.
    let factor: Int

    /// `maxWidth`: the finest level is the source reduced by the smallest power of two that
    /// brings it to at most this width.
    init(_ image: ImageBuffer, maxWidth: Int = 480, levelCount: Int = 3) {
        var f = 1
        while image.width / f > maxWidth { f *= 2 }
        factor = f
        var levels = [GrayPyramid.reduce(image, by: f)]
        while levels.count < levelCount, levels[levels.count - 1].width >= 32, levels[levels.count - 1].height >= 24 {
            levels.append(GrayPyramid.halve(levels[levels.count - 1]))
        }
        self.levels = levels
    }

    private static func reduce(_ image: ImageBuffer, by f: Int) -> Level {
        let w = image.width / f, h = image.height / f
        var out = [UInt8](repeating: 0, count: w * h)
        let bpp = image.layout.bytesPerPixel, stride = image.stride
        let shift = UInt32(f.trailingZeroBitCount * 2)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                if f == 1 && bpp == 1 {
                    for y in 0..<h { for x in 0..<w { dst[y * w + x] = src[y * stride + x] } }
                    return
                }
                // Green carries most of the luma; it stands in for it on RGB frames. The f rows
                // of an output row are summed down each source column first (contiguous, so
                // the loop vectorizes), then f columns at a time.
                let channel = bpp == 3 ? 1 : 0
                var columns = [UInt16](repeating: 0, count: w * f)
                columns.withUnsafeMutableBufferPointer { sums in
                    guard let sum = sums.baseAddress, let base = src.baseAddress else { return }
                    for y in 0..<h {
                        sum.update(repeating: 0, count: w * f)
                        for dy in 0..<f {
                            let row = base + (y * f + dy) * stride + channel
                            if bpp == 1 {
                                for x in 0..<(w * f) { sum[x] &+= UInt16(row[x]) }
                            } else {
                                for x in 0..<(w * f) { sum[x] &+= UInt16(row[x * bpp]) }
                            }
                        }
                        for x in 0..<w {
                            var s: UInt32 = 0
                            for k in 0..<f { s &+= UInt32(sum[x * f + k]) }
                            dst[y * w + x] = UInt8(truncatingIfNeeded: s >> shift)
                        }
                    }
                }
            }
        }
        return Level(width: w, height: h, pixels: out)
    }

    private static func halve(_ l: Level) -> Level {
        let w = l.width / 2, h = l.height / 2
        var out = [UInt8](repeating: 0, count: w * h)
        l.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    let r0 = 2 * y * l.width, r1 = r0 + l.width
                    for x in 0..<w {
                        let s = UInt32(src[r0 + 2 * x]) + UInt32(src[r0 + 2 * x + 1]) + UInt32(src[r1 + 2 * x]) + UInt32(src[r1 + 2 * x + 1])
                        dst[y * w + x] = UInt8(truncatingIfNeeded: s >> 2)
                    }
                }
            }
        }
        return Level(width: w, height: h, pixels: out)
    }
}

import Foundation
import PitchsideCore

/// Samples a rotated square region of an image into a model's float input
/// (NHWC, RGB), bilinearly, with each channel mapped as `value · scale + offset`.
///
/// Outside the image the border is either replicated (what the landmark model
/// was trained with; black borders hurt it) or a constant colour (the
/// detector's letterbox).
///
/// This runs once per tracked frame (256 × 256 samples), so each output row is
/// split into the run of samples whose four neighbours all lie inside the
/// image, taken by a fast path (fixed-point positions, the three channels of a
/// pixel blended at once in a vector), and the samples at either end, taken by
/// a general path that clamps or fills.
public enum RegionCrop {
    public enum Border: Sendable, Equatable {
        case replicate
        /// A constant byte value for all three channels, before scaling.
        case constant(UInt8)
    }

    /// Fills `output` (size × size × 3 floats) from `region` of `image`.
    /// Gray images are spread over the three channels.
    public static func crop(
        _ image: ImageBuffer, region: PoseRegion, size: Int, border: Border,
        scale: Float, offset: Float, into output: UnsafeMutableBufferPointer<Float>
    ) {
        precondition(output.count >= size * size * 3, "output holds fewer than \(size)×\(size)×3 floats")
        let c = cos(region.rotation), s = sin(region.rotation)
        let step = region.side / Float(size)
        // Source position of output pixel (i, j)'s centre: origin + i·du + j·dv,
        // minus half a pixel because pixel centres sit at integer + 0.5.
        let du = PosePoint(x: c * step, y: s * step)
        let dv = PosePoint(x: -s * step, y: c * step)
        let first = region.imagePoint(u: -0.5 + 0.5 / Float(size), v: -0.5 + 0.5 / Float(size))
        let source = Source(image: image, border: border, scale: scale, offset: offset)

        image.pixels.withUnsafeBufferPointer { pixels in
            let src = pixels.baseAddress!
            for j in 0..<size {
                let row = Row(x: first.x + Float(j) * dv.x - 0.5, y: first.y + Float(j) * dv.y - 0.5,
                              dx: du.x, dy: du.y, output: output.baseAddress! + j * size * 3)
                guard source.bytesPerPixel == 3 else {
                    row.general(0..<size, source, src)
                    continue
                }
                // Replicated borders blend clamped positions, which the vector
                // path can do too; a constant border needs the general path.
                let outer = { (range: Range<Int>) in
                    if source.replicate {
                        row.clampedRGB(range, source, src, count: pixels.count)
                    } else {
                        row.general(range, source, src)
                    }
                }
                let inner = row.interior(of: source, count: size)
                if inner.isEmpty {
                    outer(0..<size)
                } else {
                    outer(0..<inner.lowerBound)
                    row.interiorRGB(inner, source, src)
                    outer(inner.upperBound..<size)
                }
            }
        }
    }

    /// The image's geometry and the value mapping, for the row samplers.
    private struct Source {
        let width: Int, height: Int, stride: Int, bytesPerPixel: Int
        /// Offsets of the second and third channel: gray reads one byte three times.
        let c1: Int, c2: Int
        let replicate: Bool
        let constant: Float
        let scale: Float, offset: Float

        init(image: ImageBuffer, border: Border, scale: Float, offset: Float) {
            width = image.width
            height = image.height
            stride = image.stride
            bytesPerPixel = image.layout.bytesPerPixel
            c1 = bytesPerPixel == 3 ? 1 : 0
            c2 = bytesPerPixel == 3 ? 2 : 0
            self.scale = scale
            self.offset = offset
            switch border {
            case .replicate:
                replicate = true
                constant = 0
            case .constant(let value):
                replicate = false
                constant = Float(value) * scale + offset
            }
        }
    }

    /// One output row: sample i lies at (x + i·dx, y + i·dy) in the image,
    /// pixel centres at integers.
    private struct Row {
        let x: Float, y: Float, dx: Float, dy: Float
        let output: UnsafeMutablePointer<Float>

        /// Fixed point with 16 fractional bits: integer positions make the
        /// interior exact to decide and free of float-to-integer conversions.
        static let fractionBits = 16
        static let one = 1 << fractionBits

        static func fixed(_ value: Float) -> Int? {
            guard value.isFinite, abs(value) < 0x1p30 else { return nil }
            return Int((Double(value) * Double(one)).rounded())
        }

        /// The samples whose four neighbours, and the byte after the right
        /// neighbour (read with it), lie inside the image, in fixed point:
        /// 0 ≤ x < width − 2 and 0 ≤ y < height − 1. A contiguous run, since
        /// positions are linear in i.
        func interior(of source: Source, count: Int) -> Range<Int> {
            guard let x0 = Self.fixed(x), let y0 = Self.fixed(y), let sx = Self.fixed(dx), let sy = Self.fixed(dy)
            else { return 0..<0 }
            let xs = Self.span(start: x0, step: sx, limit: (source.width - 2) << Self.fractionBits, count: count)
            let ys = Self.span(start: y0, step: sy, limit: (source.height - 1) << Self.fractionBits, count: count)
            return xs.clamped(to: ys)
        }

        /// The i in 0..<count with 0 ≤ start + i·step < limit.
        static func span(start: Int, step: Int, limit: Int, count: Int) -> Range<Int> {
            guard limit > 0 else { return 0..<0 }
            var low: Int, high: Int
            if step == 0 {
                return start >= 0 && start < limit ? 0..<count : 0..<0
            } else if step > 0 {
                low = ceilDivide(-start, step)
                high = ceilDivide(limit - start, step)
            } else {
                low = floorDivide(start - limit, -step) + 1
                high = floorDivide(start, -step) + 1
            }
            low = min(max(low, 0), count)
            high = min(max(high, low), count)
            return low..<high
        }

        static func floorDivide(_ a: Int, _ b: Int) -> Int {
            let q = a / b
            return (a % b != 0 && a < 0) ? q - 1 : q
        }

        static func ceilDivide(_ a: Int, _ b: Int) -> Int { -floorDivide(-a, b) }

        /// Interior RGB samples (see `interior`), the hot path while tracking a
        /// person inside the frame: one pixel's three channels are blended at
        /// once in a 4-lane vector whose fourth lane spills into the next
        /// sample's first channel, written after it; so the run's last sample
        /// goes through `general`.
        func interiorRGB(_ range: Range<Int>, _ source: Source, _ src: UnsafePointer<UInt8>) {
            guard let last = range.last, let x0 = Self.fixed(x), let y0 = Self.fixed(y),
                  let stepX = Self.fixed(dx), let stepY = Self.fixed(dy) else { return }
            let raw = UnsafeRawPointer(src)
            let out = UnsafeMutableRawPointer(output)
            let stride = source.stride
            let scale = SIMD4<Float>(repeating: source.scale), offset = SIMD4<Float>(repeating: source.offset)
            let mask = Self.one - 1, unit = 1 / Float(Self.one)
            @inline(__always) func rgbx(_ p: UnsafeRawPointer) -> SIMD4<Float> {
                SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: p.loadUnaligned(as: SIMD4<UInt8>.self)))
            }
            var px = x0 &+ range.lowerBound &* stepX, py = y0 &+ range.lowerBound &* stepY
            for i in range.lowerBound..<last {
                let column = px >> Self.fractionBits, line = py >> Self.fractionBits
                let fx = SIMD4<Float>(repeating: Float(px & mask) * unit)
                let fy = SIMD4<Float>(repeating: Float(py & mask) * unit)
                let top = raw + (line &* stride &+ column &* 3), bottom = top + stride
                let a = rgbx(top), b = rgbx(top + 3), d = rgbx(bottom), e = rgbx(bottom + 3)
                let upper = a + fx * (b - a), lower = d + fx * (e - d)
                let value = (upper + fy * (lower - upper)) * scale + offset
                out.storeBytes(of: value, toByteOffset: 12 &* i, as: SIMD4<Float>.self)
                px &+= stepX
                py &+= stepY
            }
            general(last..<(last + 1), source, src)
        }

        /// RGB samples anywhere, for a replicated border: positions clamped to
        /// the image in fixed point, then blended as in `interiorRGB`; a
        /// neighbour past the last column or row is the pixel itself (its
        /// weight is zero there). Samples whose 4-byte reads would pass the
        /// end of the pixels, and the range's last sample (the vector store
        /// spills one lane), go through `general`.
        func clampedRGB(_ range: Range<Int>, _ source: Source, _ src: UnsafePointer<UInt8>, count: Int) {
            guard let last = range.last, let x0 = Self.fixed(x), let y0 = Self.fixed(y),
                  let stepX = Self.fixed(dx), let stepY = Self.fixed(dy) else {
                general(range, source, src)
                return
            }
            let raw = UnsafeRawPointer(src)
            let out = UnsafeMutableRawPointer(output)
            let stride = source.stride
            let maxX = (source.width - 1) << Self.fractionBits, maxY = (source.height - 1) << Self.fractionBits
            let lastColumn = source.width - 1, lastLine = source.height - 1
            let readable = count - 4
            let scale = SIMD4<Float>(repeating: source.scale), offset = SIMD4<Float>(repeating: source.offset)
            let mask = Self.one - 1, unit = 1 / Float(Self.one)
            @inline(__always) func rgbx(_ p: Int) -> SIMD4<Float> {
                SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: p, as: SIMD4<UInt8>.self)))
            }
            var px = x0 &+ range.lowerBound &* stepX, py = y0 &+ range.lowerBound &* stepY
            for i in range.lowerBound..<last {
                let cx = min(max(px, 0), maxX), cy = min(max(py, 0), maxY)
                px &+= stepX
                py &+= stepY
                let column = cx >> Self.fractionBits, line = cy >> Self.fractionBits
                let right = column < lastColumn ? 3 : 0, down = line < lastLine ? stride : 0
                let top = line &* stride &+ column &* 3, bottom = top &+ down
                guard bottom &+ right <= readable else {
                    general(i..<(i + 1), source, src)
                    continue
                }
                let fx = SIMD4<Float>(repeating: Float(cx & mask) * unit)
                let fy = SIMD4<Float>(repeating: Float(cy & mask) * unit)
                let a = rgbx(top), b = rgbx(top &+ right), d = rgbx(bottom), e = rgbx(bottom &+ right)
                let upper = a + fx * (b - a), lower = d + fx * (e - d)
                let value = (upper + fy * (lower - upper)) * scale + offset
                out.storeBytes(of: value, toByteOffset: 12 &* i, as: SIMD4<Float>.self)
            }
            general(last..<(last + 1), source, src)
        }

        /// Any samples, anywhere: each position is clamped to the image
        /// (replicating the edge) or, outside it, given the constant colour.
        func general(_ range: Range<Int>, _ source: Source, _ src: UnsafePointer<UInt8>) {
            let width = source.width, height = source.height, stride = source.stride, bpp = source.bytesPerPixel
            let maxX = Float(width - 1), maxY = Float(height - 1)
            for i in range {
                let x = self.x + Float(i) * dx, y = self.y + Float(i) * dy
                let o = output + 3 * i
                if !source.replicate && (x < 0 || y < 0 || x > maxX || y > maxY) {
                    o[0] = source.constant; o[1] = source.constant; o[2] = source.constant
                    continue
                }
                let cx = min(max(x, 0), maxX), cy = min(max(y, 0), maxY)
                let x0 = Int(cx), y0 = Int(cy)
                let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                let fx = cx - Float(x0), fy = cy - Float(y0)
                let p00 = src + (y0 * stride + x0 * bpp), p10 = src + (y0 * stride + x1 * bpp)
                let p01 = src + (y1 * stride + x0 * bpp), p11 = src + (y1 * stride + x1 * bpp)
                @inline(__always) func blend(_ c: Int) -> Float {
                    let upper = Float(p00[c]) + fx * (Float(p10[c]) - Float(p00[c]))
                    let lower = Float(p01[c]) + fx * (Float(p11[c]) - Float(p01[c]))
                    return (upper + fy * (lower - upper)) * source.scale + source.offset
                }
                o[0] = blend(0)
                o[1] = blend(source.c1)
                o[2] = blend(source.c2)
            }
        }
    }
}

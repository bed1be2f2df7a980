import Foundation
import PitchsideCore

/// Samples a rotated square region of an image into a model's float input
/// (NHWC, RGB), bilinearly, with each channel mapped as `value · scale + offset`.
///
/// Outside the image the border is either replicated (what the landmark model
/// was trained with; black borders hurt it) or a constant colour (the
/// detector's letterbox).
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
        let width = image.width, height = image.height
        let bpp = image.layout.bytesPerPixel
        let stride = image.stride
        let maxX = Float(width - 1), maxY = Float(height - 1)
        var constant: Float = 0
        var replicate = true
        if case .constant(let v) = border {
            constant = Float(v) * scale + offset
            replicate = false
        }
        // Channel offsets: gray reads the same byte three times.
        let c1 = bpp == 3 ? 1 : 0, c2 = bpp == 3 ? 2 : 0

        image.pixels.withUnsafeBufferPointer { pixels in
            let src = pixels.baseAddress!
            var o = 0
            for j in 0..<size {
                var x = first.x + Float(j) * dv.x - 0.5
                var y = first.y + Float(j) * dv.y - 0.5
                for _ in 0..<size {
                    defer { x += du.x; y += du.y; o += 3 }
                    if !replicate && (x < 0 || y < 0 || x > maxX || y > maxY) {
                        output[o] = constant; output[o + 1] = constant; output[o + 2] = constant
                        continue
                    }
                    // Clamping the sample position replicates the edge pixels.
                    let cx = min(max(x, 0), maxX), cy = min(max(y, 0), maxY)
                    let x0 = Int(cx), y0 = Int(cy)
                    let x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                    let fx = cx - Float(x0), fy = cy - Float(y0)
                    let w00 = (1 - fx) * (1 - fy), w10 = fx * (1 - fy), w01 = (1 - fx) * fy, w11 = fx * fy
                    let p00 = y0 * stride + x0 * bpp, p10 = y0 * stride + x1 * bpp
                    let p01 = y1 * stride + x0 * bpp, p11 = y1 * stride + x1 * bpp
                    let r = w00 * Float(src[p00]) + w10 * Float(src[p10]) + w01 * Float(src[p01]) + w11 * Float(src[p11])
                    let g = w00 * Float(src[p00 + c1]) + w10 * Float(src[p10 + c1]) + w01 * Float(src[p01 + c1]) + w11 * Float(src[p11 + c1])
                    let b = w00 * Float(src[p00 + c2]) + w10 * Float(src[p10 + c2]) + w01 * Float(src[p01 + c2]) + w11 * Float(src[p11 + c2])
                    output[o] = r * scale + offset
                    output[o + 1] = g * scale + offset
                    output[o + 2] = b * scale + offset
                }
            }
        }
    }
}

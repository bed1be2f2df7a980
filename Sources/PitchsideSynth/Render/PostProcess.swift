import Foundation
import PitchsideCore

/// The camera's nuisances applied while converting Cairo's xRGB32 to packed RGB: brightness gain,
/// a linear brightness gradient, and sensor noise from a fixed table.
struct PostProcess {
    let width: Int
    let height: Int
    let gain: Double
    let gradient: Double
    let gradientAngle: Double
    let noise: [Int16]
    static let noiseMask = (1 << 20) - 1

    init(width: Int, height: Int, nuisances: NuisanceSettings, seed: UInt64) {
        self.width = width
        self.height = height
        gain = nuisances.gain
        gradient = nuisances.gradient
        gradientAngle = radians(nuisances.gradientAngleDegrees)
        var rng = SplitMix64(seed: seed, stream: 20)
        let sigma = nuisances.noiseSigma
        if sigma > 0.05 {
            noise = (0..<(Self.noiseMask + 1)).map { _ in Int16(clamp((rng.gaussian() * sigma * 16).rounded(), -4000, 4000)) }
        } else {
            noise = []
        }
    }

    /// Converts the canvas (B, G, R, x bytes) into an RGB24 image; `frame` picks the noise.
    func apply(_ canvas: CairoCanvas, frame: Int) -> ImageBuffer {
        var image = ImageBuffer(width: width, height: height, layout: .rgb24)
        var rng = SplitMix64(seed: UInt64(frame), stream: 21)
        let start = Int(rng.next() & UInt64(Self.noiseMask))
        let gx = gradient * cos(gradientAngle) / Double(width)
        let gy = gradient * sin(gradientAngle) / Double(height)
        let src = canvas.data
        let srcStride = canvas.stride
        let hasNoise = !noise.isEmpty
        image.pixels.withUnsafeMutableBufferPointer { out in
            noise.withUnsafeBufferPointer { table in
                var n = start
                for y in 0..<height {
                    // Gain in 1/4096 steps, linear across the row.
                    let rowGain = gain * (1 + gy * (Double(y) - Double(height) / 2) - gx * Double(width) / 2)
                    var g = Int((rowGain * 4096 * 256).rounded())
                    let dg = Int((gain * gx * 4096 * 256).rounded())
                    let row = src + y * srcStride
                    var o = y * width * 3
                    for x in 0..<width {
                        let p = row + x * 4
                        let gg = g >> 8
                        var r = Int(p[2]) * gg, gr = Int(p[1]) * gg, b = Int(p[0]) * gg
                        if hasNoise {
                            r += Int(table[n & Self.noiseMask]) << 8
                            gr += Int(table[(n + 1) & Self.noiseMask]) << 8
                            b += Int(table[(n + 2) & Self.noiseMask]) << 8
                            n &+= 3
                        }
                        out[o] = UInt8(truncatingIfNeeded: min(max(r >> 12, 0), 255))
                        out[o + 1] = UInt8(truncatingIfNeeded: min(max(gr >> 12, 0), 255))
                        out[o + 2] = UInt8(truncatingIfNeeded: min(max(b >> 12, 0), 255))
                        o += 3
                        g += dg
                    }
                }
            }
        }
        return image
    }
}

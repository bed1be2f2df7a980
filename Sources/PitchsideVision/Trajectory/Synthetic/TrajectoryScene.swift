import Foundation
import PitchsideCore

/// A small synthetic scene for testing and benchmarking trajectory detection without a
/// video file: a textured gray background, antialiased squares (bags, a player) and soft
/// dark discs (shadows) moving along given paths, sensor noise and lighting flicker.
/// The true centre of every object in every frame is known.
///
/// ```swift
/// var scene = TrajectoryScene(width: 640, height: 360, seed: 1)
/// scene.noiseSigma = 6
/// let bag = scene.add(.square(size: 10, gray: 230), path: .ballistic(
///     start: 0.1, end: 1.5, x0: 80, y0: 200, vx: 320, vy: -300, ay: 600))
/// let frame = scene.frame(3)                  // VideoFrame at 30 fps
/// let centre = scene.centre(of: bag, frame: 3) // (x, y) in pixels, or nil
/// ```
public struct TrajectoryScene: Sendable {
    /// What an object looks like.
    public enum Look: Sendable {
        /// A filled, axis-aligned rectangle of the given gray.
        case rectangle(width: Double, height: Double, gray: Double)
        /// A disc that multiplies the picture by `1 − darkening`, with a soft edge `blur` pixels wide.
        case shadow(diameter: Double, darkening: Double, blur: Double)

        public static func square(size: Double, gray: Double) -> Look { .rectangle(width: size, height: size, gray: gray) }
    }

    /// Where an object is, as a function of time in seconds; nil when it is not in the picture.
    public enum Path: Sendable {
        /// x = x0 + vx·τ, y = y0 + vy·τ + ½·ay·τ², τ = t − start, for start ≤ t ≤ end.
        case ballistic(start: Double, end: Double, x0: Double, y0: Double, vx: Double, vy: Double, ay: Double)
        /// Always at (x, y).
        case fixed(x: Double, y: Double)
        /// Several paths one after the other (a bounce); the first that holds wins.
        indirect case sequence([Path])

        public static func linear(start: Double, end: Double, x0: Double, y0: Double, vx: Double, vy: Double) -> Path {
            .ballistic(start: start, end: end, x0: x0, y0: y0, vx: vx, vy: vy, ay: 0)
        }

        public func position(at t: Double) -> (x: Double, y: Double)? {
            switch self {
            case let .ballistic(start, end, x0, y0, vx, vy, ay):
                guard t >= start, t <= end else { return nil }
                let s = t - start
                return (x0 + vx * s, y0 + vy * s + 0.5 * ay * s * s)
            case let .fixed(x, y):
                return (x, y)
            case let .sequence(paths):
                for p in paths { if let q = p.position(at: t) { return q } }
                return nil
            }
        }
    }

    public struct Object: Sendable {
        public var look: Look
        public var path: Path
    }

    public let width: Int
    public let height: Int
    public var framesPerSecond: Double = 30
    /// Standard deviation of the per-pixel Gaussian noise, gray levels.
    public var noiseSigma: Double = 2
    /// Peak brightness change of the lighting flicker, gray levels (a random offset per frame).
    public var flickerAmplitude: Double = 0
    public private(set) var objects: [Object] = []
    private var background: [UInt8]
    private var noise: [Int8]
    private var seed: UInt64

    /// A scene with a textured background made from `seed`.
    public init(width: Int, height: Int, seed: UInt64) {
        self.width = width
        self.height = height
        self.seed = seed
        var rng = SceneRandom(seed: seed)
        // Texture: a gradient, a few gentle waves and coarse random patches, in 60…180.
        var patches = [Double](repeating: 0, count: 64 * 64)
        for i in patches.indices { patches[i] = rng.uniform() * 30 - 15 }
        let k1 = 0.01 + rng.uniform() * 0.03, k2 = 0.02 + rng.uniform() * 0.05, phase = rng.uniform() * 6.28
        var bg = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                let fx = Double(x), fy = Double(y)
                var v = 100 + 40 * fy / Double(height)
                v += 12 * sin(k1 * fx + phase) + 8 * sin(k2 * fy + 0.5 * k1 * fx)
                v += patches[(y * 64 / height) * 64 + (x * 64 / width)]
                v += Double((x * 7 + y * 13) % 5) - 2
                bg[y * width + x] = UInt8(min(max(v, 0), 255))
            }
        }
        background = bg
        var table = [Int8](repeating: 0, count: 1 << 20)
        for i in table.indices { table[i] = Int8(min(max((rng.gaussian() * 16).rounded(), -127), 127)) }
        noise = table
    }

    /// Adds an object drawn over the ones added before; returns its index.
    @discardableResult
    public mutating func add(_ look: Look, path: Path) -> Int {
        objects.append(Object(look: look, path: path))
        return objects.count - 1
    }

    /// Centre of object `index` in frame `frame`, continuous pixel coordinates.
    public func centre(of index: Int, frame: Int) -> (x: Double, y: Double)? {
        objects[index].path.position(at: Double(frame) / framesPerSecond)
    }

    /// Media time of frame `index`, microseconds.
    public func ptsUs(_ index: Int) -> Int64 { Int64((Double(index) * 1e6 / framesPerSecond).rounded()) }

    /// Frame `index` as the analysers receive it.
    public func frame(_ index: Int) -> VideoFrame {
        VideoFrame(seq: UInt64(index), ptsUs: ptsUs(index), image: image(index))
    }

    /// The picture of frame `index` (GRAY8).
    public func image(_ index: Int) -> ImageBuffer {
        var pixels = background
        let t = Double(index) / framesPerSecond
        for object in objects {
            guard let c = object.path.position(at: t) else { continue }
            switch object.look {
            case let .rectangle(w, h, gray):
                drawRectangle(&pixels, cx: c.x, cy: c.y, w: w, h: h, gray: gray)
            case let .shadow(d, darkening, blur):
                drawShadow(&pixels, cx: c.x, cy: c.y, diameter: d, darkening: darkening, blur: blur)
            }
        }
        var rng = SceneRandom(seed: seed &+ UInt64(index) &* 0x9E37_79B9)
        let offset = Int(rng.next() % UInt64(noise.count))
        let flicker = flickerAmplitude > 0 ? Int(((rng.uniform() * 2 - 1) * flickerAmplitude).rounded()) : 0
        let scale = Int((noiseSigma / 16 * 256).rounded())
        let mask = noise.count - 1
        let count = pixels.count
        pixels.withUnsafeMutableBufferPointer { p in
            noise.withUnsafeBufferPointer { n in
                for i in 0..<count {
                    let v = Int(p[i]) &+ flicker &+ ((Int(n[(i &+ offset) & mask]) &* scale) >> 8)
                    p[i] = UInt8(clamping: v)
                }
            }
        }
        return try! ImageBuffer(width: width, height: height, layout: .gray8, pixels: pixels)
    }

    private func drawRectangle(_ p: inout [UInt8], cx: Double, cy: Double, w: Double, h: Double, gray: Double) {
        let left = cx - w / 2, right = cx + w / 2, top = cy - h / 2, bottom = cy + h / 2
        let x0 = max(0, Int(left.rounded(.down))), x1 = min(width - 1, Int(right.rounded(.down)))
        let y0 = max(0, Int(top.rounded(.down))), y1 = min(height - 1, Int(bottom.rounded(.down)))
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            let cover = min(Double(y + 1), bottom) - max(Double(y), top)
            guard cover > 0 else { continue }
            for x in x0...x1 {
                let a = cover * (min(Double(x + 1), right) - max(Double(x), left))
                guard a > 0 else { continue }
                let i = y * width + x
                p[i] = UInt8(min(max(Double(p[i]) * (1 - a) + gray * a, 0), 255).rounded())
            }
        }
    }

    private func drawShadow(_ p: inout [UInt8], cx: Double, cy: Double, diameter: Double, darkening: Double, blur: Double) {
        let r = diameter / 2, reach = r + blur / 2 + 1
        let x0 = max(0, Int(cx - reach)), x1 = min(width - 1, Int(cx + reach))
        let y0 = max(0, Int(cy - reach)), y1 = min(height - 1, Int(cy + reach))
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            for x in x0...x1 {
                let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                let dist = (dx * dx + dy * dy).squareRoot()
                let a = min(max((r + blur / 2 - dist) / max(blur, 1), 0), 1)
                guard a > 0 else { continue }
                let i = y * width + x
                p[i] = UInt8(min(max(Double(p[i]) * (1 - a * darkening), 0), 255).rounded())
            }
        }
    }
}

/// SplitMix64 with uniform and Gaussian draws: reproducible scenes from a seed.
struct SceneRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x1234_5678 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func uniform() -> Double { Double(next() >> 11) / Double(1 << 53) }

    mutating func gaussian() -> Double {
        let u1 = max(uniform(), 1e-12), u2 = uniform()
        return (-2 * log(u1)).squareRoot() * cos(6.283185307179586 * u2)
    }
}


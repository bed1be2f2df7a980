/// Colour as opponent chroma plus luma, so that shading and white trim (which change mostly
/// brightness) count for little and a bag's hue counts for much.
struct ColourFeature {
    var rg: Double
    var yb: Double
    var luma: Double

    init(_ r: Int, _ g: Int, _ b: Int) {
        rg = Double(r - g)
        yb = Double(r + g) / 2 - Double(b)
        luma = Double(r + g + b) / 3
    }

    init(_ colour: RGBColour) {
        self.init(Int(colour.r), Int(colour.g), Int(colour.b))
    }

    init(rg: Double, yb: Double, luma: Double) {
        self.rg = rg
        self.yb = yb
        self.luma = luma
    }

    func distance(to o: ColourFeature) -> Double {
        chromaDistance(to: o) + 0.25 * abs(luma - o.luma)
    }

    /// How far apart the two hues are, whatever their brightness.
    func chromaDistance(to o: ColourFeature) -> Double {
        let a = rg - o.rg, b = yb - o.yb
        return (a * a + b * b).squareRoot()
    }

    /// `self` read as `paint` in shade: its brightness as a share of the paint's, and how far its
    /// chroma lies from the paint's scaled by that share (shade dims chroma with brightness, so a
    /// shaded surface keeps a small `chromaOff` and a different colour does not).
    func asShade(of paint: ColourFeature) -> (share: Double, chromaOff: Double) {
        let k = luma / max(1, paint.luma)
        let a = rg - k * paint.rg, b = yb - k * paint.yb
        return (k, (a * a + b * b).squareRoot())
    }

    /// Each component's median over `samples` (the upper one of an even count; zeros when there
    /// are none): a surface's colour among a few strays.
    static func median(of samples: [ColourFeature]) -> ColourFeature {
        func median(_ v: [Double]) -> Double {
            let s = v.sorted()
            return s.isEmpty ? 0 : s[s.count / 2]
        }
        return ColourFeature(rg: median(samples.map(\.rg)), yb: median(samples.map(\.yb)), luma: median(samples.map(\.luma)))
    }
}

/// A few colour clusters (k-means) describing the ground around the board.
struct ColourClusters {
    var centres: [ColourFeature]

    init(samples: [ColourFeature], k: Int, minimumShare: Double = 0.1) {
        guard !samples.isEmpty else { centres = []; return }
        var centres = (0..<k).map { samples[($0 * samples.count) / k] }
        var counts = [Int](repeating: 0, count: k)
        var sums = [(Double, Double, Double)](repeating: (0, 0, 0), count: k)
        // Up to eight rounds of Lloyd's k-means; the loops run over raw buffers since this
        // runs on every frame the census looks at (thousands of samples).
        for _ in 0..<8 {
            for i in 0..<k { sums[i] = (0, 0, 0); counts[i] = 0 }
            samples.withUnsafeBufferPointer { all in
                centres.withUnsafeBufferPointer { c in
                    sums.withUnsafeMutableBufferPointer { sums in
                        counts.withUnsafeMutableBufferPointer { counts in
                            for s in all {
                                var best = 0, bestD = Double.infinity
                                for i in 0..<c.count {
                                    let d = s.distance(to: c[i])
                                    if d < bestD { bestD = d; best = i }
                                }
                                sums[best].0 += s.rg; sums[best].1 += s.yb; sums[best].2 += s.luma
                                counts[best] += 1
                            }
                        }
                    }
                }
            }
            var moved = false
            for i in 0..<k where counts[i] > 0 {
                let n = Double(counts[i])
                let c = ColourFeature(rg: sums[i].0 / n, yb: sums[i].1 / n, luma: sums[i].2 / n)
                if c.rg != centres[i].rg || c.yb != centres[i].yb || c.luma != centres[i].luma { moved = true }
                centres[i] = c
            }
            // Same centres, same assignment: the remaining rounds would change nothing.
            if !moved { break }
        }
        let total = Double(samples.count)
        self.centres = zip(centres, counts).filter { Double($0.1) / total >= minimumShare }.map(\.0)
    }

    /// Distance to the nearest centre (infinity when there is none). A plain loop: it runs for
    /// every pixel around the board and every ground sample, where building an array per call
    /// cost an allocation each.
    func distance(to f: ColourFeature) -> Double {
        var nearest = Double.infinity
        for c in centres { nearest = min(nearest, c.distance(to: f)) }
        return nearest
    }
}

/// Per-row loops over 8-bit planes (luma, chroma), written as plain scalar loops with wrapping
/// arithmetic on raw pointers so that the optimizer turns them into vector code
/// (the standard library's SIMD types compile to lane-by-lane loops here).
enum PlaneKernels {
    /// Box-averages a plane by `factor` (1, 2 or 4) in each direction into `dst`
    /// (`outWidth` × `outHeight`, rows `dstStride` apart). `scratch` holds at least
    /// `outWidth × factor` + 4 values. Returns the sum of the output.
    ///
    /// Each output row is a vertical sum of `factor` rows into `scratch` (contiguous 16-bit
    /// adds), then horizontal sums of neighbouring lanes read as one wider integer, so
    /// neither loop needs strided loads.
    static func downsample(
        src: UnsafePointer<UInt8>, srcStride: Int, factor: Int,
        dst: UnsafeMutablePointer<UInt8>, dstStride: Int, outWidth: Int, outHeight: Int,
        scratch: UnsafeMutablePointer<UInt16>
    ) -> UInt64 {
        var total: UInt64 = 0
        let inWidth = outWidth &* factor
        for y in 0..<outHeight {
            let out = dst + y &* dstStride
            let row = src + y &* factor &* srcStride
            switch factor {
            case 1:
                total &+= copyRow(row, out, outWidth)
            case 2:
                sumRows2(row, row + srcStride, scratch, inWidth)
                total &+= UnsafeRawPointer(scratch).withMemoryRebound(to: UInt32.self, capacity: outWidth) {
                    pairs($0, out, outWidth)
                }
            default:
                sumRows4(row, srcStride, scratch, inWidth)
                total &+= UnsafeRawPointer(scratch).withMemoryRebound(to: UInt64.self, capacity: outWidth) {
                    quads($0, out, outWidth)
                }
            }
        }
        return total
    }

    @inline(__always)
    private static func copyRow(_ s: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ n: Int) -> UInt64 {
        var sum: UInt32 = 0
        for x in 0..<n {
            let v = s[x]
            d[x] = v
            sum &+= UInt32(v)
        }
        return UInt64(sum)
    }

    @inline(__always)
    private static func sumRows2(_ r0: UnsafePointer<UInt8>, _ r1: UnsafePointer<UInt8>, _ s: UnsafeMutablePointer<UInt16>, _ n: Int) {
        for x in 0..<n { s[x] = UInt16(r0[x]) &+ UInt16(r1[x]) }
    }

    @inline(__always)
    private static func sumRows4(_ r0: UnsafePointer<UInt8>, _ stride: Int, _ s: UnsafeMutablePointer<UInt16>, _ n: Int) {
        let r1 = r0 + stride, r2 = r1 + stride, r3 = r2 + stride
        for x in 0..<n { s[x] = UInt16(r0[x]) &+ UInt16(r1[x]) &+ UInt16(r2[x]) &+ UInt16(r3[x]) }
    }

    /// Output x = (lane 2x + lane 2x+1 + 2) / 4, the two 16-bit lanes read as one 32-bit value.
    @inline(__always)
    private static func pairs(_ s: UnsafePointer<UInt32>, _ d: UnsafeMutablePointer<UInt8>, _ n: Int) -> UInt64 {
        var sum: UInt32 = 0
        for x in 0..<n {
            let v = s[x]
            let t = ((v & 0xFFFF) &+ (v &>> 16) &+ 2) &>> 2
            d[x] = UInt8(truncatingIfNeeded: t)
            sum &+= t
        }
        return UInt64(sum)
    }

    /// Output x = (sum of four 16-bit lanes + 8) / 16, the lanes read as one 64-bit value.
    @inline(__always)
    private static func quads(_ s: UnsafePointer<UInt64>, _ d: UnsafeMutablePointer<UInt8>, _ n: Int) -> UInt64 {
        var sum: UInt64 = 0
        for x in 0..<n {
            let v = s[x]
            let t = ((v & 0xFFFF) &+ ((v &>> 16) & 0xFFFF) &+ ((v &>> 32) & 0xFFFF) &+ (v &>> 48) &+ 8) &>> 4
            d[x] = UInt8(truncatingIfNeeded: t)
            sum &+= t
        }
        return sum
    }

    /// Width of the blocks whose "anything set?" flag `motionRow` reports.
    static let chunk = 32

    /// Marks (1) the pixels of one row whose difference from the median of three
    /// background rows, after a global brightness offset, exceeds the threshold; writes 0
    /// elsewhere. The offset is folded into two one-sided thresholds: a pixel is marked when
    /// current − background > `above` or background − current > `below`. Calls
    /// `hot(start, length)` for every block of `chunk` pixels that holds a mark, so
    /// labelling can skip the empty ones.
    @inline(__always)
    static func motionRow(
        current: UnsafePointer<UInt8>, h1: UnsafePointer<UInt8>, h2: UnsafePointer<UInt8>, h3: UnsafePointer<UInt8>,
        mask: UnsafeMutablePointer<UInt8>, from x0: Int, to x1: Int,
        above: UInt8, below: UInt8, hot: (Int, Int) -> Void
    ) {
        if above == below {
            symmetricRow(current: current, h1: h1, h2: h2, h3: h3, mask: mask, from: x0, to: x1, threshold: above, hot: hot)
            return
        }
        var x = x0
        while x < x1 {
            let end = min(x &+ chunk, x1)
            var any: UInt8 = 0
            for i in x..<end {
                let med = median(h1[i], h2[i], h3[i]), c = current[i]
                let up = c > med ? c &- med : 0
                let down = med > c ? med &- c : 0
                let m: UInt8 = (up > above ? 1 : 0) | (down > below ? 1 : 0)
                mask[i] = m
                any |= m
            }
            if any != 0 { hot(x, end &- x) }
            x = end
        }
    }

    /// `motionRow` without a brightness offset (the common case): one threshold on |difference|.
    @inline(__always)
    private static func symmetricRow(
        current: UnsafePointer<UInt8>, h1: UnsafePointer<UInt8>, h2: UnsafePointer<UInt8>, h3: UnsafePointer<UInt8>,
        mask: UnsafeMutablePointer<UInt8>, from x0: Int, to x1: Int, threshold t: UInt8, hot: (Int, Int) -> Void
    ) {
        var x = x0
        while x &+ chunk <= x1 {
            var any: UInt8 = 0
            for j in 0..<chunk {
                let i = x &+ j
                let m: UInt8 = absDiff(current[i], median(h1[i], h2[i], h3[i])) > t ? 1 : 0
                mask[i] = m
                any |= m
            }
            if any != 0 { hot(x, chunk) }
            x &+= chunk
        }
        if x < x1 {
            var any: UInt8 = 0
            for i in x..<x1 {
                let m: UInt8 = absDiff(current[i], median(h1[i], h2[i], h3[i])) > t ? 1 : 0
                mask[i] = m
                any |= m
            }
            if any != 0 { hot(x, x1 &- x) }
        }
    }

    /// Nearest-neighbour doubling of a plane in each direction into `dst` (`outWidth` ×
    /// `outHeight`, rows `dstStride` apart): chroma brought to the search grid when the search
    /// runs at full resolution. Returns the sum of the output.
    static func upsample2(
        src: UnsafePointer<UInt8>, srcStride: Int,
        dst: UnsafeMutablePointer<UInt8>, dstStride: Int, outWidth: Int, outHeight: Int
    ) -> UInt64 {
        var total: UInt64 = 0
        let half = outWidth / 2
        for y in 0..<outHeight {
            let s = src + (y &>> 1) &* srcStride
            let d = dst + y &* dstStride
            var sum: UInt32 = 0
            // Each source byte written twice: one 16-bit store per pair.
            UnsafeMutableRawPointer(d).withMemoryRebound(to: UInt16.self, capacity: half) { d16 in
                for x in 0..<half {
                    let v = UInt16(s[x])
                    d16[x] = v | (v &<< 8)
                    sum &+= UInt32(v) &* 2
                }
            }
            if outWidth & 1 != 0 { d[outWidth - 1] = s[half]; sum &+= UInt32(s[half]) }
            total &+= UInt64(sum)
        }
        return total
    }

    /// `motionRow` for colour: a pixel is marked when its luma moves as `motionRow` says
    /// (`above` / `below`, the brightness offset folded in), or its U or V differs from the
    /// median of its three background values by more than `uThreshold` / `vThreshold`. The
    /// planes share one layout (the search grid).
    @inline(__always)
    static func colourMotionRow(
        current: UnsafePointer<UInt8>, h1: UnsafePointer<UInt8>, h2: UnsafePointer<UInt8>, h3: UnsafePointer<UInt8>,
        u: UnsafePointer<UInt8>, u1: UnsafePointer<UInt8>, u2: UnsafePointer<UInt8>, u3: UnsafePointer<UInt8>,
        v: UnsafePointer<UInt8>, v1: UnsafePointer<UInt8>, v2: UnsafePointer<UInt8>, v3: UnsafePointer<UInt8>,
        mask: UnsafeMutablePointer<UInt8>, from x0: Int, to x1: Int,
        above: UInt8, below: UInt8, uThreshold: UInt8, vThreshold: UInt8, hot: (Int, Int) -> Void
    ) {
        var x = x0
        while x < x1 {
            let end = min(x &+ chunk, x1)
            var any: UInt8 = 0
            for i in x..<end {
                let med = median(h1[i], h2[i], h3[i]), c = current[i]
                let up = c > med ? c &- med : 0
                let down = med > c ? med &- c : 0
                let du = absDiff(u[i], median(u1[i], u2[i], u3[i]))
                let dv = absDiff(v[i], median(v1[i], v2[i], v3[i]))
                let m: UInt8 = (up > above ? 1 : 0) | (down > below ? 1 : 0) | (du > uThreshold ? 1 : 0) | (dv > vThreshold ? 1 : 0)
                mask[i] = m
                any |= m
            }
            if any != 0 { hot(x, end &- x) }
            x = end
        }
    }

    @inline(__always)
    static func median(_ a: UInt8, _ b: UInt8, _ e: UInt8) -> UInt8 { max(min(a, b), min(max(a, b), e)) }

    /// Median of three, shifted by the global brightness offset (saturating).
    @inline(__always)
    static func background(_ a: UInt8, _ b: UInt8, _ e: UInt8, _ raise: UInt8, _ lower: UInt8) -> UInt8 {
        let med = median(a, b, e)
        let up = med &+ raise
        let raised = up < med ? 255 : up
        return raised > lower ? raised &- lower : 0
    }

    @inline(__always)
    static func absDiff(_ a: UInt8, _ b: UInt8) -> UInt8 { max(a, b) &- min(a, b) }

    /// Sum of min(|current − background|, cap) over one row: the noise estimate's input.
    static func clippedDifferenceSum(
        current: UnsafePointer<UInt8>, h1: UnsafePointer<UInt8>, h2: UnsafePointer<UInt8>, h3: UnsafePointer<UInt8>,
        from x0: Int, to x1: Int, raise: UInt8, lower: UInt8, cap: UInt8
    ) -> UInt64 {
        var sum: UInt32 = 0
        for x in x0..<x1 {
            let d = absDiff(current[x], background(h1[x], h2[x], h3[x], raise, lower))
            sum &+= UInt32(min(d, cap))
        }
        return UInt64(sum)
    }
}

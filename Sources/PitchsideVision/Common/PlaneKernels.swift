/// Per-row loops over GRAY8 planes, written as plain scalar loops with wrapping
/// arithmetic on raw pointers so that the optimizer turns them into vector code
/// (the standard library's SIMD types compile to lane-by-lane loops here).
enum PlaneKernels {
    /// Box-averages a plane by `factor` (1, 2 or 4) in each direction into `dst`
    /// (`outWidth` × `outHeight`, rows `dstStride` apart). Returns the sum of the output.
    static func downsample(
        src: UnsafePointer<UInt8>, srcStride: Int, factor: Int,
        dst: UnsafeMutablePointer<UInt8>, dstStride: Int, outWidth: Int, outHeight: Int
    ) -> UInt64 {
        var total: UInt64 = 0
        for y in 0..<outHeight {
            let out = dst + y &* dstStride
            let row = src + y &* factor &* srcStride
            switch factor {
            case 1: total &+= copyRow(row, out, outWidth)
            case 2: total &+= reduceRow2(row, row + srcStride, out, outWidth)
            default: total &+= reduceRow4(row, srcStride, out, outWidth)
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
    private static func reduceRow2(
        _ r0: UnsafePointer<UInt8>, _ r1: UnsafePointer<UInt8>, _ d: UnsafeMutablePointer<UInt8>, _ n: Int
    ) -> UInt64 {
        var sum: UInt32 = 0
        for x in 0..<n {
            let i = x &* 2
            let s = UInt16(r0[i]) &+ UInt16(r0[i &+ 1]) &+ UInt16(r1[i]) &+ UInt16(r1[i &+ 1]) &+ 2
            let v = UInt8(truncatingIfNeeded: s &>> 2)
            d[x] = v
            sum &+= UInt32(v)
        }
        return UInt64(sum)
    }

    @inline(__always)
    private static func reduceRow4(
        _ r0: UnsafePointer<UInt8>, _ stride: Int, _ d: UnsafeMutablePointer<UInt8>, _ n: Int
    ) -> UInt64 {
        let r1 = r0 + stride, r2 = r1 + stride, r3 = r2 + stride
        var sum: UInt32 = 0
        for x in 0..<n {
            let i = x &* 4
            var s = UInt16(r0[i]) &+ UInt16(r0[i &+ 1]) &+ UInt16(r0[i &+ 2]) &+ UInt16(r0[i &+ 3])
            s &+= UInt16(r1[i]) &+ UInt16(r1[i &+ 1]) &+ UInt16(r1[i &+ 2]) &+ UInt16(r1[i &+ 3])
            s &+= UInt16(r2[i]) &+ UInt16(r2[i &+ 1]) &+ UInt16(r2[i &+ 2]) &+ UInt16(r2[i &+ 3])
            s &+= UInt16(r3[i]) &+ UInt16(r3[i &+ 1]) &+ UInt16(r3[i &+ 2]) &+ UInt16(r3[i &+ 3])
            let v = UInt8(truncatingIfNeeded: (s &+ 8) &>> 4)
            d[x] = v
            sum &+= UInt32(v)
        }
        return UInt64(sum)
    }

    /// Width of the blocks whose "anything set?" flag `motionRow` reports.
    static let chunk = 32

    /// Marks (1) the pixels of one row whose difference from the median of three
    /// background rows, after a global brightness offset (`raise` − `lower`), exceeds
    /// `threshold`; writes 0 elsewhere. Calls `hot(start, length)` for every block of
    /// `chunk` pixels that holds a mark, so labelling can skip the empty ones.
    @inline(__always)
    static func motionRow(
        current: UnsafePointer<UInt8>, h1: UnsafePointer<UInt8>, h2: UnsafePointer<UInt8>, h3: UnsafePointer<UInt8>,
        mask: UnsafeMutablePointer<UInt8>, from x0: Int, to x1: Int,
        raise: UInt8, lower: UInt8, threshold: UInt8, hot: (Int, Int) -> Void
    ) {
        var x = x0
        while x < x1 {
            let n = min(chunk, x1 &- x)
            var any: UInt8 = 0
            if n == chunk {
                for j in 0..<chunk {
                    let m = mark(current[x &+ j], h1[x &+ j], h2[x &+ j], h3[x &+ j], raise, lower, threshold)
                    mask[x &+ j] = m
                    any |= m
                }
            } else {
                for j in 0..<n {
                    let m = mark(current[x &+ j], h1[x &+ j], h2[x &+ j], h3[x &+ j], raise, lower, threshold)
                    mask[x &+ j] = m
                    any |= m
                }
            }
            if any != 0 { hot(x, n) }
            x &+= n
        }
    }

    @inline(__always)
    private static func mark(
        _ c: UInt8, _ a: UInt8, _ b: UInt8, _ e: UInt8, _ raise: UInt8, _ lower: UInt8, _ t: UInt8
    ) -> UInt8 {
        let d = absDiff(c, background(a, b, e, raise, lower))
        return d > t ? 1 : 0
    }

    /// Median of three, shifted by the global brightness offset (saturating).
    @inline(__always)
    static func background(_ a: UInt8, _ b: UInt8, _ e: UInt8, _ raise: UInt8, _ lower: UInt8) -> UInt8 {
        let med = max(min(a, b), min(max(a, b), e))
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

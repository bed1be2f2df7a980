/// One 8-connected region of a binary mask, in mask cells.
struct MaskComponent: Equatable {
    var area: Int
    var minX: Int, minY: Int, maxX: Int, maxY: Int
    var sumX: Int, sumY: Int

    var width: Int { maxX - minX + 1 }
    var height: Int { maxY - minY + 1 }
}

/// Connected components of a sparse mask (1 = set), found by flood fill starting
/// only in the blocks a mask pass reported as holding marks. Visited cells are
/// set to 2, so the mask must be rewritten before it is labelled again.
///
/// Buffers are kept between calls: labelling a frame allocates nothing once the
/// first frames have sized them.
struct SparseComponents {
    private var stack: [Int32] = []
    private(set) var components: [MaskComponent] = []

    init() {
        stack.reserveCapacity(4096)
        components.reserveCapacity(64)
    }

    /// Labels the components of `mask` (rows `stride` apart) that start in `spans`
    /// (offsets into the mask and lengths), staying inside the cell rectangle
    /// [x0, x1) × [y0, y1).
    mutating func label(
        mask: UnsafeMutablePointer<UInt8>, stride: Int,
        x0: Int, y0: Int, x1: Int, y1: Int, spans: UnsafeBufferPointer<Int32>
    ) {
        components.removeAll(keepingCapacity: true)
        var s = 0
        while s + 1 < spans.count {
            let start = Int(spans[s]), length = Int(spans[s + 1])
            s += 2
            for i in start..<(start + length) where mask[i] == 1 {
                components.append(fill(mask: mask, stride: stride, seed: i, x0: x0, y0: y0, x1: x1, y1: y1))
            }
        }
    }

    private mutating func fill(
        mask: UnsafeMutablePointer<UInt8>, stride: Int, seed: Int, x0: Int, y0: Int, x1: Int, y1: Int
    ) -> MaskComponent {
        let sy = seed / stride, sx = seed - sy * stride
        var c = MaskComponent(area: 0, minX: sx, minY: sy, maxX: sx, maxY: sy, sumX: 0, sumY: 0)
        stack.removeAll(keepingCapacity: true)
        stack.append(Int32(seed))
        mask[seed] = 2
        while let top = stack.popLast() {
            let i = Int(top)
            let y = i / stride, x = i - y * stride
            c.area += 1
            c.sumX += x
            c.sumY += y
            if x < c.minX { c.minX = x }
            if x > c.maxX { c.maxX = x }
            if y < c.minY { c.minY = y }
            if y > c.maxY { c.maxY = y }
            let left = x > x0, right = x + 1 < x1
            if y > y0 {
                let r = i - stride
                if left, mask[r - 1] == 1 { mask[r - 1] = 2; stack.append(Int32(r - 1)) }
                if mask[r] == 1 { mask[r] = 2; stack.append(Int32(r)) }
                if right, mask[r + 1] == 1 { mask[r + 1] = 2; stack.append(Int32(r + 1)) }
            }
            if left, mask[i - 1] == 1 { mask[i - 1] = 2; stack.append(Int32(i - 1)) }
            if right, mask[i + 1] == 1 { mask[i + 1] = 2; stack.append(Int32(i + 1)) }
            if y + 1 < y1 {
                let r = i + stride
                if left, mask[r - 1] == 1 { mask[r - 1] = 2; stack.append(Int32(r - 1)) }
                if mask[r] == 1 { mask[r] = 2; stack.append(Int32(r)) }
                if right, mask[r + 1] == 1 { mask[r + 1] = 2; stack.append(Int32(r + 1)) }
            }
        }
        return c
    }
}

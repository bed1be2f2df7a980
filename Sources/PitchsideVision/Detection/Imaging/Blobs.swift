/// Connected components (8-connected) of a binary mask.
enum Blobs {
    /// The pixel indices of each component.
    static func label(_ mask: [UInt8], width w: Int, height h: Int) -> [[Int]] {
        var seen = [Bool](repeating: false, count: w * h)
        var out: [[Int]] = []
        var stack: [Int] = []
        for start in 0..<(w * h) where mask[start] != 0 && !seen[start] {
            var blob: [Int] = []
            seen[start] = true
            stack.append(start)
            while let p = stack.popLast() {
                blob.append(p)
                let x = p % w, y = p / w
                for dy in -1...1 {
                    let yy = y + dy
                    guard yy >= 0, yy < h else { continue }
                    for dx in -1...1 {
                        let xx = x + dx
                        guard xx >= 0, xx < w else { continue }
                        let q = yy * w + xx
                        if mask[q] != 0 && !seen[q] { seen[q] = true; stack.append(q) }
                    }
                }
            }
            out.append(blob)
        }
        return out
    }

    /// Hysteresis: every `weak` pixel joined (8-connected, through other weak ones) to a `strong`
    /// one becomes `strong`; the weak pixels left become 0.
    static func grow(_ mask: inout [UInt8], width w: Int, height h: Int, from strong: UInt8, into weak: UInt8) {
        var stack: [Int] = []
        for i in 0..<(w * h) where mask[i] == strong { stack.append(i) }
        while let p = stack.popLast() {
            let x = p % w, y = p / w
            for yy in max(0, y - 1)...min(h - 1, y + 1) {
                for xx in max(0, x - 1)...min(w - 1, x + 1) where mask[yy * w + xx] == weak {
                    mask[yy * w + xx] = strong
                    stack.append(yy * w + xx)
                }
            }
        }
        for i in 0..<(w * h) where mask[i] == weak { mask[i] = 0 }
    }
}

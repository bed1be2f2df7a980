import PitchsideCore

/// A moving object found in one frame, in full-resolution pixels.
struct MotionBlob: Equatable {
    /// Centroid, continuous pixel coordinates (pixel i covers [i, i + 1)).
    var x: Double
    var y: Double
    /// Diameter of the disc with the same area, pixels.
    var diameter: Double
}

/// Finds moving objects in a stream of GRAY8 or YUV420P frames: the pixel half of the
/// trajectory detector.
///
/// Each frame is box-averaged to a search resolution and compared with a background,
/// the per-pixel median of three recent frames (so an object in flight, which is in at
/// most one of them, never leaves a ghost, and anything at rest for a few frames
/// vanishes). The threshold follows the measured noise; a global brightness change
/// is removed as an offset. Connected regions of the search mask are filtered by size
/// and region of interest, and their centroids are measured again at full resolution.
///
/// YUV420P frames are searched in colour too: U and V, brought to the search grid, are
/// differenced the same way, each with a threshold that follows its own noise, and a pixel
/// moves when any of the three planes says so. A red bag over brown ground can have the
/// ground's luma exactly; its chroma differs by tens of levels. The full-resolution centroid
/// weighs each pixel by the strongest of its luma and chroma (at chroma resolution) changes.
final class MotionSegmenter {
    private(set) var width = 0
    private(set) var height = 0
    private(set) var factor = 1
    private var searchWidth = 0, searchHeight = 0, searchStride = 0
    private var ringCount = 0
    private var planes: UnsafeMutablePointer<UInt8>? = nil
    /// Whether the frames are YUV420P (searched in colour too).
    private(set) var colour = false
    /// U and V of each ring slot on the search grid: slot k's U at 2k × plane size, V after it.
    private var chromaPlanes: UnsafeMutablePointer<UInt8>? = nil
    /// Noise σ of the U and V search-grid differences, chroma levels.
    private(set) var chromaNoiseSigma = (u: 0.0, v: 0.0)
    /// Thresholds used on the last frame for U and V.
    private(set) var chromaThreshold = (u: 0, v: 0)
    private var planeMeans: [Double] = []
    private var fullFrames: [[UInt8]] = []
    private var fullStrides: [Int] = []
    private var mask: UnsafeMutablePointer<UInt8>? = nil
    private var rowSums: UnsafeMutablePointer<UInt16>? = nil
    private var spans: [Int32] = []
    private var components = SparseComponents()
    private var allowed: [UInt8] = []
    private var chromaWeights: [Double] = []
    private var lags: [Int] = [2, 4, 6]
    private var analysed = 0
    private var lastROI: (Int, Int, Int, Int) = (0, 0, 0, 0)
    /// Noise standard deviation of the search-image difference, gray levels.
    private(set) var noiseSigma = 0.0
    /// Threshold used on the last frame, gray levels of the search image.
    private(set) var threshold = 0
    /// Frames skipped because too much of the picture changed at once.
    private(set) var globalChanges = 0
    private(set) var blobs: [MotionBlob] = []

    init() {}

    deinit { release() }

    private func release() {
        planes?.deallocate()
        chromaPlanes?.deallocate()
        chromaPlanes = nil
        mask?.deallocate()
        rowSums?.deallocate()
        planes = nil
        mask = nil
        rowSums = nil
    }

    /// An independent copy (for value semantics of the detector that owns this).
    func copy() -> MotionSegmenter {
        let other = MotionSegmenter()
        other.width = width; other.height = height; other.factor = factor
        other.searchWidth = searchWidth; other.searchHeight = searchHeight; other.searchStride = searchStride
        other.ringCount = ringCount
        other.colour = colour
        let planeBytes = searchStride * searchHeight
        if let chromaPlanes {
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * planeBytes * ringCount)
            p.update(from: chromaPlanes, count: 2 * planeBytes * ringCount)
            other.chromaPlanes = p
        }
        if let planes {
            let p = UnsafeMutablePointer<UInt8>.allocate(capacity: planeBytes * ringCount)
            p.update(from: planes, count: planeBytes * ringCount)
            other.planes = p
        }
        if let mask {
            let m = UnsafeMutablePointer<UInt8>.allocate(capacity: planeBytes)
            m.update(from: mask, count: planeBytes)
            other.mask = m
        }
        if rowSums != nil {
            other.rowSums = UnsafeMutablePointer<UInt16>.allocate(capacity: width + 8)
            other.rowSums!.initialize(repeating: 0, count: width + 8)
        }
        other.planeMeans = planeMeans; other.fullFrames = fullFrames; other.fullStrides = fullStrides
        other.lags = lags; other.analysed = analysed; other.lastROI = lastROI
        other.noiseSigma = noiseSigma; other.threshold = threshold; other.globalChanges = globalChanges
        other.chromaNoiseSigma = chromaNoiseSigma; other.chromaThreshold = chromaThreshold
        return other
    }

    /// Forgets the history (the next frames rebuild the background).
    func reset() {
        analysed = 0
        blobs.removeAll(keepingCapacity: true)
    }

    /// Search-resolution reduction for a configuration and frame width.
    static func searchFactor(_ configuration: TrajectoryConfiguration, width: Int) -> Int {
        if let s = configuration.searchScale { return s >= 4 ? 4 : (s >= 2 ? 2 : 1) }
        let minimumPixels = configuration.minimumObjectSize * Double(width)
        if minimumPixels >= 10 { return 4 }
        if minimumPixels >= 5 { return 2 }
        return 1
    }

    private func configure(width: Int, height: Int, colour: Bool, configuration: TrajectoryConfiguration) {
        release()
        self.width = width
        self.height = height
        self.colour = colour
        factor = Self.searchFactor(configuration, width: width)
        lags = Array(configuration.backgroundLags.prefix(3)).map { max($0, 1) }
        while lags.count < 3 { lags.append((lags.last ?? 1) + 2) }
        ringCount = (lags.max() ?? 6) + 1
        searchWidth = width / factor
        searchHeight = height / factor
        searchStride = (searchWidth + 31) & ~31
        let planeBytes = searchStride * searchHeight
        planes = UnsafeMutablePointer<UInt8>.allocate(capacity: planeBytes * ringCount)
        planes!.initialize(repeating: 0, count: planeBytes * ringCount)
        if colour {
            chromaPlanes = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * planeBytes * ringCount)
            chromaPlanes!.initialize(repeating: 128, count: 2 * planeBytes * ringCount)
        }
        chromaNoiseSigma = (0, 0)
        mask = UnsafeMutablePointer<UInt8>.allocate(capacity: planeBytes)
        mask!.initialize(repeating: 0, count: planeBytes)
        rowSums = UnsafeMutablePointer<UInt16>.allocate(capacity: width + 8)
        rowSums!.initialize(repeating: 0, count: width + 8)
        planeMeans = [Double](repeating: 0, count: ringCount)
        fullFrames = [[UInt8]](repeating: [], count: ringCount)
        fullStrides = [Int](repeating: 0, count: ringCount)
        analysed = 0
        lastROI = (0, 0, 0, 0)
    }

    /// Moving objects of `image` (GRAY8 or YUV420P) that pass the configuration's size and
    /// region filters. Empty while the background is being built (the first frames after a
    /// start, a reset or a change of size or pixel format).
    func segment(_ image: ImageBuffer, configuration: TrajectoryConfiguration) -> [MotionBlob] {
        precondition(image.layout != .rgb24, "the trajectory detector takes GRAY8 or YUV420P frames")
        let isColour = image.layout == .yuv420p
        let wantedFactor = Self.searchFactor(configuration, width: image.width)
        let wantedLags = Array(configuration.backgroundLags.prefix(3))
        if image.width != width || image.height != height || wantedFactor != factor || isColour != colour
            || (wantedLags.count == 3 && wantedLags.map({ max($0, 1) }) != lags) {
            configure(width: image.width, height: image.height, colour: isColour, configuration: configuration)
        }
        blobs.removeAll(keepingCapacity: true)
        let planeBytes = searchStride * searchHeight
        let slot = analysed % ringCount
        let current = planes! + slot * planeBytes
        let sum = image.pixels.withUnsafeBufferPointer { src in
            PlaneKernels.downsample(
                src: src.baseAddress!, srcStride: image.stride, factor: factor,
                dst: current, dstStride: searchStride, outWidth: searchWidth, outHeight: searchHeight,
                scratch: rowSums!)
        }
        planeMeans[slot] = Double(sum) / Double(searchWidth * searchHeight)
        if colour { chromaToSearchGrid(image, slot: slot) }
        fullFrames[slot] = image.pixels
        fullStrides[slot] = image.stride
        analysed += 1
        guard analysed > ringCount - 1 else { return blobs }

        let slots = lags.map { (analysed - 1 - $0 + ringCount * 4) % ringCount }
        let h = slots.map { planes! + $0 * planeBytes }
        let means = slots.map { planeMeans[$0] }.sorted()
        let offset = (planeMeans[slot] - means[1]).rounded()
        let raise = UInt8(clamping: Int(max(offset, 0)))
        let lower = UInt8(clamping: Int(max(-offset, 0)))

        // Region of interest in search cells.
        let roi = configuration.regionOfInterest.clamped
        let x0 = max(0, Int((roi.x * Double(width) / Double(factor)).rounded(.down)))
        let x1 = min(searchWidth, Int((roi.maxX * Double(width) / Double(factor)).rounded(.up)))
        let y0 = max(0, Int((roi.y * Double(height) / Double(factor)).rounded(.down)))
        let y1 = min(searchHeight, Int((roi.maxY * Double(height) / Double(factor)).rounded(.up)))
        guard x1 - x0 >= 3, y1 - y0 >= 3 else { return blobs }
        if lastROI != (x0, y0, x1, y1) {
            mask!.update(repeating: 0, count: planeBytes)
            lastROI = (x0, y0, x1, y1)
        }

        // Noise from every sixteenth row: mean |difference| of a Gaussian is 0.8 σ.
        var noiseSum: UInt64 = 0, noiseCount = 0
        var y = y0 + 3
        while y < y1 {
            let r = y * searchStride
            noiseSum &+= PlaneKernels.clippedDifferenceSum(
                current: current + r, h1: h[0] + r, h2: h[1] + r, h3: h[2] + r,
                from: x0, to: x1, raise: raise, lower: lower, cap: 40)
            noiseCount += x1 - x0
            y += 16
        }
        if noiseCount > 0 {
            let measured = Double(noiseSum) / Double(noiseCount) / 0.8
            noiseSigma = noiseSigma == 0 ? measured : 0.7 * noiseSigma + 0.3 * measured
        }
        func thresholdFor(_ sigma: Double) -> Int {
            min(200, max(configuration.minimumThreshold, Int((configuration.thresholdFactor * sigma).rounded(.up))))
        }
        threshold = thresholdFor(noiseSigma)
        let above = UInt8(clamping: threshold + Int(offset)), below = UInt8(clamping: threshold - Int(offset))
        // Chroma: the same noise sampling, no brightness offset.
        let u = colour ? chromaSlots(slot, slots).u : [], v = colour ? chromaSlots(slot, slots).v : []
        if colour {
            var uSum: UInt64 = 0, vSum: UInt64 = 0
            var y = y0 + 3
            while y < y1 {
                let r = y * searchStride
                uSum &+= PlaneKernels.clippedDifferenceSum(
                    current: u[0] + r, h1: u[1] + r, h2: u[2] + r, h3: u[3] + r, from: x0, to: x1, raise: 0, lower: 0, cap: 40)
                vSum &+= PlaneKernels.clippedDifferenceSum(
                    current: v[0] + r, h1: v[1] + r, h2: v[2] + r, h3: v[3] + r, from: x0, to: x1, raise: 0, lower: 0, cap: 40)
                y += 16
            }
            if noiseCount > 0 {
                let mu = Double(uSum) / Double(noiseCount) / 0.8, mv = Double(vSum) / Double(noiseCount) / 0.8
                chromaNoiseSigma = chromaNoiseSigma.u == 0 && chromaNoiseSigma.v == 0
                    ? (mu, mv) : (0.7 * chromaNoiseSigma.u + 0.3 * mu, 0.7 * chromaNoiseSigma.v + 0.3 * mv)
            }
            chromaThreshold = (thresholdFor(chromaNoiseSigma.u), thresholdFor(chromaNoiseSigma.v))
        }

        spans.removeAll(keepingCapacity: true)
        var marked = 0
        let m = mask!
        if colour {
            let tu = UInt8(chromaThreshold.u), tv = UInt8(chromaThreshold.v)
            for y in y0..<y1 {
                let r = y * searchStride
                PlaneKernels.colourMotionRow(
                    current: current + r, h1: h[0] + r, h2: h[1] + r, h3: h[2] + r,
                    u: u[0] + r, u1: u[1] + r, u2: u[2] + r, u3: u[3] + r,
                    v: v[0] + r, v1: v[1] + r, v2: v[2] + r, v3: v[3] + r,
                    mask: m + r, from: x0, to: x1, above: above, below: below, uThreshold: tu, vThreshold: tv
                ) { start, length in
                    spans.append(Int32(r + start))
                    spans.append(Int32(length))
                    marked += length
                }
            }
        } else {
            for y in y0..<y1 {
                let r = y * searchStride
                PlaneKernels.motionRow(
                    current: current + r, h1: h[0] + r, h2: h[1] + r, h3: h[2] + r, mask: m + r,
                    from: x0, to: x1, above: above, below: below
                ) { start, length in
                    spans.append(Int32(r + start))
                    spans.append(Int32(length))
                    marked += length
                }
            }
        }
        let area = (x1 - x0) * (y1 - y0)
        if Double(marked) > 2 * configuration.maximumChangedFraction * Double(area) {
            globalChanges += 1
            return blobs
        }
        spans.withUnsafeBufferPointer { s in
            components.label(mask: m, stride: searchStride, x0: x0, y0: y0, x1: x1, y1: y1, spans: s)
        }
        var changed = 0
        for c in components.components { changed += c.area }
        if Double(changed) > configuration.maximumChangedFraction * Double(area) {
            globalChanges += 1
            return blobs
        }

        let minimumPixels = configuration.minimumObjectSize * Double(width)
        let maximumPixels = configuration.maximumObjectSize * Double(width)
        let f = Double(factor)
        let minimumCells = max(2, Int(0.3 * Double.pi / 4 * (minimumPixels / f) * (minimumPixels / f)))
        for c in components.components {
            guard c.area >= minimumCells else { continue }
            // Larger than any object, even smeared by motion: a player, a shadow of a tree.
            guard Double(max(c.width, c.height)) * f <= 2.5 * maximumPixels + 2 * f else { continue }
            // Cut by the edge of the region: its centroid would be wrong.
            guard c.minX > x0, c.minY > y0, c.maxX < x1 - 1, c.maxY < y1 - 1 else { continue }
            // Elongated beyond what motion blur makes of a bag: the edge of something larger.
            guard max(c.width, c.height) <= 4 * min(c.width, c.height) + 1 else { continue }
            guard !isGhost(c, h: h, u: u, v: v, slots: slots, current: current, currentSlot: slot) else { continue }
            guard let blob = refine(c, offset: offset, slots: slots, current: slot, x0: x0, y0: y0, x1: x1, y1: y1) else { continue }
            guard blob.diameter >= minimumPixels, blob.diameter <= maximumPixels else { continue }
            guard roi.contains(x: blob.x / Double(width), y: blob.y / Double(height)) else { continue }
            blobs.append(blob)
        }
        return blobs
    }

    /// True when the current frame, over the component, looks like one of the background
    /// frames: the change is a ghost of something that left (or of a slow object's past
    /// position), not an object that is here now. In colour, a pixel's difference is the
    /// largest of its luma, U and V differences, each in units of its plane's threshold.
    private func isGhost(
        _ c: MaskComponent, h: [UnsafeMutablePointer<UInt8>], u: [UnsafeMutablePointer<UInt8>], v: [UnsafeMutablePointer<UInt8>],
        slots: [Int], current: UnsafeMutablePointer<UInt8>, currentSlot: Int
    ) -> Bool {
        let m = mask!
        var sums = [0.0, 0.0, 0.0]
        var count = 0
        let shifts = slots.map { planeMeans[currentSlot] - planeMeans[$0] }
        let inverseY = 1 / Double(max(threshold, 1))
        let inverseU = 1 / Double(max(chromaThreshold.u, 1)), inverseV = 1 / Double(max(chromaThreshold.v, 1))
        for y in c.minY...c.maxY {
            let r = y * searchStride
            for x in c.minX...c.maxX where m[r + x] == 2 {
                let value = Double(current[r + x])
                count += 1
                for k in 0..<3 {
                    var d = abs(value - Double(h[k][r + x]) - shifts[k]) * inverseY
                    if colour {
                        d = max(d, abs(Double(u[0][r + x]) - Double(u[k + 1][r + x])) * inverseU,
                                abs(Double(v[0][r + x]) - Double(v[k + 1][r + x])) * inverseV)
                    }
                    sums[k] += d
                }
            }
        }
        guard count > 0 else { return true }
        let closest = min(sums[0], sums[1], sums[2]) / Double(count)
        return closest < 0.5
    }

    /// U and V planes on the search grid: the current slot's first, then the three background
    /// slots'.
    private func chromaSlots(_ current: Int, _ slots: [Int]) -> (u: [UnsafeMutablePointer<UInt8>], v: [UnsafeMutablePointer<UInt8>]) {
        let planeBytes = searchStride * searchHeight
        let all = [current] + slots
        return (all.map { chromaPlanes! + 2 * $0 * planeBytes }, all.map { chromaPlanes! + (2 * $0 + 1) * planeBytes })
    }

    /// Writes the frame's U and V onto the search grid of ring slot `slot`: doubled when the
    /// search runs at full resolution, copied at half, box-averaged by two at a quarter.
    private func chromaToSearchGrid(_ image: ImageBuffer, slot: Int) {
        let planeBytes = searchStride * searchHeight
        let layout = image.chromaPlanes
        image.pixels.withUnsafeBufferPointer { src in
            for (k, offset) in [layout.u, layout.v].enumerated() {
                let dst = chromaPlanes! + (2 * slot + k) * planeBytes
                let plane = src.baseAddress! + offset
                if factor == 1 {
                    _ = PlaneKernels.upsample2(src: plane, srcStride: layout.stride, dst: dst, dstStride: searchStride,
                                               outWidth: searchWidth, outHeight: searchHeight)
                } else {
                    _ = PlaneKernels.downsample(src: plane, srcStride: layout.stride, factor: factor / 2, dst: dst,
                                                dstStride: searchStride, outWidth: searchWidth, outHeight: searchHeight,
                                                scratch: rowSums!)
                }
            }
        }
    }

    /// Centroid and size of a search-mask component measured on the full-resolution frames:
    /// a soft-thresholded difference from the full-resolution median background, inside the
    /// component's cells grown by one.
    private func refine(
        _ c: MaskComponent, offset: Double, slots: [Int], current: Int, x0: Int, y0: Int, x1: Int, y1: Int
    ) -> MotionBlob? {
        let m = mask!
        // Cells near the component (its own and their neighbours), within the region.
        let gx0 = c.minX - 1, gy0 = c.minY - 1
        let gw = c.width + 2, gh = c.height + 2
        if allowed.count < gw * gh { allowed = [UInt8](repeating: 0, count: gw * gh * 2) }
        for gy in 0..<gh {
            for gx in 0..<gw {
                let cx = gx0 + gx, cy = gy0 + gy
                var on: UInt8 = 0
                for ny in max(cy - 1, y0)...min(cy + 1, y1 - 1) {
                    for nx in max(cx - 1, x0)...min(cx + 1, x1 - 1) where m[ny * searchStride + nx] != 0 { on = 1 }
                }
                allowed[gy * gw + gx] = on
            }
        }
        let sigmaFull = noiseSigma * Double(factor).squareRoot()
        let tLo = max(Double(threshold) * 0.6, 3 * sigmaFull)
        let tHi = tLo + max(8, 2 * sigmaFull)
        let invRamp = 1 / (tHi - tLo)
        let fx0 = max(0, gx0 * factor), fx1 = min(width, (gx0 + gw) * factor)
        let fy0 = max(0, gy0 * factor), fy1 = min(height, (gy0 + gh) * factor)
        let stride = fullStrides[current]
        guard fullStrides[slots[0]] == stride, fullStrides[slots[1]] == stride, fullStrides[slots[2]] == stride else { return nil }
        // Chroma (YUV420P): thresholds at chroma resolution, whose noise is that of the search
        // grid times the box factor it was averaged by (2 at a quarter resolution, else 1).
        let chromaFactor = Double(max(factor / 2, 1))
        let chromaU = chromaRamp(sigma: chromaNoiseSigma.u * chromaFactor, threshold: chromaThreshold.u)
        let chromaV = chromaRamp(sigma: chromaNoiseSigma.v * chromaFactor, threshold: chromaThreshold.v)
        let uOffset = stride * height, chromaStride = stride / 2, vOffset = uOffset + chromaStride * (height / 2)
        let colour = self.colour
        var sw = 0.0, swx = 0.0, swy = 0.0          // luma and chroma
        var lw = 0.0, lwx = 0.0, lwy = 0.0          // luma alone
        fullFrames[current].withUnsafeBufferPointer { cur in
            fullFrames[slots[0]].withUnsafeBufferPointer { a in
                fullFrames[slots[1]].withUnsafeBufferPointer { b in
                    fullFrames[slots[2]].withUnsafeBufferPointer { e in
                        // Chroma weights over the crop (and a chroma pixel around it), read
                        // bilinearly at each pixel's centre below (chroma sample k centred
                        // between pixels 2k and 2k + 1) so that the centroid stays sub-pixel.
                        let cx0 = max(0, fx0 / 2 - 1), cx1 = min(width / 2, (fx1 + 1) / 2 + 1)
                        let cy0 = max(0, fy0 / 2 - 1), cy1 = min(height / 2, (fy1 + 1) / 2 + 1)
                        let cw = cx1 - cx0
                        if colour {
                            chromaWeights.removeAll(keepingCapacity: true)
                            for cy in cy0..<cy1 {
                                for cx in cx0..<cx1 {
                                    let ci = cy * chromaStride + cx
                                    let iu = uOffset + ci, iv = vOffset + ci
                                    let du = abs(Double(cur[iu]) - Double(PlaneKernels.median(a[iu], b[iu], e[iu])))
                                    let dv = abs(Double(cur[iv]) - Double(PlaneKernels.median(a[iv], b[iv], e[iv])))
                                    chromaWeights.append(max(chromaU.weight(du), chromaV.weight(dv)))
                                }
                            }
                        }
                        for y in fy0..<fy1 {
                            let gy = y / factor - gy0
                            let row = y * stride
                            var rw = 0.0, rwx = 0.0, rl = 0.0, rlx = 0.0
                            for x in fx0..<fx1 where allowed[gy * gw + x / factor - gx0] != 0 {
                                let i = row + x
                                let bg = Double(PlaneKernels.median(a[i], b[i], e[i])) + offset
                                let d = abs(Double(cur[i]) - bg)
                                var w = d > tLo ? min((d - tLo) * invRamp, 1) : 0
                                rl += w
                                rlx += w * (Double(x) + 0.5)
                                if colour, w < 1 {
                                    let (kx, fx, kx1) = Self.bilinear(Double(x) / 2 - 0.25, from: cx0, to: cx1)
                                    let (ky, fy, ky1) = Self.bilinear(Double(y) / 2 - 0.25, from: cy0, to: cy1)
                                    let r0 = (ky - cy0) * cw, r1 = (ky1 - cy0) * cw
                                    let top = chromaWeights[r0 + kx - cx0] * (1 - fx) + chromaWeights[r0 + kx1 - cx0] * fx
                                    let bottom = chromaWeights[r1 + kx - cx0] * (1 - fx) + chromaWeights[r1 + kx1 - cx0] * fx
                                    w = max(w, top * (1 - fy) + bottom * fy)
                                }
                                guard w > 0 else { continue }
                                rw += w
                                rwx += w * (Double(x) + 0.5)
                            }
                            sw += rw
                            swx += rwx
                            swy += rw * (Double(y) + 0.5)
                            lw += rl
                            lwx += rlx
                            lwy += rl * (Double(y) + 0.5)
                        }
                    }
                }
            }
        }
        // Luma measures an object it sees at least half of more sharply (full resolution, and
        // free of the chroma's 2 × 2 smear and compression halo); colour is for the rest.
        if colour, lw > 0.5, lw >= 0.5 * sw {
            return MotionBlob(x: lwx / lw, y: lwy / lw, diameter: 2 * (lw / Double.pi).squareRoot())
        }
        guard sw > 0.5 else { return nil }
        return MotionBlob(x: swx / sw, y: swy / sw, diameter: 2 * (sw / Double.pi).squareRoot())
    }

    /// The two samples around continuous index `c` within `from..<to` and the weight of the second.
    @inline(__always)
    private static func bilinear(_ c: Double, from lo: Int, to hi: Int) -> (Int, Double, Int) {
        let clamped = min(max(c, Double(lo)), Double(hi - 1))
        let k = Int(clamped)
        return (k, clamped - Double(k), min(k + 1, hi - 1))
    }

    /// The soft threshold of `refine` for one chroma plane.
    private func chromaRamp(sigma: Double, threshold: Int) -> SoftThreshold {
        let low = max(Double(threshold) * 0.6, 3 * sigma)
        return SoftThreshold(low: low, inverseRamp: 1 / max(8, 2 * sigma))
    }
}

/// Weight 0 at or below `low`, rising linearly to 1 over 1 / `inverseRamp` levels above it.
struct SoftThreshold {
    var low: Double
    var inverseRamp: Double

    @inline(__always)
    func weight(_ difference: Double) -> Double { difference > low ? min((difference - low) * inverseRamp, 1) : 0 }
}

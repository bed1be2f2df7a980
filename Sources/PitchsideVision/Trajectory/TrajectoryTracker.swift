import Foundation

/// One object followed across frames, in full-resolution pixels.
struct Track {
    var uuid: UUID
    var t: [Double] = []        // seconds since the first point
    var x: [Double] = []
    var y: [Double] = []
    var pts: [Int64] = []
    var diameterSum = 0.0
    var missed = 0
    var updated = false
    var fit = ProjectileFit()

    var count: Int { x.count }
    var meanDiameter: Double { count > 0 ? diameterSum / Double(count) : 0 }

    init(uuid: UUID, blob: MotionBlob, ptsUs: Int64) {
        self.uuid = uuid
        append(blob, ptsUs: ptsUs)
    }

    mutating func append(_ blob: MotionBlob, ptsUs: Int64) {
        let start = pts.first ?? ptsUs
        t.append(Double(ptsUs - start) / 1e6)
        x.append(blob.x)
        y.append(blob.y)
        pts.append(ptsUs)
        diameterSum += blob.diameter
        if count >= 3 { refit() }
    }

    mutating func refit() {
        fit = t.withUnsafeBufferPointer { tb in
            x.withUnsafeBufferPointer { xb in
                y.withUnsafeBufferPointer { yb in ProjectileFit.fit(t: tb, x: xb, y: yb) }
            }
        }
    }

    /// Drops the oldest points beyond `limit` (a bird that circles for minutes).
    mutating func trim(to limit: Int) {
        guard count > limit else { return }
        let drop = count - limit
        let d = diameterSum / Double(count)
        t.removeFirst(drop); x.removeFirst(drop); y.removeFirst(drop); pts.removeFirst(drop)
        diameterSum = d * Double(count)
        let t0 = t[0]
        for i in t.indices { t[i] -= t0 }
        refit()
    }

    /// Where the object should be at `ptsUs`, and how far from there a detection may lie.
    func prediction(at ptsUs: Int64, maximumSpeed: Double) -> (x: Double, y: Double, gate: Double) {
        let dt = Double(ptsUs - pts[count - 1]) / 1e6
        let size = meanDiameter
        if count >= 4 {
            let p = fit.position(at: Double(ptsUs - pts[0]) / 1e6)
            return (p.x, p.y, 4 + 3 * fit.rms + 0.5 * size)
        }
        if count >= 2 {
            let span = t[count - 1] - t[count - 2]
            guard span > 0 else { return (x[count - 1], y[count - 1], 4 + size) }
            let vx = (x[count - 1] - x[count - 2]) / span, vy = (y[count - 1] - y[count - 2]) / span
            let speed = (vx * vx + vy * vy).squareRoot()
            return (x[count - 1] + vx * dt, y[count - 1] + vy * dt, 4 + 0.5 * size + 0.3 * speed * dt)
        }
        return (x[0], y[0], 2 + size + maximumSpeed * dt)
    }
}

/// Associates the blobs of successive frames into tracks and fits them: the state of
/// the trajectory detector.
///
/// Mature tracks (four points or more) claim detections first, each within a gate
/// around its projectile prediction; younger tracks follow with looser gates, and a
/// blob nobody claims starts a track. A detection far from the prediction (a bounce)
/// therefore starts a new track while the old one runs out of detections and ends.
struct TrajectoryTracker {
    private(set) var tracks: [Track] = []
    private var pairs: [(score: Double, track: Int, blob: Int)] = []
    private var claimed: [Bool] = []
    /// Points kept per track.
    var pointLimit = 600

    mutating func reset() { tracks.removeAll() }

    /// Adds the blobs of the frame at `ptsUs`; `maximumSpeedPixels` is in pixels per second.
    mutating func update(blobs: [MotionBlob], ptsUs: Int64, maximumSpeedPixels: Double, maximumGap: Int) {
        pairs.removeAll(keepingCapacity: true)
        claimed.removeAll(keepingCapacity: true)
        claimed.append(contentsOf: repeatElement(false, count: blobs.count))
        for i in tracks.indices {
            tracks[i].updated = false
            let p = tracks[i].prediction(at: ptsUs, maximumSpeed: maximumSpeedPixels)
            let rank = tracks[i].count >= 4 ? 0.0 : (tracks[i].count >= 2 ? 1.0 : 2.0)
            for (j, b) in blobs.enumerated() {
                let dx = b.x - p.x, dy = b.y - p.y
                let d = (dx * dx + dy * dy).squareRoot()
                guard d <= p.gate else { continue }
                // Size must roughly agree (a bag and a large shadow crossing).
                let size = tracks[i].meanDiameter
                guard b.diameter < 2.5 * size + 3, size < 2.5 * b.diameter + 3 else { continue }
                pairs.append((rank + d / p.gate, i, j))
            }
        }
        pairs.sort { $0.score < $1.score }
        for pair in pairs where !claimed[pair.blob] && !tracks[pair.track].updated {
            claimed[pair.blob] = true
            tracks[pair.track].updated = true
            tracks[pair.track].append(blobs[pair.blob], ptsUs: ptsUs)
            tracks[pair.track].missed = 0
            tracks[pair.track].trim(to: pointLimit)
        }
        for i in tracks.indices where !tracks[i].updated { tracks[i].missed += 1 }
        tracks.removeAll { $0.missed > maximumGap }
        for (j, b) in blobs.enumerated() where !claimed[j] {
            var track = Track(uuid: UUID(), blob: b, ptsUs: ptsUs)
            track.updated = true
            tracks.append(track)
        }
    }
}

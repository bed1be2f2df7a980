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
    /// Whether the track has been judged a projectile's path (its points before the path dropped).
    var onPath = false

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

    /// Points behind the prediction of a track that is not one path: 0.4 s at 30 fps, 0.2 s at 60.
    static let recentWindow = 12

    mutating func refit() {
        fit = Self.fit(t, x, y, 0..<count)
    }

    /// The projectile fitted to the last `recentWindow` points alone.
    var recentFit: ProjectileFit {
        count > Self.recentWindow ? Self.fit(t, x, y, (count - Self.recentWindow)..<count) : fit
    }

    private static func fit(_ t: [Double], _ x: [Double], _ y: [Double], _ range: Range<Int>) -> ProjectileFit {
        t.withUnsafeBufferPointer { tb in
            x.withUnsafeBufferPointer { xb in
                y.withUnsafeBufferPointer { yb in
                    ProjectileFit.fit(t: UnsafeBufferPointer(rebasing: tb[range]), x: UnsafeBufferPointer(rebasing: xb[range]),
                                      y: UnsafeBufferPointer(rebasing: yb[range]))
                }
            }
        }
    }

    /// Drops the oldest points beyond `limit` (a bird that circles for minutes).
    mutating func trim(to limit: Int) {
        guard count > limit else { return }
        dropFirst(count - limit)
    }

    /// Forgets the first `k` points (their mean size is kept: sizes are not stored per point).
    mutating func dropFirst(_ k: Int) {
        guard k > 0, k < count else { return }
        let d = diameterSum / Double(count)
        t.removeFirst(k); x.removeFirst(k); y.removeFirst(k); pts.removeFirst(k)
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
            // A track whose points are not one path as a whole (a bag swinging in the hand,
            // then thrown) is predicted from its latest points: the whole fit lies off the
            // flight and its residual opens the gate wide enough to take something else the bag
            // passes (held23-0002 throw 5: the hand's track followed the bag, took a blob 55 px
            // off three times, and the flight was never reported).
            let f = !onPath && fit.rms > max(1, 0.25 * size) ? recentFit : fit
            let p = f.position(at: Double(ptsUs - pts[0]) / 1e6)
            return (p.x, p.y, 4 + 3 * f.rms + 0.5 * size)
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

    /// Marks track `index` as a projectile's path that starts at its point `start`: the points
    /// before (the bag in the thrower's hand) are dropped so that they no longer bend the fit
    /// that predicts where the bag goes next.
    mutating func settlePath(ofTrack index: Int, startingAt start: Int) {
        tracks[index].dropFirst(start)
        tracks[index].onPath = true
    }

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

import PitchsideCore

/// Where and when a bag first seen in mid-flight left the thrower's hand.
///
/// The trajectory worker can lose a bag for the first half of its flight: a yellow bag
/// against a pale sky differs from it in chroma only, and a short fragment near the hand
/// never reaches the worker's fifteen points. The path it does report then starts near the
/// top of the arc, far outside the throw region. Such a path is still a throw when its fit,
/// carried back in time, reaches the thrower: the release is taken where the fitted path
/// crosses the near edge of the thrower's box, at a height the hand can reach, no longer
/// than `maximumBackSeconds` before the first detected point.
public enum ReleaseEstimate {
    /// Longest stretch of flight carried back: a throw's whole flight lasts about a second,
    /// and the lost part is at most its rise.
    public static let maximumBackSeconds = 0.8

    /// The release point on `fit` carried back from `first`, or nil when the fit does not come
    /// from the thrower (no time fit, no thrower's box, moving the wrong way, passing the
    /// thrower above reach or below the feet, or too long ago).
    public static func carriedBack(_ fit: PSTrajectoryObservation, from first: TimedPoint,
                                   context: ThrowContext) -> TimedPoint? {
        guard let box = context.playerBox, fit.vx * context.direction > 0 else { return nil }
        let nearEdge = context.direction > 0 ? box.maxX : box.minX
        // Seconds since the fit's time origin at which x(t) reaches the box's near edge.
        let s = (nearEdge - fit.x0) / fit.vx
        let sFirst = Double(first.ptsUs - fit.timeRangeStartUs) / 1e6
        guard s.isFinite, s < sFirst, sFirst - s <= maximumBackSeconds else { return nil }
        let y = fit.y0 + fit.vy * s + 0.5 * fit.ay * s * s
        // The hand reaches about half a body above the head and no lower than the feet.
        let height = box.maxY - box.minY
        guard y <= box.maxY, y >= box.minY - 0.5 * height else { return nil }
        let release = TimedPoint(x: nearEdge, y: y, ptsUs: fit.timeRangeStartUs + Int64((s * 1e6).rounded()))
        return context.inThrowRegion(release.point) ? release : nil
    }
}

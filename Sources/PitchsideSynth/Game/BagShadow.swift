/// Where a thrown bag's shadow falls: straight below the bag, on the board's top when the bag
/// is above it, else on the ground. The renderer draws it there and the truth records it.
struct BagShadow {
    /// The point below the bag on the surface, world metres.
    var base: Vec3
    /// The bag's height above that point, metres.
    var height: Double
}

extension GamePlan {
    /// The shadow of `thrown`'s bag at game time `t`, or nil when none is drawn (before
    /// release, and once the bag touches a surface: sliding, dropping, at rest).
    func shadow(of thrown: PlannedThrow, at t: Double) -> BagShadow? {
        guard t >= thrown.releaseTime, t < thrown.restTime else { return nil }
        let tau = t - thrown.releaseTime
        let phase = thrown.path.phase(at: tau)
        guard phase == .flight || phase == .falling else { return nil }
        let p = thrown.path.position(at: tau)
        let (s, w, hb) = board.surfaceCoordinates(p)
        let onTop = board.isOnTop(s: s, w: w) && hb > 0
        return onTop ? BagShadow(base: board.point(s: s, w: w), height: hb) : BagShadow(base: Vec3(p.x, 0, p.z), height: p.y)
    }
}

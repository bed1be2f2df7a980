/// The band below a side view's near side where the rail shows: points past the side, away from
/// the top, within `depth`, between the side's ends.
struct RailBand {
    let start: PlanePoint
    let unit: PlanePoint
    let length: Double
    let depth: Double

    init?(nearSideFrom a: PlanePoint, to b: PlanePoint, depth: Double) {
        let length = a.distance(to: b)
        guard length > 1 else { return nil }
        start = a
        unit = (b - a) * (1 / length)
        self.length = length
        self.depth = depth
    }

    func contains(_ p: PlanePoint) -> Bool {
        let d = p - start
        let along = d.x * unit.x + d.y * unit.y
        // Below the side: the picture's y grows downward, and the side runs roughly across it.
        let below = (d.y * unit.x - d.x * unit.y) * (unit.x >= 0 ? 1 : -1)
        return along >= 0 && along <= length && below > 0 && below <= depth
    }
}

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

/// The face below one of a side view's end edges: the points straight down the picture from the
/// edge, within `depth`. An end edge runs back into the picture at a slant, so a band measured
/// square to it (`RailBand`) would leave out the face straight below its near corner.
struct EndFaceBand {
    let a: PlanePoint
    let b: PlanePoint
    let depth: Double

    init?(endFrom a: PlanePoint, to b: PlanePoint, depth: Double) {
        // An edge running nearly straight up the picture shows no face below it.
        guard abs(b.x - a.x) >= 1 else { return nil }
        (self.a, self.b) = a.x <= b.x ? (a, b) : (b, a)
        self.depth = depth
    }

    func contains(_ p: PlanePoint) -> Bool {
        guard p.x >= a.x, p.x <= b.x else { return false }
        let edgeY = a.y + (b.y - a.y) * (p.x - a.x) / (b.x - a.x)
        let below = p.y - edgeY
        return below > 0 && below <= depth
    }
}

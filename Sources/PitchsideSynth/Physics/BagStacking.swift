import Foundation

/// Bags lie on one another. `BagPhysics` moves each bag alone; without this a bag that slides
/// onto one already lying there would end up inside it, and in the picture two bags would look
/// like one. A bag over another rides on top of it: fully over its middle, less toward its edge
/// (a bag that lies half on another tilts; its centre sits about half as high).
enum BagStacking {
    /// How high (along the surface's normal) a bag whose centre is at `p` rides above the surface
    /// it lies on, over the bags already lying on the same surface.
    ///
    /// - Parameters:
    ///   - p: the bag's centre, surface coordinates (board: along and across the top; ground: x, z).
    ///   - others: the bags lying on that surface, each as its centre in the same coordinates and
    ///     how high it rides itself.
    static func lift(at p: (Double, Double), over others: [(centre: (Double, Double), lift: Double)]) -> Double {
        var best = 0.0
        for other in others {
            let d = hypot(p.0 - other.centre.0, p.1 - other.centre.1)
            best = max(best, (other.lift + 2 * BagPhysics.halfThickness) * share(atDistance: d))
        }
        return best
    }

    /// 1 while the centre lies within half a bag of the other's, falling to 0 where they no
    /// longer overlap.
    static func share(atDistance d: Double) -> Double {
        let side = BagPhysics.side
        if d <= 0.5 * side { return 1 }
        return max(0, 2 * (1 - d / side))
    }
}

extension BagPath {
    /// This path with the bag riding over the bags already lying where it slides and rests.
    func riding(over bags: [RestingBag], board: BoardModel) -> BagPath {
        let onBoard = bags.filter { $0.place == .onBoard }.map { bag in
            let c = board.surfaceCoordinates(bag.position)
            return (centre: (c.s, c.w), lift: bag.lift)
        }
        let onGround = bags.filter { $0.place == .onGround }.map { (centre: ($0.position.x, $0.position.z), lift: $0.lift) }
        guard !onBoard.isEmpty || !onGround.isEmpty else { return self }
        var lifted = samples
        for i in samples.indices where phases[i] == .sliding || phases[i] == .rest {
            let p = samples[i]
            let c = board.surfaceCoordinates(p)
            if board.isOnTop(s: c.s, w: c.w), abs(c.height - BagPhysics.halfThickness) < 1e-6 {
                lifted[i] = p + board.normal * BagStacking.lift(at: (c.s, c.w), over: onBoard)
            } else if abs(p.y - BagPhysics.halfThickness) < 1e-6 {
                lifted[i] = p + Vec3(0, BagStacking.lift(at: (p.x, p.z), over: onGround), 0)
            }
        }
        return BagPath(release: release, velocity: velocity, landingTime: landingTime, firstContact: firstContact,
                       place: place, samples: lifted, phases: phases, step: step)
    }

    /// How far the bag at rest rides above the surface it lies on (0 unless it lies on a bag).
    func restLift(board: BoardModel) -> Double {
        let p = restPosition
        switch place {
        case .onBoard: return max(0, board.surfaceCoordinates(p).height - BagPhysics.halfThickness)
        case .onGround: return max(0, p.y - BagPhysics.halfThickness)
        case .inHole: return 0
        }
    }
}

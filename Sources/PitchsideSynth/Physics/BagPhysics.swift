import Foundation

/// Friction and loss settings for a bag's contact with the board and the ground.
public struct BagContact: Sendable, Equatable, Codable {
    /// Kinetic friction coefficient on the board (greater than the tangent of the incline, so
    /// that a bag stops on the slope).
    public var boardFriction: Double = 0.45
    /// Fraction of the along-surface speed a bag keeps when it lands on the board.
    public var boardKeep: Double = 0.45
    public var groundFriction: Double = 0.9
    public var groundKeep: Double = 0.25

    public init() {}
}

/// Decides a throw's outcome from geometry: the ballistic flight intersects the board's real top
/// surface, front face, hole and the ground; on the board the bag slides along the incline with
/// friction and may drop into the hole or slide off an edge.
///
/// ```swift
/// let path = BagPhysics.simulate(release: p0, velocity: v0, board: board, contact: BagContact())
/// path.place        // .inHole, .onBoard or .onGround
/// path.position(at: 0.5)  // seconds after release
/// ```
public enum BagPhysics {
    public static let gravity = 9.81
    /// Half the thickness of a bag: its centre rides this far above what it lies on.
    public static let halfThickness = 0.02
    /// Side of the square bag.
    public static let side = 0.15
    static let step = 1.0 / 1000.0

    /// Position at time t of a ballistic flight.
    @inlinable public static func ballistic(_ p0: Vec3, _ v0: Vec3, _ t: Double) -> Vec3 {
        Vec3(p0.x + v0.x * t, p0.y + v0.y * t - 0.5 * gravity * t * t, p0.z + v0.z * t)
    }

    /// The release velocity that lands a bag released at `from` on `target` with the given launch
    /// angle (nil when no speed reaches it).
    public static func aim(from: Vec3, to target: Vec3, launchDegrees: Double) -> Vec3? {
        let dx = target.x - from.x, dz = target.z - from.z
        let distance = (dx * dx + dz * dz).squareRoot()
        let theta = radians(launchDegrees)
        let rise = target.y - from.y
        let denominator = 2 * cos(theta) * cos(theta) * (distance * tan(theta) - rise)
        guard distance > 0, denominator > 0 else { return nil }
        let speed = (gravity * distance * distance / denominator).squareRoot()
        let horizontal = speed * cos(theta)
        return Vec3(horizontal * dx / distance, speed * sin(theta), horizontal * dz / distance)
    }

    public static func simulate(release: Vec3, velocity: Vec3, board: BoardModel, contact: BagContact) -> BagPath {
        // 1. Flight: find the first contact, stepping the exact ballistic formula.
        var t = 0.0
        var first = FirstContact.ground
        var previous = release
        let maxFlight = 5.0
        while t < maxFlight {
            let next = t + step
            let p = ballistic(release, velocity, next)
            let (s, w, h) = board.surfaceCoordinates(p)
            if abs(w) <= BoardModel.width / 2 {
                // The front face: the path crosses the front edge's plane below the top.
                if previous.x < board.frontX, p.x >= board.frontX, p.y < board.frontHeight + halfThickness {
                    first = .frontFace
                    t = next
                    break
                }
                if s >= 0, s <= BoardModel.length, h <= halfThickness, h > -0.25 {
                    let ds = s - board.holeS
                    first = (ds * ds + w * w) < pow(board.holeRadius * 0.55, 2) ? .hole : .board
                    t = next
                    break
                }
            }
            if p.y <= halfThickness {
                first = .ground
                t = next
                break
            }
            previous = p
            t = next
        }
        let landingTime = t
        let landingPoint = ballistic(release, velocity, t)
        let landingVelocity = Vec3(velocity.x, velocity.y - gravity * t, velocity.z)
        var samples: [Vec3] = []
        var phases: [BagPhase] = []
        var place = BagPlace.onGround

        switch first {
        case .hole:
            place = .inHole
            dropThroughHole(from: landingPoint, board: board, samples: &samples, phases: &phases)
        case .board:
            place = slideOnBoard(
                from: landingPoint, velocity: landingVelocity, board: board, contact: contact,
                samples: &samples, phases: &phases)
        case .frontFace:
            // Bounces back off the front face and falls to the ground in front of the board.
            let back = Vec3(-0.15 * abs(landingVelocity.x), min(landingVelocity.y, 0) * 0.3, landingVelocity.z * 0.3)
            fall(from: Vec3(board.frontX - halfThickness - 0.01, landingPoint.y, landingPoint.z),
                 velocity: back, board: board, contact: contact, samples: &samples, phases: &phases)
            place = .onGround
        case .ground:
            slideOnGround(from: landingPoint, velocity: landingVelocity, board: board, contact: contact,
                          samples: &samples, phases: &phases)
            place = .onGround
        }
        return BagPath(
            release: release, velocity: velocity, landingTime: landingTime, firstContact: first,
            place: place, samples: samples, phases: phases, step: step)
    }

    static func dropThroughHole(from p: Vec3, board: BoardModel, samples: inout [Vec3], phases: inout [BagPhase]) {
        // Sinks below the surface within a quarter of a second.
        let n = 250
        for i in 0..<n {
            let k = Double(i) / Double(n)
            samples.append(Vec3(p.x, p.y - 0.35 * k * k, p.z))
            phases.append(.dropping)
        }
        samples.append(board.holeCentre - Vec3(0, 0.4, 0))
        phases.append(.gone)
    }

    static func slideOnBoard(
        from landing: Vec3, velocity v: Vec3, board: BoardModel, contact: BagContact,
        samples: inout [Vec3], phases: inout [BagPhase]
    ) -> BagPlace {
        let n = board.normal
        let tangential = v - n * v.dot(n)
        var vs = tangential.dot(board.uphill) * contact.boardKeep
        var vw = tangential.z * contact.boardKeep
        var (s, w, _) = board.surfaceCoordinates(landing)
        let g = gravity
        let along = -g * board.sinIncline
        let friction = contact.boardFriction * g * board.cosIncline
        var steps = 0
        while steps < 20_000 {
            steps += 1
            let speed = (vs * vs + vw * vw).squareRoot()
            if speed < 0.02 {
                // Static friction holds on this slope.
                samples.append(board.point(s: s, w: w, lift: halfThickness))
                phases.append(.rest)
                return .onBoard
            }
            vs += (along - friction * vs / speed) * step
            vw += (-friction * vw / speed) * step
            s += vs * step
            w += vw * step
            if board.isOverHole(s: s, w: w) && (pow(s - board.holeS, 2) + w * w) < pow(board.holeRadius * 0.8, 2) {
                samples.append(board.point(s: s, w: w, lift: halfThickness))
                phases.append(.sliding)
                dropThroughHole(from: board.point(s: s, w: w, lift: halfThickness), board: board,
                                samples: &samples, phases: &phases)
                return .inHole
            }
            if !board.isOnTop(s: s, w: w) {
                let p = board.point(s: s, w: w, lift: halfThickness)
                let worldV = board.uphill * vs + Vec3(0, 0, vw)
                fall(from: p, velocity: worldV, board: board, contact: contact, samples: &samples, phases: &phases)
                return .onGround
            }
            samples.append(board.point(s: s, w: w, lift: halfThickness))
            phases.append(.sliding)
        }
        return .onBoard
    }

    static func fall(
        from p0: Vec3, velocity v0: Vec3, board: BoardModel, contact: BagContact,
        samples: inout [Vec3], phases: inout [BagPhase]
    ) {
        var t = 0.0
        while t < 3 {
            t += step
            let p = ballistic(p0, v0, t)
            if p.y <= halfThickness {
                let v = Vec3(v0.x, v0.y - gravity * t, v0.z)
                slideOnGround(from: Vec3(p.x, halfThickness, p.z), velocity: v, board: board, contact: contact,
                              samples: &samples, phases: &phases)
                return
            }
            samples.append(p)
            phases.append(.falling)
        }
    }

    static func slideOnGround(
        from p0: Vec3, velocity v: Vec3, board: BoardModel, contact: BagContact,
        samples: inout [Vec3], phases: inout [BagPhase]
    ) {
        var vx = v.x * contact.groundKeep, vz = v.z * contact.groundKeep
        let footprint = GroundFootprint(board: board)
        // A bag coming down against the board's body lies beside it, never under it.
        var (x, z) = footprint.nearestOutside(x: p0.x, z: p0.z)
        let friction = contact.groundFriction * gravity
        while true {
            let speed = (vx * vx + vz * vz).squareRoot()
            if speed < 0.02 { break }
            vx -= friction * vx / speed * step
            vz -= friction * vz / speed * step
            let nx = x + vx * step, nz = z + vz * step
            // Stops against the rail or the front face.
            if footprint.contains(x: nx, z: nz) { break }
            x = nx
            z = nz
            samples.append(Vec3(x, halfThickness, z))
            phases.append(.sliding)
        }
        samples.append(Vec3(x, halfThickness, z))
        phases.append(.rest)
    }
}

/// Where a flat bag's centre cannot be on the ground: within half a bag of the board's outline
/// on the ground. The board counts as closed down to the ground all round (front face, rails,
/// legs), so no bag lies under it.
struct GroundFootprint {
    let minX: Double
    let maxX: Double
    let halfWidth: Double

    init(board: BoardModel) {
        let margin = BagPhysics.side / 2
        minX = board.frontX - margin
        maxX = board.backX + margin
        halfWidth = BoardModel.width / 2 + margin
    }

    func contains(x: Double, z: Double) -> Bool {
        x > minX && x < maxX && abs(z) < halfWidth
    }

    /// The point itself when outside, else the nearest point on the footprint's edge.
    func nearestOutside(x: Double, z: Double) -> (x: Double, z: Double) {
        guard contains(x: x, z: z) else { return (x, z) }
        let toFront = x - minX, toBack = maxX - x, toSide = halfWidth - abs(z)
        let nearest = min(toFront, toBack, toSide)
        if nearest == toSide { return (x, z < 0 ? -halfWidth : halfWidth) }
        return (nearest == toFront ? minX : maxX, z)
    }
}

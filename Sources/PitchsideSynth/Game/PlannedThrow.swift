/// The outcome of a throw in the project's terms.
public enum ThrowOutcomeKind: String, Sendable, Codable, CaseIterable {
    case hole, board, miss

    init(_ place: BagPlace) {
        switch place {
        case .inHole: self = .hole
        case .onBoard: self = .board
        case .onGround: self = .miss
        }
    }
}

/// A throw decided at planning time: who, how, when, and the bag's whole path.
public struct PlannedThrow: Sendable {
    /// From 1.
    public var index: Int
    public var player: Int
    public var style: ThrowStyle
    /// From 1 (Apple's rules: always 1).
    public var inning: Int
    /// Release time, seconds, on a frame boundary.
    public var releaseTime: Double
    public var path: BagPath
    public var bagID: Int
    public var bagColor: RGB

    public var outcome: ThrowOutcomeKind { ThrowOutcomeKind(path.place) }
    public var landingTime: Double { releaseTime + path.landingTime }
    public var restTime: Double { releaseTime + path.restTime }
    /// The angle the bag lies at once it touches down, degrees.
    public var lyingYaw: Double { Double((index * 37) % 60 - 30) }
}

/// A bag that lies still from `since` until `until` (nil: to the end).
public struct RestingBag: Sendable {
    public var id: Int
    public var position: Vec3
    public var place: BagPlace
    public var color: RGB
    /// Lying angle on the surface, degrees.
    public var yawDegrees: Double
    public var since: Double
    public var until: Double?
    /// The throw that brought it here (nil for bags lying there from the start).
    public var throwIndex: Int?
    public var player: Int?
    /// How far it rides above the surface it lies on (0 unless it lies on another bag).
    public var lift: Double = 0

    func isPresent(at t: Double) -> Bool { t >= since && (until.map { t < $0 } ?? true) }
}

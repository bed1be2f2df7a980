/// Things that move but are not part of the game.
public enum DistractorKind: String, Sendable, Codable {
    case bird
    case farPerson = "far_person"
}

/// A distractor moving on a straight line at constant speed between two times.
public struct Distractor: Sendable {
    public var kind: DistractorKind
    public var start: Double
    public var end: Double
    public var from: Vec3
    public var to: Vec3

    public func position(at t: Double) -> Vec3? {
        guard t >= start, t <= end else { return nil }
        return from + (to - from) * ((t - start) / (end - start))
    }
}

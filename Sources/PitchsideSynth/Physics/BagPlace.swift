/// Where a bag comes to rest (the census's places).
public enum BagPlace: String, Sendable, Codable, CaseIterable {
    case onBoard = "on_board"
    case inHole = "in_hole"
    case onGround = "on_ground"
}

/// What a bag is doing at a moment of its path.
public enum BagPhase: String, Sendable, Codable {
    /// In the air between release and first contact.
    case flight
    /// Sliding on the board's top or on the ground.
    case sliding
    /// Falling after leaving the board's top (off an edge).
    case falling
    /// Going down through the hole (drawn sinking into the hole).
    case dropping
    /// At rest and visible.
    case rest
    /// Fallen through the hole, out of sight.
    case gone
}

/// What the bag touched first.
public enum FirstContact: String, Sendable, Codable {
    case board, hole, frontFace = "front_face", ground
}

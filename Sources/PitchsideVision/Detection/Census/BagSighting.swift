/// Where a bag lies relative to the board.
public enum BagPlacement: String, Sendable, Codable, CaseIterable {
    case onBoard
    case inHole
    case onGround
}

/// One bag seen in one picture, in that picture's pixels.
public struct BagSighting: Sendable, Equatable, Codable {
    public var center: PlanePoint
    public var colour: RGBColour
    public var place: BagPlacement
    /// Visible area, pixels.
    public var area: Double

    public init(center: PlanePoint, colour: RGBColour, place: BagPlacement, area: Double) {
        self.center = center
        self.colour = colour
        self.place = place
        self.area = area
    }
}

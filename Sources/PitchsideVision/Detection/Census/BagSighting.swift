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
    /// How many bags the blob holds, judged by its area alone (bags that touch make one blob).
    public var count = 1
    /// The blob's bounding box, pixels.
    public var extentMin: PlanePoint
    public var extentMax: PlanePoint
    /// The area one bag at rest covers here, pixels.
    public var singleBagArea: Double

    public init(center: PlanePoint, colour: RGBColour, place: BagPlacement, area: Double) {
        self.center = center
        self.colour = colour
        self.place = place
        self.area = area
        extentMin = center
        extentMax = center
        singleBagArea = area
    }

    /// The same sighting in a picture moved by (dx, dy) pixels.
    func translated(dx: Double, dy: Double) -> BagSighting {
        var s = self
        s.center = PlanePoint(center.x + dx, center.y + dy)
        s.extentMin = PlanePoint(extentMin.x + dx, extentMin.y + dy)
        s.extentMax = PlanePoint(extentMax.x + dx, extentMax.y + dy)
        return s
    }

    /// Whether `p` lies within the blob's box grown by `margin` pixels.
    public func covers(_ p: PlanePoint, margin: Double) -> Bool {
        p.x >= extentMin.x - margin && p.x <= extentMax.x + margin && p.y >= extentMin.y - margin && p.y <= extentMax.y + margin
    }
}

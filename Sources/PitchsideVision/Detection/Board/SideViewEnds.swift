import Foundation

/// A side view's two ends, by corner index: the back end (the hole's) runs from corner
/// `backEdgeStart` to the next, clockwise, and each of its corners has a partner at the front
/// end along its own long side.
struct SideViewEnds {
    /// The back end's corners, in order.
    let back: (Int, Int)
    /// The front end's corners, each along the long side of the back corner in the same place:
    /// `front.0` partners `back.0`.
    let front: (Int, Int)

    /// nil unless `backEdgeStart` names a corner of a quadrilateral.
    init?(backEdgeStart b: Int) {
        guard (0..<4).contains(b) else { return nil }
        back = (b, (b + 1) % 4)
        front = ((b + 3) % 4, (b + 2) % 4)
    }

    /// The angle between the two ends of `corners`, each taken in the same sense (from its
    /// corner on one long side to its corner on the other), in degrees.
    func apartDegrees(_ corners: [PlanePoint]) -> Double {
        let backEnd = corners[back.1] - corners[back.0], frontEnd = corners[front.1] - corners[front.0]
        return abs(atan2(backEnd.x * frontEnd.y - backEnd.y * frontEnd.x, backEnd.x * frontEnd.x + backEnd.y * frontEnd.y)) * 180 / .pi
    }

    /// `corners` with the end of corners `moving` laid on the line through `point` along
    /// `direction`, each corner moved along its long side (to its partner in `partners`), or nil
    /// when a corner would move farther than `maximumMove` (or a long side runs along that line).
    static func layEnd(_ corners: [PlanePoint], moving: (Int, Int), partners: (Int, Int), through point: PlanePoint,
                       along direction: PlanePoint, maximumMove: Double) -> [PlanePoint]? {
        guard let on0 = lineIntersection(point, point + direction, corners[partners.0], corners[moving.0]),
              let on1 = lineIntersection(point, point + direction, corners[partners.1], corners[moving.1]),
              on0.distance(to: corners[moving.0]) <= maximumMove,
              on1.distance(to: corners[moving.1]) <= maximumMove else { return nil }
        var out = corners
        out[moving.0] = on0
        out[moving.1] = on1
        return out
    }
}

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
}

/// How far bags slide on this board after they land.
///
/// A bag that lands on the top keeps part of its speed along it and slides until friction stops
/// it, so it slides a distance that grows with the square of its speed: s = k·v². How much
/// speed a landing keeps and how hard the surface holds differ from board to board (a waxed
/// board against a dusty one) but not from throw to throw on one board, so k is learned from
/// this board's own throws: each bag the census saw come to rest on the top gives where it
/// stopped against where its flight came down and how fast it came. With k known, a bag that
/// came down short of the hole and then went from view can be followed: one whose slide takes
/// it past the hole's rim went in, one that stopped well short of it lies on the board, hidden.
///
/// Distances and speeds are in board lengths (the top's extent along x in the picture), so the
/// coefficient holds whatever the picture's size.
public struct BoardSlide: Sendable, Equatable, Codable {
    /// One bag seen to stop on the top: its landing speed squared and how far it slid.
    public struct Sample: Sendable, Equatable, Codable {
        public var speedSquared: Double
        public var slide: Double
    }

    public private(set) var samples: [Sample] = []

    public init() {}

    /// Fewest bags seen at rest before the slide is predicted.
    public static let minimumSamples = 2

    /// Records a bag that came down moving at `speed` (board lengths per second, along its
    /// flight) and was seen at rest `slide` board lengths farther on.
    public mutating func record(speed: Double, slide: Double) {
        // A bag seen at rest behind where it came down, however little, was knocked back by
        // another, or the census placed it at the centre of a pile it joined: no measure of how
        // the board plays. Over dev8 and held2-12, the 55 bags seen up to 0.02 board lengths
        // behind their landing had truly slid 0.07 (median) and none under 0.02; taken for
        // stopped dead, they drew the slide toward none (held12-0019: learned 0, truly 0.07-0.14).
        guard speed > 0, slide >= 0, slide < 1 else { return }
        samples.append(Sample(speedSquared: speed * speed, slide: slide))
    }

    /// k of s = k·v², least squares through the origin; nil until enough bags were seen.
    public var coefficient: Double? {
        guard samples.count >= Self.minimumSamples else { return nil }
        let vv = samples.reduce(0) { $0 + $1.speedSquared * $1.speedSquared }
        let vs = samples.reduce(0) { $0 + $1.speedSquared * $1.slide }
        return vv > 0 ? vs / vv : nil
    }

    /// How far a bag landing at `speed` slides, board lengths; nil until learned.
    public func slide(speed: Double) -> Double? {
        coefficient.map { $0 * speed * speed }
    }

    /// The horizontal speed at the end of a flight, picture x units per second along `direction`:
    /// x(t) fitted linearly over the last points (no force acts along x in flight).
    public static func landingSpeed(_ points: [TimedPoint], direction: Double) -> Double? {
        let tail = Array(points.suffix(FlightExtrapolation.fitPoints))
        guard tail.count >= 4, let fit = ProjectileFit(tail) else { return nil }
        let v = fit.vx * (direction < 0 ? -1 : 1)
        return v > 0 ? v : nil
    }
}

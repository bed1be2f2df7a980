/// The board that the searches of a settled camera agree on.
///
/// On a small side view each search places the corners a pixel or more apart from the last, as
/// the renderer's noise and the codec move the top's edges: held22-0016 at 640×360 (a board 57
/// pixels long), the searches of two seconds of a still camera put the back end's far corner
/// from 541.5 to 547.5 px, and the one search the tracker kept stood 7 % of the length off all
/// game while most of the others lay within 2 %. The member nearest all the others (the medoid)
/// stands for them: an outlier (a bag's edge taken for an end, a back end turned about its
/// middle) is nearest none, and a member keeps its own hole and scale, which a corner-by-corner
/// median would have to make up.
public enum BoardConsensus {
    /// How far apart two detections lie: each corner of `a` to the nearest corner of `b`, summed
    /// (two searches may start their corners at different ends).
    public static func distance(_ a: BoardDetection, _ b: BoardDetection) -> Double {
        nearestCornerDistances(a, b).reduce(0, +)
    }

    /// The detection with the least summed distance to all the others; of equals, the more
    /// confident, then the earlier. Nil for none.
    public static func medoid(_ sightings: [BoardDetection]) -> BoardDetection? {
        let scored = sightings.enumerated().map { i, d in
            (detection: d, spread: sightings.reduce(0) { $0 + distance(d, $1) }, index: i)
        }
        return scored.min { x, y in
            x.spread != y.spread ? x.spread < y.spread
                : x.detection.confidence != y.detection.confidence ? x.detection.confidence > y.detection.confidence : x.index < y.index
        }?.detection
    }

    /// The largest move of any corner from `a` to its nearest in `b`, pixels.
    public static func largestCornerMove(_ a: BoardDetection, _ b: BoardDetection) -> Double {
        nearestCornerDistances(a, b).max() ?? 0
    }

    /// For each corner of `a`, how far the nearest corner of `b` lies, pixels.
    private static func nearestCornerDistances(_ a: BoardDetection, _ b: BoardDetection) -> [Double] {
        a.corners.map { p in b.corners.map { p.distance(to: $0) }.min() ?? 0 }
    }
}

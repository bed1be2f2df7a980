/// Everything that moves in a synthetic game and may be followed by a trajectory detector,
/// per frame, in pixels: thrown bags (in flight and after landing), their shadows, birds and
/// far persons. What `TrajectoryEvaluator` compares observations with.
public struct KnownPath: Sendable, Equatable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case bag, shadow, bird
        case farPerson = "far_person"
    }

    public var kind: Kind
    /// The throw (from 1) for a bag or its shadow.
    public var throwIndex: Int?
    /// The object's centre per frame index, pixels.
    public var points: [Int: SIMD2<Double>]
    /// Frames of the flight proper (release … first contact), for a bag.
    public var flightFrames: ClosedRange<Int>?
    /// A detected point is on this path when it lies inside the ellipse of these half-axes
    /// (pixels) around the centre of its frame.
    public var reach: SIMD2<Double>

    public init(kind: Kind, throwIndex: Int? = nil, points: [Int: SIMD2<Double>], flightFrames: ClosedRange<Int>? = nil,
                reach: SIMD2<Double>) {
        self.kind = kind
        self.throwIndex = throwIndex
        self.points = points
        self.flightFrames = flightFrames
        self.reach = reach
    }

    /// True when `p` (pixels) lies on the path at `frame`.
    public func contains(_ p: SIMD2<Double>, frame: Int) -> Bool {
        guard let c = points[frame] else { return false }
        let d = (p - c) / reach
        return d.x * d.x + d.y * d.y <= 1
    }
}

/// Missing paths in a truth file: truth files written before shadows and distractor paths were
/// recorded lack them.
public struct MissingPathsError: Error, CustomStringConvertible {
    public var description: String {
        "the truth has no shadow or distractor paths (written by an older pitchside): re-render the game, "
            + "or let the evaluation recompute them from the seed"
    }
}

extension GroundTruth {
    /// The bag's side in pixels at the board (the scale every reach is taken from).
    public var bagPixels: Double { BagPhysics.side / max(board.metresPerPixel, 1e-9) }

    /// True when every throw has its shadow path and every distractor its path.
    public var hasMovingPaths: Bool {
        throwsTruth.allSatisfy { $0.shadow != nil } && distractors.allSatisfy { $0.path != nil && $0.extentPixels != nil }
    }

    /// This truth with the shadow and distractor paths filled in, recomputed from the settings
    /// (a seed and its settings give the same game): for truth files written before those paths
    /// were recorded. Throws when the recomputed game is not this one (its flights differ).
    public func withMovingPaths() throws -> GroundTruth {
        if hasMovingPaths { return self }
        let rebuilt = SynthGame(settings: settings).truth(videoFile: video.file)
        guard rebuilt.throwsTruth.map(\.flight) == throwsTruth.map(\.flight),
              rebuilt.distractors.map(\.startFrame) == distractors.map(\.startFrame) else { throw MissingPathsError() }
        var copy = self
        for k in copy.throwsTruth.indices { copy.throwsTruth[k].shadow = rebuilt.throwsTruth[k].shadow }
        for k in copy.distractors.indices {
            copy.distractors[k].path = rebuilt.distractors[k].path
            copy.distractors[k].extentPixels = rebuilt.distractors[k].extentPixels
        }
        return copy
    }

    /// The moving things of the game as paths. A bag's reach is its size (at least 4 px); a
    /// shadow's 1.5 bag sizes across (it is wider than the bag); a distractor's is half its
    /// figure plus half a bag. Throws `MissingPathsError` when shadow or distractor paths are absent.
    public func knownPaths() throws -> [KnownPath] {
        guard hasMovingPaths else { throw MissingPathsError() }
        let bag = max(4, bagPixels)
        func table(_ rows: [[Double]]) -> [Int: SIMD2<Double>] {
            Dictionary(rows.map { (Int($0[0]), SIMD2($0[1], $0[2])) }, uniquingKeysWith: { a, _ in a })
        }
        var paths: [KnownPath] = []
        for t in throwsTruth {
            let flightFrames = (t.flight.first.map { Int($0[0]) } ?? t.releaseFrame)...(t.flight.last.map { Int($0[0]) } ?? t.releaseFrame)
            paths.append(KnownPath(kind: .bag, throwIndex: t.index, points: table(t.flight + t.afterLanding),
                                   flightFrames: flightFrames, reach: SIMD2(bag, bag)))
            paths.append(KnownPath(kind: .shadow, throwIndex: t.index, points: table(t.shadow ?? []),
                                   reach: SIMD2(1.5 * bag, bag)))
        }
        for d in distractors {
            let extent = d.extentPixels ?? [0, 0]
            paths.append(KnownPath(kind: d.kind == .bird ? .bird : .farPerson, points: table(d.path ?? []),
                                   reach: SIMD2(extent[0] / 2 + bag / 2, extent[1] / 2 + bag / 2)))
        }
        return paths
    }
}

import PitchsideCore

/// What the game was given before it began tracking throws, kept so that a throw made while the
/// board was still being found can be played again once it has: players do not wait for the
/// camera (dev6-0007, dev6-0016 and dev7-0010 each threw their first bag 2–4 s before the board
/// was first found, and those throws were lost).
///
/// Keeps the trajectory observations (with where the player stood when each came), the
/// censuses and the poses of the last `spanUs` of media time. A camera move empties it: the
/// board found afterwards says nothing of where earlier paths ran.
///
/// ```swift
/// var buffer = PreTrackingBuffer()
/// buffer.keep(trajectory: o, seq: 40, playerBox: box)   // while not tracking
/// let kept = buffer.take()                              // once tracking begins
/// ```
struct PreTrackingBuffer: Sendable {
    /// One result kept, in arrival order.
    enum Entry: Sendable {
        case trajectory(PSTrajectoryObservation, seq: UInt64, playerBox: PSRect?)
        case census(PSBoardCensus)

        var ptsUs: Int64 {
            switch self {
            case .trajectory(let o, _, _): o.header.ptsUs
            case .census(let c): c.header.ptsUs
            }
        }
    }

    /// What was kept, handed over once.
    struct Kept: Sendable {
        var entries: [Entry] = []
        /// Poses (gaps already filled), in media-time order.
        var poses: [PSPoseObservation] = []
        /// The latest census older than every entry: the scene before them.
        var censusBefore: PSBoardCensus?

        /// Whether there is a path to play again at all.
        var hasTrajectories: Bool {
            entries.contains { if case .trajectory = $0 { true } else { false } }
        }
    }

    /// How much media time is kept: a throw's release up to this long before tracking began.
    let spanUs: Int64
    private var kept = Kept()

    init(spanUs: Int64 = GameConstants.preTrackingSpanUs) {
        self.spanUs = spanUs
    }

    mutating func keep(trajectory o: PSTrajectoryObservation, seq: UInt64, playerBox: PSRect?) {
        kept.entries.append(.trajectory(o, seq: seq, playerBox: playerBox))
        trim(now: o.header.ptsUs)
    }

    mutating func keep(census c: PSBoardCensus) {
        kept.entries.append(.census(c))
        trim(now: c.header.ptsUs)
    }

    /// A census while the game tracks throws, when nothing is kept: the scene that what is kept
    /// next follows (the next game's first throw may come before tracking begins again).
    mutating func follow(census c: PSBoardCensus) {
        kept.censusBefore = c
    }

    mutating func keep(pose p: PSPoseObservation) {
        kept.poses.append(p)
        trim(now: p.header.ptsUs)
    }

    /// The camera moved: paths seen before were in another picture, so what is kept goes as
    /// `take` would hand it over (the last census still says what the scene held).
    mutating func cameraMoved() {
        _ = take()
    }

    /// Everything kept, leaving the buffer empty (the scene's last census stays as its start).
    mutating func take() -> Kept {
        defer { kept = Kept(censusBefore: latestCensus) }
        return kept
    }

    private var latestCensus: PSBoardCensus? {
        for entry in kept.entries.reversed() { if case .census(let c) = entry { return c } }
        return kept.censusBefore
    }

    private mutating func trim(now: Int64) {
        let oldest = now - spanUs
        let gone = kept.entries.prefix { $0.ptsUs < oldest }
        for entry in gone { if case .census(let c) = entry { kept.censusBefore = c } }
        kept.entries.removeFirst(gone.count)
        kept.poses.removeFirst(kept.poses.prefix { $0.header.ptsUs < oldest }.count)
    }
}

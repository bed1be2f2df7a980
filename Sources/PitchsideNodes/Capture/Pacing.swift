/// How the capture node paces publishing (DESIGN §7).
public enum Pacing: String, Sendable, CaseIterable {
    /// Media rate, as a camera delivers: a slow consumer loses frames at its
    /// high-water mark, and every gap shows in `seq`.
    case live
    /// Wait for credits from every registered consumer: no frame is lost, the
    /// file is processed as fast as the slowest worker, results are deterministic.
    case lockstep
    /// As fast as decoding allows, no waiting (benchmarks).
    case max
}

/// A small seeded generator (SplitMix64) so that a seed always renders the same game.
///
/// The system generator is never used: output must be identical across runs and machines.
/// ```swift
/// var rng = SplitMix64(seed: 42)
/// let speed = rng.uniform(6, 12)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// A generator for one purpose, independent of how many numbers others drew.
    public init(seed: UInt64, stream: UInt64) {
        var mixer = SplitMix64(seed: seed ^ (stream &* 0x9E37_79B9_7F4A_7C15))
        state = mixer.next()
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1), from the top 53 bits (exact, no platform dependence).
    public mutating func unit() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    public mutating func uniform(_ low: Double, _ high: Double) -> Double {
        low + (high - low) * unit()
    }

    /// An integer in low...high.
    public mutating func int(_ low: Int, _ high: Int) -> Int {
        low + Int(next() % UInt64(high - low + 1))
    }

    public mutating func chance(_ p: Double) -> Bool { unit() < p }

    /// Approximately normal (sum of uniforms), mean 0, standard deviation 1.
    public mutating func gaussian() -> Double {
        var s = 0.0
        for _ in 0..<6 { s += unit() }
        return (s - 3.0) * 1.414_213_562_373_095
    }

    public mutating func pick<T>(_ items: [T]) -> T { items[int(0, items.count - 1)] }
}

import ArgumentParser

/// `pitchside bench <area>`: benchmarks, each side by side with a baseline.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Run a benchmark side by side with its baseline (see bench/README.md).",
        subcommands: [
            TransportBench.self, MediaBench.self, SynthBench.self, TrajectoryBench.self, PoseBench.self, DetectionBench.self,
            AnalyzeBench.self,
        ]
    )
}

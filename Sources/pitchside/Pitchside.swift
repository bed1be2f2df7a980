import ArgumentParser

/// The `pitchside` command: every process of the cluster and every tool, as subcommands.
@main
struct Pitchside: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pitchside",
        abstract: "Watches a bean bag toss (cornhole) game on video and scores it, live.",
        discussion: """
            Run a whole local cluster on the built-in demo game:   pitchside up --demo
            Every process can also run on its own (capture, worker, aggregate) and across machines;
            endpoints come from flags, PITCHSIDE_*_ENDPOINT variables or a YAML file (--config).
            """,
        subcommands: [
            CaptureCommand.self,
            WorkerCommand.self,
            AggregateCommand.self,
            ScoresCommand.self,
            UpCommand.self,
            AnalyzeCommand.self,
            ReplayCommand.self,
            InspectCommand.self,
            SynthCommand.self,
            EvalCommand.self,
            TrainCommand.self,
            BenchCommand.self,
            KeysCommand.self,
        ]
    )
}

import ArgumentParser
import PitchsideNodes
import PitchsidePose

/// Options every worker process shares.
struct WorkerOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Consumer id, unique per process; a restarted worker reuses it (default: the role, plus the shard).", valueName: "id"))
    var id: String?

    @Option(name: .customLong("follow"), parsing: .singleValue,
            help: ArgumentHelp("A stream to follow; repeatable (default: the configured stream). 'all' follows every stream.", valueName: "stream"))
    var streams: [String] = []

    @Option(help: "Frames capture may publish ahead of this worker in lockstep.")
    var window = 4

    @Option(help: ArgumentHelp("Frames kept waiting for this worker (default: enough for lockstep). Live clusters keep 2: a worker that falls behind then loses old frames rather than analysing stale ones.", valueName: "frames"))
    var queue: Int?

    @Flag(help: "Exit after the end-of-stream marker (used by `pitchside analyze`).")
    var exitAtEnd = false

    func nodeOptions(role: String, rendition: String, stream: String, shard: ShardSelector = .all) -> WorkerNode.Options {
        var options = WorkerNode.Options(role: role, rendition: rendition,
                                         consumerID: id ?? (shard.count > 1 ? "\(role)-\(shard.index)of\(shard.count)" : role))
        options.streams = streams.contains("all") ? [] : (streams.isEmpty ? [stream] : streams)
        options.window = window
        options.receiveQueue = queue.map { max(1, $0) }
        options.shard = shard
        options.exitAtEndOfStream = exitAtEnd
        return options
    }
}

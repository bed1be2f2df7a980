import ArgumentParser
import PitchsideCore
import PitchsideNodes
import PitchsidePose

/// `pitchside worker pose`: BlazePose on the RGB rendition, optionally one shard of the frames.
struct PoseWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pose",
        abstract: "Find the thrower's body pose (BlazePose on LiteRT) and push pose observations.",
        discussion: """
            Scale out within a stream by sharding frames: two workers with --shard 0/2 and --shard 1/2
            together take every frame exactly once. Needs the model files: run ops/setup.
            """
    )

    @OptionGroup var cluster: ClusterOptions
    @OptionGroup var worker: WorkerOptions

    @Option(help: "Rendition to subscribe to.")
    var rendition = "rgb"

    @Option(help: ArgumentHelp("Take frames with seq mod N == k.", valueName: "k/N"))
    var shard = "0/1"

    @Option(help: "Inference threads.")
    var threads = 1

    @Option(help: ArgumentHelp("Analyse every N-th frame while the body moves slowly, every frame while the wrists move fast.",
                               valueName: "N"))
    var every = 1

    @Option(help: "People tracked at once (1: only the first one found; the game picks the thrower among them).")
    var maxPeople = PoseEstimator.Configuration.defaultMaxPeople

    func run() throws {
        let configuration = try cluster.resolve()
        let logger = Logs.logger("pitchside.pose", level: configuration.logLevel)
        let selector: ShardSelector
        do { selector = try ShardSelector(parsing: shard) } catch { throw ValidationError("\(error)") }
        guard threads >= 1 else { throw ValidationError("--threads must be at least 1") }
        guard every >= 1 else { throw ValidationError("--every must be at least 1") }
        guard maxPeople >= 1 else { throw ValidationError("--max-people must be at least 1") }
        let assets: PoseAssets
        do { assets = try PoseAssets.default().checked() } catch { fail("\(error)") }
        var estimators: [String: PoseEstimator] = [:]  // tracking state is per stream
        var cadences: [String: PoseCadence] = [:]
        var skippedByCadence = 0
        var options = worker.nodeOptions(role: "pose", rendition: rendition, stream: configuration.stream, shard: selector)
        if selector.count > 1 && worker.id == nil { options.consumerID = "pose-\(selector.index)of\(selector.count)" }
        let producer = options.consumerID
        let node = WorkerNode(options: options, endpoints: configuration.endpoints, logger: logger) { frame in
            if estimators[frame.streamID] == nil {
                do {
                    estimators[frame.streamID] = try PoseEstimator(
                        assets: assets, configuration: .init(threads: threads, maxPeople: maxPeople))
                } catch {
                    logger.error("cannot load the pose model: \(error)")
                    return []
                }
            }
            // `every` counts this worker's own frames: a shard sees every N-th frame of the stream.
            var cadence = cadences[frame.streamID] ?? PoseCadence(every: every * selector.count)
            defer { cadences[frame.streamID] = cadence }
            // A skipped frame gets no observation (its FrameDone still goes): the game fills it in.
            guard cadence.shouldAnalyse(seq: frame.seq, ptsUs: frame.ptsUs) else {
                skippedByCadence += 1
                return []
            }
            let people = estimators[frame.streamID]!.processPeople(frame)
            cadence.record(people: people, seq: frame.seq, ptsUs: frame.ptsUs)
            return [PSWorkerResult.with {
                $0.pose = PSPoseObservation(people: people, frame: frame, producerID: producer, shard: selector)
            }]
        }
        let stop = StopFlag.onSignals()
        do {
            let report = try node.run(isCancelled: { stop.isRaised })
            logger.info("pose worker done: \(report.processed - skippedByCadence) frames analysed, \(skippedByCadence) passed over while the body moved slowly (\(report.skippedForShard) for other shards), \(report.dropped) lost, \(report.malformed) malformed")
        } catch {
            fail("\(error)")
        }
    }
}

import ArgumentParser
import PitchsideCore
import PitchsideNodes
import PitchsideVision

/// `pitchside worker detection`: board, hole and scale, scene stability, and the bag census.
struct DetectionWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detection",
        abstract: "Find the board and hole, judge scene stability, and count the bags at rest.",
        discussion: """
            Pushes a StabilityObservation every frame, a BoardObservation when the board is found, lost
            or searched for in vain (and again every --board-interval frames while known), and a
            BoardCensus when the bags at rest change.
            """
    )

    @OptionGroup var cluster: ClusterOptions
    @OptionGroup var worker: WorkerOptions

    @Option(help: "Rendition to subscribe to (colour helps the board and the census).")
    var rendition = "rgb"

    @Option(help: "Frames between repeats of a known board (so a restarted aggregator learns it).")
    var boardInterval = 30

    func run() throws {
        let configuration = try cluster.resolve()
        let logger = Logs.logger("pitchside.detection", level: configuration.logLevel)
        guard boardInterval >= 1 else { throw ValidationError("--board-interval must be at least 1") }
        let options = worker.nodeOptions(role: "detection", rendition: rendition, stream: configuration.stream)
        let producer = options.consumerID
        let interval = boardInterval
        var streams: [String: DetectionStream] = [:]
        let node = WorkerNode(options: options, endpoints: configuration.endpoints, logger: logger) { frame in
            if streams[frame.streamID] == nil {
                streams[frame.streamID] = DetectionStream(producerID: producer, boardInterval: interval)
            }
            return streams[frame.streamID]!.process(frame)
        }
        let stop = StopFlag.onSignals()
        do {
            let report = try node.run(isCancelled: { stop.isRaised })
            logger.info("detection worker done: \(report.processed) frames, \(report.results) results, \(report.dropped) lost, \(report.malformed) malformed")
        } catch {
            fail("\(error)")
        }
    }
}

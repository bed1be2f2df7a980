import ArgumentParser
import PitchsideCore
import PitchsideNodes
import PitchsideVision

/// `pitchside worker trajectory`: bag flights from the full-size YUV420P rendition (colour: a
/// bag can have the luma of the ground behind it).
struct TrajectoryWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trajectory",
        abstract: "Detect parabolic bag flights in the YUV420P (or GRAY8) frames and push trajectory observations."
    )

    @OptionGroup var cluster: ClusterOptions
    @OptionGroup var worker: WorkerOptions

    @Option(help: "Rendition to subscribe to: a YUV420P (colour) or GRAY8 (luma only) one.")
    var rendition = "yuv"

    @Option(help: "Points a track needs before it is reported (5 or more).")
    var trajectoryLength = 15

    @Option(help: "Smallest object diameter, as a fraction of the image width.")
    var minimumObjectSize: Double?

    @Option(help: "Largest object diameter, as a fraction of the image width.")
    var maximumObjectSize: Double?

    func run() throws {
        let configuration = try cluster.resolve()
        let logger = Logs.logger("pitchside.trajectory", level: configuration.logLevel)
        guard trajectoryLength >= 5 else { throw ValidationError("--trajectory-length must be at least 5") }
        var settings = TrajectoryConfiguration()
        settings.trajectoryLength = trajectoryLength
        if let minimumObjectSize { settings.minimumObjectSize = minimumObjectSize }
        if let maximumObjectSize { settings.maximumObjectSize = maximumObjectSize }
        var warnedAboutRGB = false
        var detectors: [String: TrajectoryDetector] = [:]  // one per stream: they are stateful
        let node = WorkerNode(options: worker.nodeOptions(role: "trajectory", rendition: rendition, stream: configuration.stream),
                              endpoints: configuration.endpoints, logger: logger) { frame in
            guard frame.image.layout != .rgb24 else {  // the wrong rendition: say so once, analyse nothing
                if !warnedAboutRGB { logger.error("rendition \(rendition) is RGB24; the trajectory worker reads YUV420P or GRAY8") }
                warnedAboutRGB = true
                return []
            }
            if detectors[frame.streamID] == nil { detectors[frame.streamID] = TrajectoryDetector(configuration: settings) }
            let observations = detectors[frame.streamID]!.process(frame)  // mutated in place, not copied
            let header = PSHeader(frame: frame, producerID: worker.id ?? "trajectory")
            return observations.map { observation in
                PSWorkerResult.with { $0.trajectory = PSTrajectoryObservation(observation, header: header) }
            }
        }
        let stop = StopFlag.onSignals()
        do {
            let report = try node.run(isCancelled: { stop.isRaised })
            logger.info("trajectory worker done: \(report.processed) frames, \(report.results) observations, \(report.dropped) lost, \(report.malformed) malformed")
        } catch {
            fail("\(error)")
        }
    }
}

import ArgumentParser
import Foundation
import PitchsideMedia
import PitchsideNodes

/// `pitchside capture`: decodes a video and publishes timestamped frames.
struct CaptureCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "capture",
        abstract: "Decode a video (file, camera device or URL) and publish frames.",
        discussion: """
            Publishes frame/<stream>/<rendition> on the frames endpoint. Pacing:
              live      at the media rate; a slow worker loses frames (counted through seq)
              lockstep  waits for credits from every registered worker; nothing is lost
              max       as fast as decoding allows
            Examples:
              pitchside capture --input game.mp4 --pacing lockstep --consumers 3
              pitchside capture --input /dev/video0                      (a V4L2 camera)
              pitchside capture --input-format v4l2 --input-option video_size=1280x720 --input /dev/video0
              pitchside capture --input-format lavfi --input testsrc2=size=1280x720:rate=30
              pitchside capture --input demo.mp4 --loop
            """
    )

    @OptionGroup var cluster: ClusterOptions

    @Option(name: .shortAndLong, help: ArgumentHelp("Video file, camera device or URL FFmpeg can open.", valueName: "path|url"))
    var input: String

    @Option(help: ArgumentHelp("FFmpeg input format for a device: v4l2 (cameras; implied by /dev/video*), lavfi (test sources), x11grab, ...", valueName: "name"))
    var inputFormat: String?

    @Option(name: .customLong("input-option"), parsing: .singleValue,
            help: ArgumentHelp("An option for the input format, e.g. video_size=1280x720 or framerate=30; repeatable.", valueName: "key=value"))
    var inputOptions: [String] = []

    @Option(help: "Pacing: live, lockstep or max.")
    var pacing: String = "live"

    @Flag(help: "Start the input again when it ends (demos).")
    var loop = false

    @Option(name: .customLong("rendition"), parsing: .singleValue,
            help: ArgumentHelp("A rendition to publish: NAME:FORMAT or NAME:FORMAT:MAXWIDTH, FORMAT gray8, rgb24 or yuv420p; repeatable (default gray:gray8, yuv:yuv420p and rgb:rgb24:1280; each is converted only while a consumer subscribes to it).", valueName: "spec"))
    var renditions: [String] = []

    @Option(help: "Lockstep: workers that must register before the first frame.")
    var consumers = 1

    @Option(help: "Lockstep: seconds to wait for them.")
    var consumerTimeout: Double = 60

    @Option(help: "Lockstep: seconds a silent worker may hold up capture before it is dropped.")
    var silenceTimeout: Double = 10

    @Option(help: "Stop after this many frames.")
    var maxFrames: Int?

    @Flag(help: "No progress line.")
    var quiet = false

    func run() throws {
        let configuration = try cluster.resolve()
        let logger = Logs.logger("pitchside.capture", level: configuration.logLevel)
        guard let pacing = Pacing(rawValue: pacing) else {
            throw ValidationError("pacing must be live, lockstep or max")
        }
        var options = CaptureNode.Options(input: input)
        options.inputFormat = inputFormat
        for pair in inputOptions {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw ValidationError("--input-option needs key=value, not '\(pair)'")
            }
            options.inputOptions[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
        options.streamID = configuration.stream
        options.pacing = pacing
        options.loop = loop
        options.expectedConsumers = consumers
        options.consumerTimeout = consumerTimeout
        options.silenceTimeout = silenceTimeout
        options.maxFrames = maxFrames
        options.progress = !quiet
        if !renditions.isEmpty {
            do { options.renditions = try renditions.map(RenditionSpec.parse) } catch { throw ValidationError("\(error)") }
        }
        let stop = StopFlag.onSignals()
        let node = CaptureNode(options: options, endpoints: configuration.endpoints, logger: logger)
        let report: CaptureNode.Report
        do {
            report = try node.run(isCancelled: { stop.isRaised })
        } catch {
            fail("\(error)")
        }
        for (id, account) in report.consumers.sorted(by: { $0.key < $1.key }) {
            let counts = account.counts.map { "\($0.received) received, \($0.dropped) lost of \(report.framesPublished) published; " } ?? ""
            logger.info("consumer \(id): \(counts)acknowledged through \(account.acknowledgedThrough)")
        }
        if !report.droppedConsumers.isEmpty {
            logger.warning("dropped for silence: \(report.droppedConsumers.joined(separator: ", "))")
        }
    }
}

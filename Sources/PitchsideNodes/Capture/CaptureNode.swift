import Foundation
import Logging
import PitchsideCore
import PitchsideMedia
import PitchsideTransport

/// The capture node: decodes a video (file, device or URL), converts each picture to the
/// renditions its consumers need, stamps `seq`, `pts_us` and capture time, and publishes
/// `frame/<stream>/<rendition>` on a PUB socket, paced `live`, `lockstep` or `max`.
///
/// ```swift
/// let node = try CaptureNode(options: options, endpoints: config.endpoints, logger: logger)
/// let report = try node.run(isCancelled: { stopping.value })
/// ```
public final class CaptureNode {
    /// Everything that decides what the node does.
    public struct Options: Sendable {
        public var input: String
        /// FFmpeg input format, for devices (`v4l2`, `lavfi`, `x11grab`); nil probes the input.
        public var inputFormat: String?
        /// Options for the input format or protocol (e.g. `video_size`, `framerate`).
        public var inputOptions: [String: String] = [:]
        public var streamID = "default"
        public var pacing: Pacing = .live
        /// Start the input again when it ends (demos); `pts_us` keeps increasing.
        public var loop = false
        public var renditions: [Rendition] = RenditionSpec.defaults
        /// Lockstep: consumers that must register before the first frame.
        public var expectedConsumers = 1
        /// Lockstep: how long to wait for them (seconds).
        public var consumerTimeout: Double = 60
        /// Lockstep: a consumer holding up the gate without a word for this long is dropped.
        public var silenceTimeout: Double = 10
        /// Frames a live subscriber may have queued before it loses frames.
        public var liveHighWaterMark = 8
        /// Stop after this many frames (all passes together); nil: the whole input.
        public var maxFrames: Int?
        public var progress = true
        public var producerID = "capture"
        public var decoderThreads = 1

        public init(input: String) { self.input = input }
    }

    /// What a run did.
    public struct Report: Sendable, Equatable {
        public var framesPublished = 0
        public var messagesPublished = 0
        public var bytesPublished = 0
        public var passes = 0
        public var seconds = 0.0
        public var corruptPackets = 0
        /// Consumers the credit gate dropped for silence (lockstep).
        public var droppedConsumers: [String] = []
        /// Per consumer: frames it acknowledged, frames it missed (published − acknowledged), and
        /// what it says it received and lost.
        public var consumers: [String: ConsumerAccount] = [:]
    }

    public struct ConsumerAccount: Sendable, Equatable {
        public var acknowledgedThrough: Int64
        public var missed: Int
        /// The consumer's own count of frames received and lost (gaps in seq), from its credits;
        /// after the end of stream `received + dropped` equals the frames published.
        public var counts: FrameCounts?
    }

    public let options: Options
    private let endpoints: Endpoints
    private var logger: Logger

    public init(options: Options, endpoints: Endpoints, logger: Logger) {
        self.options = options
        self.endpoints = endpoints
        self.logger = logger
    }

    /// Opens the input (a bad input fails here, before any socket is bound), then publishes
    /// until the input ends (without `loop`), `maxFrames` is reached, or `isCancelled()`.
    public func run(isCancelled: @escaping () -> Bool) throws -> Report {
        var sourceOptions = VideoSourceOptions()
        sourceOptions.threads = options.decoderThreads
        sourceOptions.inputFormat = options.inputFormat
        sourceOptions.formatOptions = options.inputOptions
        var source = try VideoSource(url: options.input, options: sourceOptions)
        let info = source.info
        logger.info("input \(options.input): \(info.width)×\(info.height) \(info.codecName) at \(String(format: "%.3g", info.framesPerSecond)) frames/s, pacing \(options.pacing.rawValue)")

        let context = try ZMQContext(ioThreads: 1)
        defer { context.shutdown() }
        let publisher = try context.socket(.pub)
        defer { publisher.close() }
        try publisher.set(.linger, 1000)
        let hwm = options.pacing == .live ? options.liveHighWaterMark : 100_000
        try publisher.setHighWaterMarks(send: hwm, receive: hwm)
        let framesEndpoint = try publisher.bind(endpoints.frames)
        let gate = try CreditGate(
            context: context, endpoint: endpoints.credits, publisher: publisher,
            configuration: .init(silenceTimeout: options.silenceTimeout), logger: logger)
        defer { gate.close() }
        logger.info("publishing frames on \(framesEndpoint), credits on \(gate.endpoint)")

        if options.pacing == .lockstep {
            logger.info("waiting for \(options.expectedConsumers) consumer(s) to register")
            guard try gate.waitForConsumers(count: options.expectedConsumers, timeout: options.consumerTimeout,
                                            isCancelled: isCancelled) else {
                if isCancelled() { return Report() }
                throw NodeError.noConsumers(
                    "lockstep: \(gate.consumers.count) of \(options.expectedConsumers) consumer(s) registered within \(Int(options.consumerTimeout)) s (are the workers running and pointed at \(endpoints.credits)?)")
            }
        }

        var report = Report()
        let started = WallClock.monotonicSeconds()
        var progress = ProgressLine(total: options.loop ? nil : info.estimatedFrameCount, enabled: options.progress)
        var seq: UInt64 = 0
        var ptsOffset: Int64 = 0
        var lastPts: Int64 = -1
        let frameInterval = Int64(1_000_000 / max(info.framesPerSecond, 1))
        var converter = RenditionConverter(renditions: options.renditions)
        var pacer = LivePacer()
        // Each rendition is converted straight into a pooled buffer and the message written
        // around it: the pixels are never copied again on their way to the socket.
        let buffers = FrameBufferPool()

        passes: while !isCancelled() {
            report.passes += 1
            while let picture = try source.nextPicture() {
                if isCancelled() { break passes }
                if let max = options.maxFrames, report.framesPublished >= max { break passes }
                let pts = picture.ptsUs + ptsOffset
                lastPts = pts
                switch options.pacing {
                case .lockstep:
                    let outcome = try gate.waitUntilAllowed(streamID: options.streamID, seq: seq, isCancelled: isCancelled)
                    if outcome == .cancelled { break passes }
                case .live:
                    pacer.wait(untilMediaTime: pts)
                    try gate.pump(timeout: 0)
                case .max:
                    try gate.pump(timeout: 0)
                }
                let needed = neededRenditions(gate: gate)
                let captureTime = WallClock.nowUnixUs()
                for rendition in needed {
                    let size = converter.size(of: rendition, for: picture)
                    let buffer = buffers.take(pixelCount: rendition.layout.byteCount(
                        stride: size.width * rendition.layout.bytesPerPixel, height: size.height))
                    try converter.write(picture, rendition: rendition, into: buffer.pixels)
                    try buffer.encode(PSFrame(
                        streamID: options.streamID, seq: seq, ptsUs: pts, captureUnixUs: captureTime,
                        rendition: rendition.name, layout: rendition.layout, width: size.width, height: size.height,
                        producerID: options.producerID, sourceWidth: picture.width, sourceHeight: picture.height,
                        frameRate: info.framesPerSecond))
                    try publisher.send(topic: Topic.frame(stream: options.streamID, rendition: rendition.name), frame: buffer)
                    report.messagesPublished += 1
                    report.bytesPublished += buffer.pixelCount
                }
                report.framesPublished += 1
                seq += 1
                progress.update(published: report.framesPublished, extra: consumerSummary(gate: gate))
            }
            report.corruptPackets += source.statistics.corruptPackets
            guard options.loop else { break }
            // Start again; media time continues where the last pass ended.
            ptsOffset = lastPts + frameInterval
            source = try VideoSource(url: options.input, options: sourceOptions)
            converter = RenditionConverter(renditions: options.renditions)
        }
        progress.update(published: report.framesPublished, extra: consumerSummary(gate: gate), force: true)
        progress.finish()

        if options.pacing != .lockstep && seq > 0 {
            try waitForConsumersToDrain(gate: gate, lastSeq: seq - 1, isCancelled: isCancelled)
        }
        try publishEndOfStream(publisher: publisher, lastSeq: seq == 0 ? 0 : seq - 1, lastPts: max(lastPts, 0))
        if options.pacing == .lockstep && seq > 0 {
            try waitForFinalCredits(gate: gate, lastSeq: seq - 1, isCancelled: isCancelled)
        }
        if seq > 0 {
            try waitForFinalCounts(gate: gate, published: Int(seq), isCancelled: isCancelled)
        }
        report.seconds = WallClock.monotonicSeconds() - started
        report.droppedConsumers = gate.droppedConsumers
        let everyConsumer = gate.departedConsumers.merging(gate.ledger.consumers) { _, current in current }
        for consumer in everyConsumer.values where consumer.wants(streamID: options.streamID) {
            let through = consumer.ackedThrough[options.streamID] ?? -1
            report.consumers[consumer.id] = ConsumerAccount(
                acknowledgedThrough: through, missed: max(0, Int(seq) - Int(through + 1)),
                counts: consumer.counts[options.streamID])
        }
        logger.info("published \(report.framesPublished) frames (\(report.messagesPublished) messages, \(String(format: "%.1f", Double(report.bytesPublished) / 1e6)) MB) in \(String(format: "%.2f", report.seconds)) s")
        return report
    }

    /// Renditions somebody wants: in lockstep, those a registered consumer subscribed to
    /// (unrequested renditions are never converted or sent); otherwise every configured one.
    private func neededRenditions(gate: CreditGate) -> [Rendition] {
        let consumers = gate.ledger.consumers.values.filter(\.isSynchronised)
        guard options.pacing == .lockstep, !consumers.isEmpty else { return options.renditions }
        let prefixes = consumers.flatMap(\.subscriptions)
        if prefixes.isEmpty { return options.renditions }
        return options.renditions.filter { rendition in
            let topic = Topic.frame(stream: options.streamID, rendition: rendition.name).string
            return prefixes.contains { topic.hasPrefix($0) }
        }
    }

    private func publishEndOfStream(publisher: ZMQSocket, lastSeq: UInt64, lastPts: Int64) throws {
        for rendition in options.renditions {
            var eos = PSFrame()
            eos.header.streamID = options.streamID
            eos.header.seq = lastSeq
            eos.header.ptsUs = lastPts
            eos.header.producerID = options.producerID
            eos.header.producedUnixUs = WallClock.nowUnixUs()
            eos.rendition = rendition.name
            eos.endOfStream = true
            _ = try publisher.send(eos, topic: Topic.frame(stream: options.streamID, rendition: rendition.name))
        }
    }

    /// Live: PUB drops a message for a subscriber whose queue is full, so the end-of-stream
    /// marker waits until every consumer has finished the last frame or stopped advancing
    /// (its queue is empty; the frames it lacks were lost at its high-water mark and are counted).
    private func waitForConsumersToDrain(gate: CreditGate, lastSeq: UInt64, isCancelled: () -> Bool) throws {
        let deadline = WallClock.monotonicSeconds() + options.silenceTimeout
        var lastProgress: [String: (Int64, Double)] = [:]
        while WallClock.monotonicSeconds() < deadline && !isCancelled() {
            try gate.pump(timeout: 0.05)
            let now = WallClock.monotonicSeconds()
            var busy = false
            for consumer in gate.ledger.consumers.values where consumer.isSynchronised && consumer.wants(streamID: options.streamID) {
                let acked = consumer.ackedThrough[options.streamID] ?? -1
                if acked >= Int64(lastSeq) { continue }
                if let (previous, since) = lastProgress[consumer.id], previous == acked {
                    if now - since < 0.5 { busy = true }
                } else {
                    lastProgress[consumer.id] = (acked, now)
                    busy = true
                }
            }
            if !busy { return }
        }
    }

    /// Each consumer's own figures, for the progress line: `trajectory 120 received/3 lost`.
    private func consumerSummary(gate: CreditGate) -> String {
        gate.ledger.consumers.values
            .filter { $0.isSynchronised && $0.wants(streamID: options.streamID) }
            .sorted { $0.id < $1.id }
            .map { consumer in
                let counts = consumer.counts[options.streamID] ?? FrameCounts(received: 0, dropped: 0)
                return "\(consumer.id) \(counts.received) received/\(counts.dropped) lost"
            }
            .joined(separator: ", ")
    }

    /// After the end-of-stream marker each consumer sends its final counts (received + lost =
    /// published); wait briefly for them so the report holds every consumer's whole account.
    private func waitForFinalCounts(gate: CreditGate, published: Int, isCancelled: () -> Bool) throws {
        let deadline = WallClock.monotonicSeconds() + min(2, options.silenceTimeout)
        while WallClock.monotonicSeconds() < deadline && !isCancelled() {
            let pending = gate.ledger.consumers.values.filter {
                $0.isSynchronised && $0.wants(streamID: options.streamID)
                    && ($0.counts[options.streamID]?.total ?? 0) < published
            }
            if pending.isEmpty { return }
            try gate.pump(timeout: 0.05)
        }
    }

    /// Lockstep: the run is over once every consumer finished the last frame (or was dropped).
    private func waitForFinalCredits(gate: CreditGate, lastSeq: UInt64, isCancelled: () -> Bool) throws {
        let deadline = WallClock.monotonicSeconds() + options.silenceTimeout
        while WallClock.monotonicSeconds() < deadline && !isCancelled() {
            let pending = gate.ledger.consumers.values.filter {
                $0.isSynchronised && $0.wants(streamID: options.streamID)
                    && ($0.ackedThrough[options.streamID] ?? -1) < Int64(lastSeq)
            }
            if pending.isEmpty { return }
            try gate.pump(timeout: 0.05)
        }
    }
}

/// Sleeps so that frames leave at their media time (live pacing).
struct LivePacer {
    private var origin: (wall: Double, media: Int64)?

    mutating func wait(untilMediaTime ptsUs: Int64) {
        let now = WallClock.monotonicSeconds()
        guard let origin else {
            self.origin = (now, ptsUs)
            return
        }
        let due = origin.wall + Double(ptsUs - origin.media) / 1e6
        if due > now { usleep(UInt32(min((due - now) * 1e6, 1e6))) }
    }
}

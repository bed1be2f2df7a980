import Foundation
import Logging
import PitchsideCore
import PitchsidePose
import PitchsideTransport

/// The shell every analysis worker runs in: subscribe to one rendition of the frames,
/// decode, hand the frame to the analyser, push its results (and a `FrameDone` so the
/// aggregator's watermark advances), acknowledge the frame on the credit channel, and
/// account for everything (gaps, malformed messages) in a heartbeat once a second.
///
/// Results leave through a `ResultOutbox`: numbered, and kept until the aggregator's
/// receipt (`ack/_/<id>` on the control endpoint) says they are in its durable log, so a
/// restarted aggregator gets again whatever it lost. A full outbox (an aggregator down for
/// minutes) stops the worker taking frames, which in lockstep holds the capture node too.
///
/// The analyser is a closure over a pure, stateful analysis type; the node knows nothing of
/// what it computes:
///
/// ```swift
/// var detector = TrajectoryDetector()
/// let node = WorkerNode(options: .init(role: "trajectory", rendition: "gray"), endpoints: endpoints, logger: logger) {
///     frame in detector.process(frame).map { PSWorkerResult.with { $0.trajectory = $0.wire } }
/// }
/// try node.run(isCancelled: { stop.value })
/// ```
public final class WorkerNode {
    public struct Options: Sendable {
        /// What the worker is ("trajectory", "pose", "detection"); names results and heartbeats.
        public var role: String
        /// The rendition it subscribes to ("gray", "rgb").
        public var rendition: String
        /// Streams to follow; empty: every stream.
        public var streams: [String] = []
        /// Unique per process; a restarted process reuses it to take over its place at the gate.
        public var consumerID: String
        /// Frames the capture node may publish ahead of this worker (lockstep).
        public var window = 4
        /// Frames kept waiting in the subscriber; nil: enough for lockstep (which loses frames
        /// when the mark is near the credit window). A live cluster keeps 2, so a worker that
        /// falls behind loses old frames instead of analysing ever staler ones.
        public var receiveQueue: Int?
        /// Process only frames with `seq % count == index` (sharding within a stream).
        public var shard = ShardSelector.all
        /// Exit after the end-of-stream marker of every followed stream (`pitchside analyze`).
        public var exitAtEndOfStream = false
        public var heartbeatInterval: Double = 1
        /// Results kept for the aggregator until it logs them.
        public var outboxCapacity = 20_000
        /// At the end of the stream (`exitAtEndOfStream`), how long to wait for the last receipts.
        public var finalReceiptTimeout: Double = 10

        public init(role: String, rendition: String, consumerID: String? = nil) {
            self.role = role
            self.rendition = rendition
            self.consumerID = consumerID ?? role
        }
    }

    /// What a run did.
    public struct Report: Sendable, Equatable {
        public var processed = 0
        public var skippedForShard = 0
        public var results = 0
        public var dropped = 0
        public var malformed = 0
        public var endOfStreams = 0
        /// Results sent again because the aggregator restarted or missed them.
        public var resent = 0
        /// Results the aggregator had not logged when the worker exited.
        public var unacknowledged = 0
    }

    public typealias Analyse = (VideoFrame) -> [PSWorkerResult]

    public let options: Options
    private let endpoints: Endpoints
    private let logger: Logger
    private let analyse: Analyse
    private var gaps: [String: SequenceGapCounter] = [:]

    public init(options: Options, endpoints: Endpoints, logger: Logger, analyse: @escaping Analyse) {
        self.options = options
        self.endpoints = endpoints
        self.logger = logger
        self.analyse = analyse
    }

    public func run(isCancelled: @escaping () -> Bool) throws -> Report {
        LargeMessageMemory.reuseFreedBlocks()  // frames arrive in megabyte blocks; reuse them
        let context = try ZMQContext(ioThreads: 1)
        defer { context.shutdown() }
        let subscriber = try context.socket(.sub)
        defer { subscriber.close() }
        try subscriber.set(.linger, 0)
        // Far above the credit window: libzmq loses lockstep frames when the SUB's mark is near it.
        let mark = options.receiveQueue ?? CreditGate.recommendedHighWaterMark(window: options.window)
        try subscriber.setHighWaterMarks(send: mark, receive: mark)
        try subscriber.connect(endpoints.frames)
        let pusher = try context.socket(.push)
        defer { pusher.close() }
        try pusher.set(.linger, 1000)  // queued results get a moment to leave; a dead aggregator must not hold up shutdown
        try pusher.setHighWaterMarks(send: 100_000, receive: 1000)
        try pusher.connect(endpoints.results)
        let receipts = try context.socket(.sub)
        defer { receipts.close() }
        try receipts.set(.linger, 0)
        try receipts.connect(endpoints.control)
        try receipts.subscribe(Topic.prefix(.ack, stream: "_", name: options.consumerID))
        let waitForReceipts = ZMQPoller()
        waitForReceipts.add(receipts)
        var outbox = ResultOutbox(producerID: options.consumerID, capacity: options.outboxCapacity)
        // Hands what the socket takes to it (never blocking: the rest waits in the outbox),
        // after taking the receipts that arrived.
        let deliver = { [logger] in
            while let parts = try receipts.receive(timeout: 0) {
                guard let payload = parts.last, let ack = try? PSResultsAck(serializedBytes: payload) else { continue }
                if outbox.receive(ack, now: WallClock.monotonicSeconds()) {
                    logger.info("aggregator asks for results from \(ack.next) again (it restarted or missed them)")
                }
            }
            while let (topic, result) = outbox.nextToSend() {
                guard try pusher.send(result, topic: topic, dontWait: true) else { break }
                outbox.didSend()
            }
        }

        let prefixes = options.streams.isEmpty
            ? [Topic.prefix(.frame)]
            : options.streams.map { Topic.frame(stream: $0, rendition: options.rendition).string }
        let credits = try CreditClient(context: context, endpoint: endpoints.credits, consumerID: options.consumerID,
                                       subscriptions: prefixes, window: options.window, subscriber: subscriber)
        defer {
            try? credits.goodbye()
            credits.close()
        }
        let receiver = MessageReceiver<FrameView>(socket: subscriber, credits: credits)  // pixels viewed in place, copied once into the VideoFrame
        receiver.onReject = { [logger] rejection in logger.warning("skipped a message: \(rejection)") }
        logger.info("\(options.role) worker \(options.consumerID) following \(prefixes.joined(separator: ", ")) on \(endpoints.frames), results to \(endpoints.results)\(options.shard.count > 1 ? ", shard \(options.shard)" : "")")

        var report = Report()
        var lastHeartbeat = WallClock.monotonicSeconds()
        var endedStreams = Set<String>()
        var finished = false
        while !isCancelled() && !finished {
            if WallClock.monotonicSeconds() - lastHeartbeat >= options.heartbeatInterval {
                try sendHeartbeat(pusher, report: report, stats: receiver.stats)
                lastHeartbeat = WallClock.monotonicSeconds()
            }
            try deliver()
            if outbox.isFull {
                // The aggregator has not logged the last `outboxCapacity` results: take no frame.
                try waitForReceipts.poll(timeout: 0.1)
                continue
            }
            guard let received = try receiver.receive(timeout: outbox.unsent > 0 ? 0.02 : 0.25) else { continue }
            let wire = received.message
            // Other renditions of a followed stream (when following every stream) are not ours.
            guard received.topic.name == options.rendition else { continue }
            let streamID = wire.header.streamID
            if wire.endOfStream {
                gaps[streamID, default: SequenceGapCounter()].finish(lastSeq: wire.header.seq)
                try? credits.acknowledgeEndOfStream(streamID: streamID, lastSeq: wire.header.seq, counts: gaps[streamID]!)
                report.endOfStreams += 1
                endedStreams.insert(streamID)
                report.dropped = gaps.values.reduce(0) { $0 + $1.dropped }
                var done = PSWorkerResult()
                done.frameDone = PSFrameDone.with {
                    $0.header = wire.header
                    $0.header.producerID = options.consumerID
                    $0.role = options.role
                    $0.endOfStream = true
                }
                outbox.append(done, topic: Topic.result(stream: streamID, kind: options.role).string)
                try deliver()
                try sendHeartbeat(pusher, report: report, stats: receiver.stats)
                logger.info("end of stream \(streamID): processed \(report.processed), lost \(gaps[streamID]?.dropped ?? 0)")
                if options.exitAtEndOfStream && (options.streams.isEmpty || Set(options.streams).isSubset(of: endedStreams)) {
                    finished = true
                }
                continue
            }
            gaps[streamID, default: SequenceGapCounter()].record(wire.header.seq)
            report.dropped = gaps.values.reduce(0) { $0 + $1.dropped }
            defer { try? credits.acknowledge(streamID: streamID, seq: wire.header.seq, counts: gaps[streamID]) }
            guard options.shard.accepts(seq: wire.header.seq) else {
                report.skippedForShard += 1
                continue
            }
            let frame: VideoFrame
            do {
                frame = try wire.videoFrame()
            } catch {
                report.malformed += 1
                logger.warning("skipped frame \(streamID)/\(wire.header.seq): \(error)")
                continue
            }
            let results = analyse(frame)
            let topic = Topic.result(stream: streamID, kind: options.role).string
            for result in results { outbox.append(result, topic: topic) }
            var done = PSWorkerResult()
            done.frameDone = PSFrameDone.with {
                $0.header = PSHeader(frame: frame, producerID: options.consumerID)
                $0.role = options.role
            }
            outbox.append(done, topic: topic)
            try deliver()
            report.results += results.count
            report.processed += 1
        }
        // Leaving at the end of the stream: wait (a while) until the aggregator has logged everything.
        if finished {
            let deadline = WallClock.monotonicSeconds() + options.finalReceiptTimeout
            while !outbox.isEmpty && !isCancelled() && WallClock.monotonicSeconds() < deadline {
                try waitForReceipts.poll(timeout: 0.05)
                try deliver()
            }
        }
        report.resent = outbox.counters.resent
        report.unacknowledged = outbox.count
        if outbox.count > 0 {
            logger.warning("exiting with \(outbox.count) result(s) the aggregator has not logged")
        }
        report.malformed += receiver.stats.rejected
        try? sendHeartbeat(pusher, report: report, stats: receiver.stats)
        return report
    }

    private func sendHeartbeat(_ pusher: ZMQSocket, report: Report, stats: MessageStats) throws {
        var beat = PSWorkerResult()
        beat.heartbeat = PSHeartbeat.with {
            $0.producerID = options.consumerID
            $0.role = options.role
            $0.unixUs = WallClock.nowUnixUs()
            $0.processed = UInt64(report.processed)
            $0.dropped = UInt64(report.dropped)
            $0.malformed = UInt64(report.malformed + stats.rejected)
            $0.lastSeq = gaps.values.compactMap(\.highest).max() ?? 0
        }
        _ = try pusher.send(beat, topic: Topic.result(stream: "_", kind: "heartbeat"), dontWait: true)
    }
}

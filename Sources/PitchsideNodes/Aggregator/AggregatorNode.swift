import Foundation
import Logging
import PitchsideCore
import PitchsideGame
import PitchsideTransport

/// The aggregator: PULLs worker results, merges them per stream in media-time order,
/// runs one game per stream, appends every event to the durable log *before* publishing
/// it on the score stream (`game/<stream>/<event>`), and answers snapshot and history
/// queries on a ROUTER (the ZeroMQ guide's Clone pattern, server side).
///
/// Restarted after a crash, it restores every game from its log and continues the event
/// sequence. Workers number their results and keep them until a receipt on the control
/// endpoint (`ack/_/<producer>`) says they are logged (`DeliveryTracker` here,
/// `ResultOutbox` in the workers): what was lost with the dead process, or queued while it
/// was down, is sent again from where its log stands, and taken exactly once.
public final class AggregatorNode {
    public struct Options: Sendable {
        /// SQLite file of the durable game log.
        public var databasePath: String
        /// Worker roles whose progress moves each stream's watermark.
        public var expectedRoles: Set<String> = ["detection", "trajectory", "pose"]
        /// Streams served; nil: any.
        public var knownStreams: Set<String>?
        public var game = GameConfiguration()
        /// Throw-type classifier of every game (default: the compiled-in trained model).
        public var classifier: any ThrowTypeClassifier = LearnedThrowTypeClassifier()
        /// Return once every expected role has reported the end of every stream seen (`analyze`).
        public var exitAtEndOfStream = false
        /// A worker silent this long is reported (seconds).
        public var silentWorkerWarning: Double = 5
        public var producerID = "aggregator"
        /// How often receipts go to the workers (seconds).
        public var ackInterval: Double = 0.2
        /// Also keep every result handed to the games, in order, in this file (`KeptResults`), for
        /// `pitchside replay`. Written after each commit to the log: an aggregator killed between the
        /// two leaves the file a result or so short of the log.
        public var keepResultsPath: String?

        public init(databasePath: String) { self.databasePath = databasePath }
    }

    /// What a run did.
    public struct Report: Sendable, Equatable {
        public var results = 0
        public var rejected = 0
        public var events = 0
        public var queries = 0
        public var late = 0
        /// Numbered results taken again (resent, or queued while the aggregator was down).
        public var redelivered = 0
        /// Numbered results dropped because earlier ones were missing (sent again later).
        public var outOfSequence = 0
        /// Capture to aggregator: from a frame's capture until every expected role reported it done.
        public var latency: FrameLatency.Summary?
    }

    public let options: Options
    private let endpoints: Endpoints
    private let logger: Logger
    private let onEvent: (PSGameEvent) -> Void

    /// `onEvent` sees every published event (e.g. `pitchside analyze` prints them).
    public init(options: Options, endpoints: Endpoints, logger: Logger, onEvent: @escaping (PSGameEvent) -> Void = { _ in }) {
        self.options = options
        self.endpoints = endpoints
        self.logger = logger
        self.onEvent = onEvent
    }

    public func run(isCancelled: @escaping () -> Bool) throws -> Report {
        let log = try EventLog(path: options.databasePath)
        let gameConfiguration = options.game
        let recorder = try GameRecorder(log: log, configuration: { _ in gameConfiguration }, classifier: options.classifier)
        let kept = try options.keepResultsPath.map { try KeptResults.Writer(path: $0) }
        var merger = ResultMerger(expectedRoles: options.expectedRoles, knownStreams: options.knownStreams)
        for (stream, game) in recorder.games {
            if let mark = game.resumeAfterPtsUs { merger.resume(stream: stream, afterPts: mark) }
            logger.info("restored stream \(stream): game \(game.snapshot().gameIndex), event \(game.snapshot().lastEventSeq), \(String(describing: game.state))")
        }

        let context = try ZMQContext()
        defer { context.shutdown() }
        let pull = try context.socket(.pull)
        defer { pull.close() }
        try pull.set(.linger, 0)
        try pull.setHighWaterMarks(send: 1000, receive: 100_000)
        let resultsEndpoint = try pull.bind(endpoints.results)
        let pub = try context.socket(.pub)
        defer { pub.close() }
        try pub.set(.linger, 1000)
        try pub.setHighWaterMarks(send: 100_000, receive: 1000)
        let eventsEndpoint = try pub.bind(endpoints.events)
        let router = try context.socket(.router)
        defer { router.close() }
        try router.set(.linger, 0)
        let queriesEndpoint = try router.bind(endpoints.queries)
        let control = try context.socket(.pub)
        defer { control.close() }
        try control.set(.linger, 1000)
        let controlEndpoint = try control.bind(endpoints.control)
        logger.info("aggregating results from \(resultsEndpoint), events on \(eventsEndpoint), queries on \(queriesEndpoint), receipts on \(controlEndpoint), log \(options.databasePath)")

        // Receipts: which numbered results are durable, and where each worker resends from.
        let aggregatorEpoch = UInt64.random(in: 1...UInt64.max)
        var delivery = DeliveryTracker(restoring: try log.deliveryMarks())
        var durable = delivery.marks()
        var lastAck = 0.0
        let sendAcks = {
            for ack in delivery.acks(aggregatorEpoch: aggregatorEpoch, durable: durable) {
                _ = try control.send(topic: "ack/_/\(ack.producerID)", payload: try ack.serializedData(), dontWait: true)
            }
            lastAck = WallClock.monotonicSeconds()
        }
        // Handles released results and logs them with the delivery marks they settle.
        let commit = { (results: [PSWorkerResult]) throws -> [PSGameEvent] in
            for r in results { delivery.finish(r) }
            let marks = delivery.marks()
            let events = try recorder.handle(results, nowUnixUs: WallClock.nowUnixUs(), deliveries: marks)
            durable = marks
            try kept?.append(results)
            return events
        }

        var report = Report()
        let publish: ([PSGameEvent]) throws -> Void = { events in
            for event in events {
                _ = try pub.send(event, topic: Topic.game(stream: event.streamID, event: Self.topicName(event)))
                report.events += 1
                self.onEvent(event)
            }
        }
        // Events the restore had to recover are logged already; publish them now.
        try publish(recorder.recoveredEvents)

        let receiver = MessageReceiver<PSWorkerResult>(socket: pull, maxPayloadBytes: ResultDecoder.maxBytes)
        receiver.onReject = { [logger] rejection in logger.warning("skipped a result: \(rejection)") }
        let poller = ZMQPoller()
        poller.add(pull)
        poller.add(router)
        var lastHeard: [String: Double] = [:]
        var warnedSilent = Set<String>()
        var ended: [String: Set<String>] = [:]
        var endMarkers: [String: [PSWorkerResult]] = [:]  // pending until the stream's end is logged
        var endPts: [String: Int64] = [:]
        var finishedStreams = Set<String>()
        var refusedStreams = Set<String>()
        var latency = FrameLatency(roles: options.expectedRoles)

        while !isCancelled() {
            _ = try poller.poll(timeout: 0.25)
            if poller.isReadable(router) {
                while let parts = try router.receive(timeout: 0) {
                    report.queries += 1
                    try answer(parts, router: router, games: recorder.games, log: log)
                }
            }
            let now = WallClock.monotonicSeconds()
            if now - lastAck >= options.ackInterval { try sendAcks() }
            for (producer, heard) in lastHeard where now - heard > options.silentWorkerWarning && !warnedSilent.contains(producer) {
                warnedSilent.insert(producer)
                logger.warning("worker \(producer) has been silent for \(Int(now - heard)) s")
            }
            guard poller.isReadable(pull) else { continue }
            var batch: [PSWorkerResult] = []
            var drained = 0
            while drained < 1000, let received = try receiver.receive(timeout: 0) {
                drained += 1
                let result = received.message
                report.results += 1
                if case .heartbeat(let beat)? = result.result {
                    if warnedSilent.remove(beat.producerID) != nil { logger.info("worker \(beat.producerID) is back") }
                    lastHeard[beat.producerID] = now
                    continue
                }
                switch delivery.admit(result) {
                case .duplicate:
                    report.redelivered += 1
                    continue
                case .gap:
                    report.outOfSequence += 1
                    continue
                case .accepted, .unsequenced:
                    break
                }
                if case .frameDone(let done)? = result.result {
                    lastHeard[done.header.producerID] = now
                    latency.frameDone(stream: done.header.streamID, role: done.role, ptsUs: done.header.ptsUs,
                                      captureUnixUs: done.header.captureUnixUs, nowUnixUs: WallClock.nowUnixUs())
                    if done.endOfStream {
                        ended[done.header.streamID, default: []].insert(done.role)
                        endMarkers[done.header.streamID, default: []].append(result)
                        endPts[done.header.streamID] = max(endPts[done.header.streamID] ?? 0, done.header.ptsUs)
                        continue
                    }
                }
                let out = merger.add(result)
                if let rejection = out.rejected {
                    report.rejected += 1
                    delivery.finish(result)
                    if rejection == .unknownStream, refusedStreams.count < 100, let stream = result.resultHeader?.streamID,
                       refusedStreams.insert(stream).inserted {
                        logger.warning("refusing results of stream \(stream): not one of \(options.knownStreams?.sorted() ?? [])")
                    }
                }
                report.late += out.late.count
                batch += out.released + out.late
            }
            if !batch.isEmpty { try publish(try commit(batch)) }

            // A stream whose every expected worker has ended: release what is buffered, finish the game.
            for (stream, roles) in ended where options.expectedRoles.isSubset(of: roles) && !finishedStreams.contains(stream) {
                finishedStreams.insert(stream)
                let rest = merger.flush(stream: stream)
                if !rest.isEmpty { try publish(try commit(rest)) }
                for marker in endMarkers.removeValue(forKey: stream) ?? [] { delivery.finish(marker) }
                let marks = delivery.marks()
                try publish(try recorder.endOfStream(stream, ptsUs: endPts[stream] ?? 0, nowUnixUs: WallClock.nowUnixUs(),
                                                     deliveries: marks))
                try kept?.appendEnd(stream: stream, ptsUs: endPts[stream] ?? 0)
                durable = marks
                try sendAcks()
                logger.info("stream \(stream) ended")
            }
            if options.exitAtEndOfStream && !finishedStreams.isEmpty && finishedStreams.isSuperset(of: ended.keys) {
                break
            }
        }
        try? sendAcks()  // the workers waiting to exit learn that everything is logged
        if delivery.counters.unrecoverable > 0 {
            logger.warning("\(delivery.counters.unrecoverable) result(s) could not be sent again by their workers (outbox overflow or a lost log)")
        }
        report.rejected = receiver.stats.rejected + Int(merger.total.unknownStream + merger.total.missingStream)
        for (stream, game) in recorder.games.sorted(by: { $0.key < $1.key }) {
            logger.info("stream \(stream): \(game.counters), trajectories \(game.assemblerCounters), merge \(merger.perStream[stream] ?? MergerCounters())")
        }
        logger.info("delivery: \(delivery.counters)")
        report.latency = latency.summary()
        if let summary = report.latency { logger.info("frame latency, capture to aggregator: \(summary)") }
        return report
    }

    /// Replies to one query: [identity, request] → [identity, reply].
    private func answer(_ parts: [Data], router: ZMQSocket, games: [String: Game], log: EventLog) throws {
        guard parts.count >= 2 else { return }
        let reply: PSQueryReply
        if let request = try? PSQueryRequest(serializedBytes: parts[parts.count - 1]) {
            reply = QueryService.answer(request, games: games, history: log)
        } else {
            reply = PSQueryReply.with { $0.error = "the query does not decode as pitchside.v1.QueryRequest" }
        }
        _ = try router.send([parts[0], try reply.serializedData()], dontWait: true)
    }

    /// The last segment of an event's topic: `game/<stream>/<this>`.
    static func topicName(_ event: PSGameEvent) -> String {
        switch event.event {
        case .stateChanged: return "state"
        case .throwCompleted: return "throw"
        case .scoreUpdate: return "score"
        case .summary: return "summary"
        case nil: return "event"
        }
    }
}

import Foundation
import PitchsidePose
import XCTest

/// A short synthetic game played twice by real clusters of `pitchside` processes, side by
/// side: once uninterrupted, with a subscriber that joins late; once with the aggregator
/// killed (SIGKILL) mid-game and restarted on the same log while the workers go on. The
/// killed run must end with the same events, totals included, as the uninterrupted one, and
/// its subscriber must see each event exactly once, in order.
final class RecoveryTests: XCTestCase {
    /// Seed 5006 at 640×360, 30 frames/s: 416 frames (14 s), two throws, both found (events 9–12
    /// and 13–16); a one-thread pose worker keeps up with about 25 frames/s in a debug build.
    static let seed = 5006
    static let synthArguments = ["--size", "640x360", "--fps", "30", "--throws", "2", "--players", "1",
                                 "--settle", "0", "--negative-rate", "0", "--side", "left"]
    /// Events before the kill and before the late subscriber joins: the set-up and the first
    /// throw are done (12: tracking throws again), the second throw is still to come.
    static let eventsBeforeKill = 12
    static let eventsBeforeLateJoin = 12

    struct Run {
        var early: ScoreLines
        var late: ScoreLines?
        /// What each aggregator process published, in order of the processes.
        var published: [ScoreLines]
        var lastEventSeq: UInt64?
        var captureRunningAtKill = false
        var restoredAtEvent: String?
        /// Per worker, how many of its numbered results the log holds at the end.
        var logged: [String: UInt64]
        /// Times a worker was asked to send its results again.
        var resends: Int
        /// Workers that exited with results the aggregator had not logged.
        var unlogged: Int
        var diagnostics: String
        /// The game played again over the results the aggregators kept (`pitchside replay --json`).
        var replayed: ScoreLines
        var replayStatus: Int32?
    }

    /// A run's result, written by the thread that plays it and read after both have ended.
    private final class Outcome: @unchecked Sendable {
        var value: Result<Run, Error>?
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var played: Result<(uninterrupted: Run, killed: Run), Error>?

    /// Both runs, played once for the tests of this class (concurrently: each keeps about one core busy).
    private func runs() throws -> (uninterrupted: Run, killed: Run) {
        try XCTSkipUnless(PoseAssets.default().isAvailable, "pose model not fetched (run ops/setup)")
        Self.lock.lock()
        defer { Self.lock.unlock() }
        if let played = Self.played { return try played.get() }
        let result = Result { () throws -> (uninterrupted: Run, killed: Run) in
            let video = try TestGames.video(seed: Self.seed, arguments: Self.synthArguments)
            let uninterrupted = Outcome(), killed = Outcome()
            let group = DispatchGroup()
            DispatchQueue.global().async(group: group) { uninterrupted.value = Result { try Self.play(video: video, killAfter: nil) } }
            DispatchQueue.global().async(group: group) { killed.value = Result { try Self.play(video: video, killAfter: Self.eventsBeforeKill) } }
            group.wait()
            return (try uninterrupted.value!.get(), try killed.value!.get())
        }
        Self.played = result
        return try result.get()
    }

    /// Plays the game; with `killAfter`, kills the aggregator once the subscriber has that many
    /// events and starts it again two seconds later; without, a second subscriber joins late.
    private static func play(video: String, killAfter: Int?) throws -> Run {
        let cluster = try GameCluster(video: video)
        defer { cluster.stopAll() }
        try cluster.startAggregator()
        let early = try cluster.startSubscriber(history: true)
        try cluster.startPipeline()
        var late: ChildProcess?
        var captureRunningAtKill = false
        let startedBy = killAfter ?? eventsBeforeLateJoin
        guard waitUntil(timeout: 240, { ScoreLines(early.stdout).events.count >= startedBy }) else {
            throw NSError(domain: "RecoveryTests", code: 1,
                          userInfo: [NSLocalizedDescriptionKey: "no \(startedBy) events:\n\(cluster.diagnostics)"])
        }
        if killAfter != nil {
            captureRunningAtKill = cluster.capture?.process.isRunning ?? false
            let first = cluster.aggregators[0]
            first.signal(SIGKILL)
            first.wait(timeout: 10)
            sleep(2)  // the workers go on, keeping their results for the next aggregator
            try cluster.startAggregator()
        } else {
            late = try cluster.startSubscriber(history: false)
        }
        if let failure = cluster.waitForPipeline(timeout: 300) {
            throw NSError(domain: "RecoveryTests", code: 2, userInfo: [NSLocalizedDescriptionKey: "\(failure)\n\(cluster.diagnostics)"])
        }
        let last = try cluster.lastEventSeq()
        for subscriber in [early] + [late].compactMap({ $0 }) {
            waitUntil(timeout: 20) { ScoreLines(subscriber.stdout).seqs.last == last }
        }
        usleep(500_000)  // anything extra (a duplicate) would arrive now
        cluster.stopAll()
        let restored = cluster.aggregators.count > 1
            ? cluster.aggregators[1].stderr.components(separatedBy: "\n").first { $0.contains("restored stream") } : nil
        let workerLogs = cluster.workers.map(\.stderr)
        let replay = try ChildProcess(["replay", cluster.keptResults, "--json"])
        let replayStatus = replay.wait(timeout: 60)
        return Run(early: ScoreLines(early.stdout), late: late.map { ScoreLines($0.stdout) },
                   published: cluster.aggregators.map { ScoreLines($0.stdout) }, lastEventSeq: last,
                   captureRunningAtKill: captureRunningAtKill, restoredAtEvent: restored,
                   logged: try cluster.deliveryMarks(),
                   resends: workerLogs.map { $0.components(separatedBy: "asks for results").count - 1 }.reduce(0, +),
                   unlogged: workerLogs.filter { $0.contains("the aggregator has not logged") }.count,
                   diagnostics: cluster.diagnostics + "\nreplay: " + replay.stderr,
                   replayed: ScoreLines(replay.stdout), replayStatus: replayStatus)
    }

    func testAnAggregatorKilledMidGameLosesAndRepeatsNothing() throws {
        let (reference, killed) = try runs()
        XCTAssertGreaterThan(reference.early.events.count, Self.eventsBeforeKill, "the game goes on after the kill point")
        XCTAssertEqual(reference.early.seqs, Array(1...UInt64(reference.early.seqs.count)), reference.diagnostics)
        XCTAssertTrue(killed.captureRunningAtKill, "killed mid-game")
        XCTAssertNotNil(killed.restoredAtEvent, "the second aggregator restored the game from the log: \(killed.diagnostics)")

        // The subscriber saw every event once, in order, and the same events as without the kill.
        XCTAssertEqual(killed.early.seqs, Array(1...UInt64(max(1, killed.early.seqs.count))), killed.diagnostics)
        XCTAssertEqual(killed.early.events, reference.early.events, killed.diagnostics)
        XCTAssertEqual(killed.early.lastScore, reference.early.lastScore, "final totals")
        XCTAssertEqual(killed.lastEventSeq, reference.lastEventSeq)
        // Every result every worker produced is in the log once: the same count per worker as
        // without the kill (each worker numbers its results 1, 2, 3, ... and the log keeps the
        // last one taken in order), and no worker left with results unlogged.
        XCTAssertEqual(Set(reference.logged.keys), ["detection", "trajectory", "pose"], reference.diagnostics)
        XCTAssertEqual(killed.logged, reference.logged, killed.diagnostics)
        XCTAssertEqual(killed.unlogged + reference.unlogged, 0, killed.diagnostics)
        // No event was published twice by the two aggregators together.
        let published = killed.published.flatMap(\.seqs)
        XCTAssertEqual(published.count, Set(published).count, "published twice: \(published)")
        XCTAssertTrue(Set(killed.published.flatMap(\.events)).isSubset(of: Set(reference.early.events)))
        print("aggregator killed after \(Self.eventsBeforeKill) events; \(killed.restoredAtEvent ?? ""); \(reference.early.events.count) events, final score \(reference.early.lastScore ?? "none"); results logged per worker \(killed.logged); workers asked to resend \(killed.resends) time(s)")
    }

    /// The game is deterministic: played again over the results the aggregator kept, with no
    /// worker, video or socket, it gives every event the cluster published, in order.
    func testTheKeptResultsPlayedAgainGiveTheClustersEvents() throws {
        let (reference, _) = try runs()
        XCTAssertEqual(reference.replayStatus, 0, reference.diagnostics)
        XCTAssertGreaterThan(reference.early.throwsCompleted.count, 0, reference.diagnostics)
        XCTAssertEqual(reference.replayed.events, reference.early.events, reference.diagnostics)
    }

    func testALateSubscriberCatchesUpThroughASnapshotAndFollowsLive() throws {
        let (reference, _) = try runs()
        let late = try XCTUnwrap(reference.late)
        let snapshot = try XCTUnwrap(late.snapshot, "the late subscriber starts from a snapshot: \(reference.diagnostics)")
        let joinedAt = UInt64(snapshot["lastEventSeq"] as? String ?? "") ?? 0
        XCTAssertGreaterThanOrEqual(joinedAt, UInt64(Self.eventsBeforeLateJoin))
        XCTAssertLessThan(joinedAt, reference.lastEventSeq ?? 0, "it joined before the game ended")
        // Then exactly the events after the snapshot, live.
        let after = zip(reference.early.seqs, reference.early.events).filter { $0.0 > joinedAt }.map(\.1)
        XCTAssertEqual(late.events, after)
        // The snapshot plus what followed is where the early subscriber ended.
        let snapshotThrows = (snapshot["throws"] as? [Any] ?? []).map(ScoreLines.canonical)
        XCTAssertEqual(snapshotThrows + late.throwsCompleted, reference.early.throwsCompleted)
        XCTAssertEqual(late.lastScore ?? snapshot["score"].map(ScoreLines.canonical), reference.early.lastScore)
        let stateAtJoin = reference.early.objects.filter { UInt64($0["eventSeq"] as? String ?? "") ?? 0 <= joinedAt }
            .compactMap { ($0["stateChanged"] as? [String: Any])?["to"] as? String }.last
        XCTAssertEqual(snapshot["state"] as? String, stateAtJoin)
    }
}

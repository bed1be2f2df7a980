import Foundation
import PitchsideCore
import PitchsideGame
import PitchsideTransport
import XCTest

/// The cache the models live in: `$PITCHSIDE_CACHE`, else `~/.cache/pitchside`.
enum TestCache {
    static var directory: String {
        ProcessInfo.processInfo.environment["PITCHSIDE_CACHE"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.cache/pitchside")
    }
}

/// A synthetic game rendered once by `pitchside synth` and kept in the cache
/// (`$PITCHSIDE_CACHE/test-games`, like the models), so later runs skip the rendering.
enum TestGames {
    static func video(seed: Int, arguments: [String]) throws -> String {
        let cache = TestCache.directory
        let name = (["seed\(seed)"] + arguments).joined(separator: "_").replacingOccurrences(of: "-", with: "")
        let dir = URL(fileURLWithPath: cache).appendingPathComponent("test-games").appendingPathComponent(name)
        let video = dir.appendingPathComponent("game.mp4").path
        if FileManager.default.fileExists(atPath: dir.appendingPathComponent("truth.json").path) { return video }
        let scratch = dir.deletingLastPathComponent().appendingPathComponent("\(name).partial-\(getpid())")
        try FileManager.default.createDirectory(at: scratch.deletingLastPathComponent(), withIntermediateDirectories: true)
        let synth = try ChildProcess(["synth", "--seed", "\(seed)", "--out", scratch.path] + arguments)
        guard synth.wait(timeout: 600) == 0 else {
            throw NSError(domain: "TestGames", code: 1, userInfo: [NSLocalizedDescriptionKey: "synth failed: \(synth.stderr)"])
        }
        try? FileManager.default.removeItem(at: dir)
        try FileManager.default.moveItem(at: scratch, to: dir)
        return video
    }
}

/// One cluster of real `pitchside` processes on private loopback ports: capture in lockstep,
/// the three workers, the aggregator with its SQLite log in a temporary directory, and
/// `pitchside scores --json` subscribers.
final class GameCluster {
    let base = TestPorts.base()
    let directory: URL
    let video: String
    private(set) var aggregators: [ChildProcess] = []
    private(set) var workers: [ChildProcess] = []
    private(set) var capture: ChildProcess?
    private(set) var subscribers: [ChildProcess] = []

    init(video: String) throws {
        self.video = video
        directory = try TestVideo.temporaryDirectory()
    }

    deinit {
        for p in aggregators + workers + subscribers + [capture].compactMap({ $0 }) where p.process.isRunning {
            p.signal(SIGKILL)
        }
        try? FileManager.default.removeItem(at: directory)
    }

    var endpoints: Endpoints { Endpoints(basePort: base) }
    private var common: [String] { ["--base-port", "\(base)", "--log-level", "info"] }

    /// The worker results the aggregators handed to the game (`aggregate --keep-results`).
    var keptResults: String { directory.appendingPathComponent("game.results").path }

    /// Starts an aggregator on the cluster's log (again, after a kill: same file, same ports).
    @discardableResult
    func startAggregator() throws -> ChildProcess {
        let p = try ChildProcess(["aggregate", "--database", directory.appendingPathComponent("games.sqlite").path, "--json",
                                  "--keep-results", keptResults] + common)
        aggregators.append(p)
        return p
    }

    /// A subscriber; `history` replays the log from the first event before following live.
    @discardableResult
    func startSubscriber(history: Bool) throws -> ChildProcess {
        let p = try ChildProcess(["scores", "--json"] + (history ? ["--history"] : []) + common)
        subscribers.append(p)
        return p
    }

    /// The three workers, then capture in lockstep waiting for them.
    func startPipeline() throws {
        // A board repeat every 5 frames keeps the set-up of a short game short.
        workers = try [["detection", "--board-interval", "5"], ["trajectory"], ["pose"]].map {
            try ChildProcess(["worker"] + $0 + ["--exit-at-end"] + common)
        }
        capture = try ChildProcess(["capture", "--input", video, "--pacing", "lockstep", "--consumers", "3", "--quiet"] + common)
    }

    /// Waits for capture and the workers to finish the file; a worker exits only once the
    /// aggregator has logged everything it sent (or after its receipt timeout, with a warning).
    func waitForPipeline(timeout: TimeInterval) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        for p in [capture].compactMap({ $0 }) + workers {
            let status = p.wait(timeout: max(1, deadline.timeIntervalSinceNow))
            if status != 0 { return "\(p.process.arguments?.prefix(2).joined(separator: " ") ?? "?") exited with \(status.map(String.init) ?? "timeout"): \(p.stderr.suffix(2000))" }
        }
        return nil
    }

    /// The aggregator's last event_seq for the stream, asked on its query endpoint.
    func lastEventSeq(timeout: Double = 10) throws -> UInt64? {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let dealer = try context.socket(.dealer)
        defer { dealer.close() }
        try dealer.set(.linger, 0)
        try dealer.connect(endpoints.queries)
        let request = PSQueryRequest.with { $0.snapshot = PSSnapshotRequest.with { $0.streamID = "default" } }
        _ = try dealer.send([try request.serializedData()])
        guard let parts = try dealer.receive(timeout: timeout), let payload = parts.last,
              case .snapshot(let s)? = try PSQueryReply(serializedBytes: payload).reply else { return nil }
        return s.games.first?.lastEventSeq
    }

    /// Per worker, the last of its numbered results the log holds (read after the aggregator stopped).
    func deliveryMarks() throws -> [String: UInt64] {
        let log = try EventLog(path: directory.appendingPathComponent("games.sqlite").path)
        return Dictionary(try log.deliveryMarks().map { ($0.producerID, $0.committed) }, uniquingKeysWith: max)
    }

    func stopAll() {
        for p in subscribers + aggregators where p.process.isRunning {
            p.signal(SIGTERM)
            p.wait(timeout: 15)
        }
    }

    /// Everything the processes said, for failure messages.
    var diagnostics: String {
        var text = ""
        for (name, p) in [("capture", capture)] + workers.map({ ("worker", Optional($0)) })
            + aggregators.map({ ("aggregator", Optional($0)) }) + subscribers.map({ ("subscriber", Optional($0)) }) {
            guard let p else { continue }
            text += "--- \(name) \(p.process.arguments?.prefix(2).joined(separator: " ") ?? "")\n\(p.stderr.suffix(3000))\n"
        }
        return text
    }
}

/// What `pitchside scores --json` and `pitchside aggregate --json` print: one JSON object a
/// line, a game event or `{"snapshot": GameSnapshot}`.
struct ScoreLines {
    var snapshot: [String: Any]?
    /// Events as canonical JSON (sorted keys, without the wall-clock `emittedUnixUs`).
    var events: [String] = []
    var seqs: [UInt64] = []
    var objects: [[String: Any]] = []

    init(_ text: String) {
        // Only whole lines: the process may be in the middle of writing one.
        var lines = text.components(separatedBy: "\n")
        lines.removeLast()
        for line in lines where !line.isEmpty {
            guard var object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { continue }
            if let s = object["snapshot"] as? [String: Any] {
                snapshot = s
                continue
            }
            object.removeValue(forKey: "emittedUnixUs")
            objects.append(object)
            events.append(Self.canonical(object))
            seqs.append(UInt64(object["eventSeq"] as? String ?? "") ?? 0)
        }
    }

    static func canonical(_ object: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    /// The throws completed, as canonical JSON.
    var throwsCompleted: [String] { objects.compactMap { $0["throwCompleted"] }.map(Self.canonical) }
    /// The last score update, as canonical JSON.
    var lastScore: String? { objects.last { $0["scoreUpdate"] != nil }.map { Self.canonical($0["scoreUpdate"]!) } }
}

/// Polls `condition` every 0.1 s until it holds or `timeout` passes.
@discardableResult
func waitUntil(timeout: TimeInterval, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline { return false }
        usleep(100_000)
    }
    return true
}

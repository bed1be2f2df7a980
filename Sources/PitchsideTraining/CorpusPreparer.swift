import Foundation
import PitchsideSynth

/// Makes sure each game of a `TrainingCorpus` is on disk with its pose track:
/// renders `game.mp4` + `truth.json` when missing, runs the pose estimator
/// when `poses.jsonl` is missing, and reads what is cached otherwise. Games
/// are prepared on `jobs` threads; `log` receives progress lines (from any thread,
/// one call at a time).
public struct CorpusPreparer {
    public var directory: URL
    public var jobs: Int
    public var extractor = PoseTrackExtractor()

    public init(directory: URL, jobs: Int = 1) {
        self.directory = directory
        self.jobs = max(1, jobs)
    }

    /// A game ready for labelling.
    public struct PreparedGame: Sendable {
        public var seed: UInt64
        public var truth: GroundTruth
        public var track: PoseTrack
    }

    public func gameDirectory(_ game: TrainingCorpus.Game) -> URL { directory.appendingPathComponent(game.name) }

    public func prepare(_ games: [TrainingCorpus.Game], log: @escaping @Sendable (String) -> Void) throws -> [PreparedGame] {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let results = Results(count: games.count)
        let next = Counter()
        DispatchQueue.concurrentPerform(iterations: min(jobs, games.count)) { _ in
            while let i = next.take(below: games.count) {
                do { results.set(i, .success(try prepareOne(games[i], log: log))) } catch {
                    results.set(i, .failure(error))
                }
            }
        }
        return try results.all()
    }

    func prepareOne(_ game: TrainingCorpus.Game, log: @Sendable (String) -> Void) throws -> PreparedGame {
        let dir = gameDirectory(game)
        let truthURL = dir.appendingPathComponent("truth.json")
        let videoURL = dir.appendingPathComponent("game.mp4")
        let posesURL = dir.appendingPathComponent("poses.jsonl")
        if !FileManager.default.fileExists(atPath: truthURL.path) || !FileManager.default.fileExists(atPath: videoURL.path) {
            let synth = SynthGame(settings: game.settings)
            let s = game.settings
            log(String(format: "%@: rendering %d frames %dx%d@%d, %d player(s), side %@", game.name, synth.frameCount,
                       s.width, s.height, s.fps, s.players.count, s.side.rawValue))
            // Rendered next to the game's directory and moved in whole: a cut-short run leaves nothing half-written.
            let partial = directory.appendingPathComponent(game.name + ".partial")
            try? FileManager.default.removeItem(at: partial)
            let timing = try GameWriter(directory: partial.path).write(synth)
            try? FileManager.default.removeItem(at: dir)
            try FileManager.default.moveItem(at: partial, to: dir)
            log(String(format: "%@: rendered in %.0f s", game.name, timing.totalSeconds))
        }
        let truth = try GroundTruth.load(path: truthURL.path)
        let (a, b) = (truth.settings, game.settings)
        guard truth.seed == game.seed, a.width == b.width, a.height == b.height, a.fps == b.fps, a.side == b.side,
              a.players.count == b.players.count, a.styles == b.styles, a.throwCount == b.throwCount,
              a.negativeActionRate == b.negativeActionRate else {
            throw TrainingError.badSeeds("\(dir.path) holds a different game than the corpus plans for seed \(game.seed); delete it")
        }
        if let cached = try? PoseTrack.read(from: posesURL), cached.records.count == truth.video.frameCount {
            try Self.requirePoses(cached, path: posesURL.path)
            log("\(game.name): \(cached.records.count) frames of cached poses")
            return PreparedGame(seed: game.seed, truth: truth, track: cached)
        }
        log("\(game.name): pose estimation over \(truth.video.frameCount) frames")
        let start = Date()
        var track = try extractor.extract(video: videoURL.path) { done, total in
            if done % 500 == 0 { log("\(game.name): pose \(done)/\(total) frames") }
        }
        track.header.video = "game.mp4"
        try track.write(to: posesURL)
        try Self.requirePoses(track, path: posesURL.path)
        let seconds = Date().timeIntervalSince(start)
        log(String(format: "%@: %d poses in %.0f s (%.1f frames/s)", game.name,
                   track.records.filter { $0.j != nil }.count, seconds, Double(track.records.count) / max(seconds, 1e-3)))
        return PreparedGame(seed: game.seed, truth: truth, track: track)
    }
}

extension CorpusPreparer {
    /// A game whose pose track holds nobody cannot teach anything: the pose model
    /// or its assets are broken, or the video shows no player.
    public static func requirePoses(_ track: PoseTrack, path: String) throws {
        guard track.records.contains(where: { $0.j != nil }) else {
            throw TrainingError.badPoseTrack(path, "no frame of its \(track.records.count) has a pose; check the pose model "
                + "(ops/fetch-models) and the video, then delete the file to estimate the poses again")
        }
    }
}

/// The next index to work on, shared by the preparing threads.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < limit else { return nil }
        value += 1
        return value - 1
    }
}

/// Per-game outcomes, filled in by the preparing threads.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Result<CorpusPreparer.PreparedGame, Error>?]

    init(count: Int) { values = Array(repeating: nil, count: count) }

    func set(_ i: Int, _ r: Result<CorpusPreparer.PreparedGame, Error>) {
        lock.lock()
        values[i] = r
        lock.unlock()
    }

    func all() throws -> [CorpusPreparer.PreparedGame] {
        lock.lock()
        defer { lock.unlock() }
        return try values.map { try $0!.get() }
    }
}

import ArgumentParser
import Foundation
import PitchsideCore
import PitchsideSynth
import PitchsideVision

/// `pitchside eval trajectory`: runs the trajectory detector on synthetic games and measures
/// it against their truth (`TrajectoryEvaluator`).
struct EvalTrajectoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trajectory", abstract: "Measure the trajectory detector on synthetic games against their truth.",
        discussion: """
            --corpus DIR evaluates every game folder in DIR (game.mp4 + truth.json, as `pitchside synth corpus`
            writes them); --game DIR one such folder. The detector reads every frame in the rendition the trajectory
            worker subscribes to (full-size YUV420P; --pixel-format gray8 for luma only), with the options below. Figures: flights found
            (recall), distance of detected points from the true bag centre scaled to 720 lines (× 720 / height),
            what each observation follows (bag, shadow, bird, far person, or nothing known: other), and
            confidences by class. Truth files without shadow and distractor paths (older versions) get them
            recomputed from their seed. Exit status 1 when a --min-… / --max-… threshold is not met.
            Example: pitchside eval trajectory --corpus synth-corpus/dev --min-recall 1 --max-median-error 1.5 --max-other-long 0
            """)

    @Option(help: "A folder of game folders (each with game.mp4 and truth.json).") var corpus: String?
    @Option(help: "One game folder (game.mp4 and truth.json).") var game: String?
    @Flag(help: "Print the report as JSON (per game and total).") var json = false
    @Option(help: "Minimum recall of flights (0–1).") var minRecall: Double?
    @Option(help: "Maximum median point error, pixels at 720 lines.") var maxMedianError: Double?
    @Option(help: "Maximum number of unexplained observations longer than 10 points.") var maxOtherLong: Int?
    @OptionGroup var options: TrajectoryOptions

    struct GameReport: Encodable {
        var game: String
        var report: TrajectoryReport
    }

    struct CorpusReport: Encodable {
        var configuration: TrajectoryConfiguration
        var games: [GameReport]
        var total: TrajectoryReport
    }

    func run() throws {
        let folders: [(name: String, path: String)]
        if let corpus {
            let names = try FileManager.default.contentsOfDirectory(atPath: corpus).sorted()
            folders = names.map { ($0, corpus + "/" + $0) }.filter { Self.isGame($0.path) }
            guard !folders.isEmpty else { throw ValidationError("no game folders (game.mp4 + truth.json) in \(corpus)") }
        } else if let game {
            guard Self.isGame(game) else { throw ValidationError("\(game) holds no game.mp4 and truth.json") }
            folders = [((game as NSString).lastPathComponent, game)]
        } else {
            throw ValidationError("give --corpus DIR or --game DIR")
        }
        let configuration = try options.configuration()
        let layout = try options.layout()
        var games: [GameReport] = []
        var total = TrajectoryReport()
        for folder in folders {
            let report = try Self.evaluate(folder: folder.path, name: folder.name, configuration: configuration, layout: layout)
            if !json { print(report.line(folder.name)) }
            games.append(GameReport(game: folder.name, report: report))
            total.add(report)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            let data = try encoder.encode(CorpusReport(configuration: configuration, games: games, total: total))
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(total.text)
        }
        var failures: [String] = []
        if let minRecall, total.recall < minRecall { failures.append(String(format: "recall %.3f < %.3f", total.recall, minRecall)) }
        if let maxMedianError {
            let median = Spread(total.pointErrors).median ?? .infinity
            if median > maxMedianError { failures.append(String(format: "median error %.3f px > %.3f", median, maxMedianError)) }
        }
        if let maxOtherLong, total.otherLongCount > maxOtherLong {
            failures.append("\(total.otherLongCount) unexplained long observations > \(maxOtherLong)")
        }
        if !failures.isEmpty {
            FileHandle.standardError.write(Data(("below threshold: " + failures.joined(separator: "; ") + "\n").utf8))
            throw ExitCode(1)
        }
    }

    static func isGame(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path + "/game.mp4") && FileManager.default.fileExists(atPath: path + "/truth.json")
    }

    /// Runs the detector over a game's video and scores the final version of every trajectory.
    static func evaluate(
        folder: String, name: String, configuration: TrajectoryConfiguration, layout: PixelLayout = .yuv420p
    ) throws -> TrajectoryReport {
        let truth = try GroundTruth.load(path: folder + "/truth.json").withMovingPaths()
        var detector = TrajectoryDetector(configuration: configuration)
        var latest: [UUID: TrajectoryObservation] = [:]
        var frameOf: [Int64: Int] = [:]
        var size = (0, 0)
        try TrajectoryFrameSource(video: folder + "/game.mp4", layout: layout).forEach { frame in
            frameOf[frame.ptsUs] = Int(frame.seq)
            size = (frame.image.width, frame.image.height)
            for o in detector.process(frame) { latest[o.uuid] = o }
        }
        guard size == (truth.video.width, truth.video.height) else {
            throw ValidationError("\(folder): the video is \(size.0)×\(size.1), the truth says \(truth.video.width)×\(truth.video.height)")
        }
        let observed = latest.values.sorted { $0.timeRangeStartUs < $1.timeRangeStartUs }.map {
            $0.observedTrajectory(width: size.0, height: size.1) { frameOf[$0] }
        }
        return try TrajectoryEvaluator.evaluate(observed, truth: truth, game: name)
    }
}

extension TrajectoryObservation {
    /// In the evaluator's terms: pixels and frame indices (`frameOf` maps a point's pts to its frame).
    func observedTrajectory(width: Int, height: Int, frameOf: (Int64) -> Int?) -> ObservedTrajectory {
        ObservedTrajectory(points: detectedPoints.compactMap { p in
            frameOf(p.ptsUs).map { ObservedTrajectory.Point(frame: $0, x: p.x * Double(width), y: p.y * Double(height)) }
        }, confidence: confidence)
    }
}

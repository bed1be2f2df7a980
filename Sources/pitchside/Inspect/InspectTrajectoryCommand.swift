import ArgumentParser
import Foundation
import PitchsideCore
import PitchsideMedia
import PitchsideSynth
import PitchsideVision

/// `pitchside inspect trajectory VIDEO`: runs the trajectory detector on a file and prints
/// what it reports, one JSON object a line.
struct InspectTrajectoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trajectory",
        abstract: "Detect bag trajectories in a video and print them as JSON lines.",
        discussion: """
            VIDEO is any video FFmpeg reads, a raw GRAY8 file (.gray, frames of WIDTH×HEIGHT bytes back
            to back; give --size and --fps) or `synthetic:SEED` for a built-in synthetic scene (--size sets
            its resolution). With --truth (a synth truth.json) it prints how the trajectories compare with
            the true flights; with --corpus DIR it does so for every game folder in DIR (game.mp4 +
            truth.json, as `pitchside synth corpus` writes them) and prints the totals.
            Every report is printed (a trajectory is reported again, under the same uuid, each time
            it grows); --final prints only the last report of each trajectory, at the end.
            Example: pitchside inspect trajectory synthetic:3 --size 1280x720 --json --final
                     pitchside inspect trajectory --corpus synth-corpus/traj
            """)

    @Argument(help: "The video: a file FFmpeg reads, a .gray file or synthetic:SEED.") var video: String?
    @Option(help: "A synth truth.json: compare with the true flights.") var truth: String?
    @Option(help: "A folder of synth games (each a folder with game.mp4 and truth.json) to evaluate.") var corpus: String?
    @Option(help: "Frame size WIDTHxHEIGHT (raw input, synthetic games).") var size = "1280x720"
    @Option(help: "Frames per second of raw input.") var fps = 30.0
    @Flag(help: "Print JSON lines (the default output is a short summary a line).") var json = false
    @Flag(help: "Print only the final report of each trajectory.") var final = false
    @Option(help: "Points before a trajectory is reported (at least 5).") var trajectoryLength = 15
    @Option(help: "Smallest object diameter, normalized by the width.") var minimumObjectSize = 0.004
    @Option(help: "Largest object diameter, normalized by the width.") var maximumObjectSize = 0.04
    @Option(help: "Region of interest x,y,width,height (normalized, top-left origin).") var roi: String?
    @Option(help: "Milliseconds between analysed frames (0: every frame).") var spacingMs = 0.0

    func run() throws {
        if let corpus { return try evaluateCorpus(corpus) }
        guard let video else { throw ValidationError("give a VIDEO or --corpus DIR") }
        if let truth {
            let report = try evaluateGame(video: video, truth: truth)
            print(Self.describe(report, name: video))
            return
        }
        var detector = TrajectoryDetector(configuration: try makeConfiguration())
        var latest: [UUID: TrajectoryObservation] = [:]
        var order: [UUID] = []
        try forEachFrame(video) { frame in
            for o in detector.process(frame) {
                if latest[o.uuid] == nil { order.append(o.uuid) }
                latest[o.uuid] = o
                if !final { try emit(o, seq: frame.seq) }
            }
        }
        if final { for uuid in order { try emit(latest[uuid]!, seq: nil) } }
    }

    private func makeConfiguration() throws -> TrajectoryConfiguration {
        var configuration = TrajectoryConfiguration()
        configuration.trajectoryLength = trajectoryLength
        configuration.minimumObjectSize = minimumObjectSize
        configuration.maximumObjectSize = maximumObjectSize
        configuration.frameAnalysisSpacingUs = Int64(spacingMs * 1000)
        if let roi {
            let v = roi.split(separator: ",").compactMap { Double($0) }
            guard v.count == 4 else { throw ValidationError("--roi needs x,y,width,height") }
            configuration.regionOfInterest = NormalizedRect(x: v[0], y: v[1], width: v[2], height: v[3])
        }
        return configuration
    }

    /// Every game folder of `directory`, evaluated; one line per game, then the totals.
    private func evaluateCorpus(_ directory: String) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        var total = TrajectoryEvaluation.Report()
        var games = 0
        for name in names {
            let dir = directory + "/" + name
            guard FileManager.default.fileExists(atPath: dir + "/truth.json"),
                  FileManager.default.fileExists(atPath: dir + "/game.mp4") else { continue }
            let report = try evaluateGame(video: dir + "/game.mp4", truth: dir + "/truth.json")
            print(Self.describe(report, name: name))
            total.add(report)
            games += 1
        }
        print(Self.describe(total, name: "TOTAL (\(games) games)"))
    }

    private func evaluateGame(video: String, truth path: String) throws -> TrajectoryEvaluation.Report {
        let truth = try JSONDecoder().decode(GroundTruth.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        let bagPixels = 0.1524 / max(truth.board.metresPerPixel, 1e-6)
        let flights = truth.throwsTruth.map { t in
            TrajectoryEvaluation.Flight(
                points: Dictionary(t.flight.map { (Int($0[0]), SIMD2($0[1], $0[2])) }, uniquingKeysWith: { a, _ in a }),
                bagPixels: bagPixels)
        }
        var detector = TrajectoryDetector(configuration: try makeConfiguration())
        var latest: [UUID: TrajectoryObservation] = [:]
        var frameOf: [Int64: Int] = [:]
        var size = (0, 0)
        try forEachFrame(video) { frame in
            frameOf[frame.ptsUs] = Int(frame.seq)
            size = (frame.image.width, frame.image.height)
            for o in detector.process(frame) { latest[o.uuid] = o }
        }
        let finals = latest.values.sorted { $0.timeRangeStartUs < $1.timeRangeStartUs }
        return TrajectoryEvaluation.evaluate(finals, flights: flights, width: size.0, height: size.1) { frameOf[$0] }
    }

    static func describe(_ r: TrajectoryEvaluation.Report, name: String) -> String {
        String(format: "%@: throws %d found %d (recall %.1f%%)  point error median %.2f px p90 %.2f px (%d points)  "
               + "bag obs %d  straight %d  other long %d  other short %d",
               name, r.flights, r.found, 100 * r.recall, r.medianError, r.p90Error, r.pointErrors.count,
               r.bagObservations, r.straightObservations, r.otherLongObservations, r.otherShortObservations)
    }

    private func emit(_ o: TrajectoryObservation, seq: UInt64?) throws {
        if json {
            let data = try JSONEncoder.sorted.encode(TrajectoryJSON(o, seq: seq))
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(String(format: "%@ %@ points %d  a %.4f b %.4f c %.4f  confidence %.3f  size %.4f  %.2f–%.2f s",
                         seq.map { "frame \($0)" } ?? "final", o.uuid.uuidString, o.detectedPoints.count,
                         o.a, o.b, o.c, o.confidence, o.objectSize,
                         Double(o.timeRangeStartUs) / 1e6, Double(o.timeRangeEndUs) / 1e6))
        }
    }

    private func frameSize() throws -> (Int, Int) {
        let v = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard v.count == 2, v[0] > 0, v[1] > 0 else { throw ValidationError("--size needs WIDTHxHEIGHT") }
        return (v[0], v[1])
    }

    private func forEachFrame(_ video: String, _ body: (VideoFrame) throws -> Void) throws {
        let (width, height) = try frameSize()
        if video.hasPrefix("synthetic:") {
            let seed = UInt64(video.dropFirst("synthetic:".count)) ?? 1
            let game = TrajectoryScene.game(width: width, height: height, seed: seed)
            for i in 0..<game.frames { try body(game.scene.frame(i)) }
            return
        }
        if !video.hasSuffix(".gray") {
            let source = try VideoSource(url: video)
            let converter = RenditionConverter(renditions: [.grayFull])
            while let picture = try source.nextPicture() {
                let image = try converter.image(from: picture, rendition: .grayFull)
                try body(VideoFrame(seq: UInt64(picture.index), ptsUs: picture.ptsUs, image: image))
            }
            return
        }
        guard let handle = FileHandle(forReadingAtPath: video) else {
            throw ValidationError("cannot open \(video)")
        }
        defer { try? handle.close() }
        let bytes = width * height
        var index = 0
        while true {
            let data = handle.readData(ofLength: bytes)
            if data.count < bytes {
                if data.count > 0 { FileHandle.standardError.write(Data("ignoring a truncated last frame of \(data.count) bytes\n".utf8)) }
                break
            }
            let image = try ImageBuffer(width: width, height: height, layout: .gray8, pixels: [UInt8](data))
            try body(VideoFrame(seq: UInt64(index), ptsUs: Int64((Double(index) * 1e6 / fps).rounded()), image: image))
            index += 1
        }
    }
}

/// One observation as a JSON line (normalized coordinates, top-left origin, microseconds).
struct TrajectoryJSON: Encodable {
    var frame: UInt64?
    var uuid: String
    var detected_points: [[Double]]
    var projected_points: [[Double]]
    var a: Double, b: Double, c: Double
    var x0: Double, vx: Double, y0: Double, vy: Double, ay: Double
    var confidence: Double
    var time_range_us: [Int64]
    var object_size: Double

    init(_ o: TrajectoryObservation, seq: UInt64?) {
        frame = seq
        uuid = o.uuid.uuidString
        detected_points = o.detectedPoints.map { [$0.x, $0.y, Double($0.ptsUs)] }
        projected_points = o.projectedPoints.map { [$0.x, $0.y] }
        a = o.a; b = o.b; c = o.c
        x0 = o.x0; vx = o.vx; y0 = o.y0; vy = o.vy; ay = o.ay
        confidence = o.confidence
        time_range_us = [o.timeRangeStartUs, o.timeRangeEndUs]
        object_size = o.objectSize
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys]
        return e
    }
}

import ArgumentParser
import Foundation
import PitchsideCore
import PitchsideMedia
import PitchsideVision

/// `pitchside inspect trajectory VIDEO`: runs the trajectory detector on a file and prints
/// what it reports, one JSON object a line.
struct InspectTrajectoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trajectory",
        abstract: "Detect bag trajectories in a video and print them as JSON lines.",
        discussion: """
            VIDEO is any video FFmpeg reads (decoded to --pixel-format, by default yuv420p like the trajectory
            worker's rendition), a raw file of frames back to back (.gray: GRAY8, WIDTH×HEIGHT bytes; .yuv:
            YUV420P, WIDTH×HEIGHT×3/2 bytes; give --size and --fps) or `synthetic:SEED` for a built-in
            synthetic scene (--size sets its resolution). Every report is printed (a trajectory is reported again, under the same uuid,
            each time it grows); --final prints only the last report of each trajectory, at the end.
            To measure the detector against synthetic games' truth: pitchside eval trajectory.
            Example: pitchside inspect trajectory synthetic:3 --size 1280x720 --json --final
            """)

    @Argument(help: "The video: a file FFmpeg reads, a .gray file or synthetic:SEED.") var video: String
    @Option(help: "Frame size WIDTHxHEIGHT (raw input, synthetic games).") var size = "1280x720"
    @Option(help: "Frames per second of raw input.") var fps = 30.0
    @Flag(help: "Print JSON lines (the default output is a short summary a line).") var json = false
    @Flag(help: "Print only the final report of each trajectory.") var final = false
    @Flag(help: "Print also, for every analysed frame, the moving objects it showed before tracking (x, y, diameter in pixels).")
    var movingObjects = false
    @OptionGroup var options: TrajectoryOptions

    func run() throws {
        var detector = TrajectoryDetector(configuration: try options.configuration())
        var latest: [UUID: TrajectoryObservation] = [:]
        var order: [UUID] = []
        let (width, height) = try frameSize()
        try TrajectoryFrameSource(video: video, width: width, height: height, fps: fps, layout: try options.layout()).forEach { frame in
            let observations = detector.process(frame)
            if movingObjects { printMovingObjects(detector.lastMovingObjects, seq: frame.seq) }
            for o in observations {
                if latest[o.uuid] == nil { order.append(o.uuid) }
                latest[o.uuid] = o
                if !final { try emit(o, seq: frame.seq) }
            }
        }
        if final { for uuid in order { try emit(latest[uuid]!, seq: nil) } }
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

    private func printMovingObjects(_ objects: [(x: Double, y: Double, diameter: Double)], seq: UInt64) {
        let listed = objects.map { String(format: "[%.2f,%.2f,%.2f]", $0.x, $0.y, $0.diameter) }
        if json {
            print("{\"frame\":\(seq),\"moving_objects\":[\(listed.joined(separator: ","))]}")
        } else {
            print("frame \(seq) moving \(listed.joined(separator: " "))")
        }
    }

    private func frameSize() throws -> (Int, Int) {
        let v = size.lowercased().split(separator: "x").compactMap { Int($0) }
        guard v.count == 2, v[0] > 0, v[1] > 0 else { throw ValidationError("--size needs WIDTHxHEIGHT") }
        return (v[0], v[1])
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

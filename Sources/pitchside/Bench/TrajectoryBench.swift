import ArgumentParser
import Foundation
import PitchsideCore
import PitchsideVision

/// `pitchside bench trajectory`: the trajectory detector against an OpenCV peer of the
/// same algorithm class (bench/peers/trajectory_opencv.py), on the same frames, one core.
struct TrajectoryBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trajectory",
        abstract: "Trajectory detector frames/s against the OpenCV peer, on identical frames.",
        discussion: """
            Renders a synthetic game at each size (or reads raw frames with --input), writes the frames
            to a raw file so the Python peer reads the identical bytes, then times both on one thread (best
            of --repeat runs, frames already in memory). Frames are YUV420P, the trajectory worker's
            rendition (the synthetic game is grey: its chroma is neutral, which costs both sides the
            same work); --pixel-format gray8 times the luma-only path.
            Example: pitchside bench trajectory --sizes 1280x720,1920x1080 --frames 300
            """)

    @Option(help: "Frame sizes, comma separated WIDTHxHEIGHT.") var sizes = "1280x720,1920x1080"
    @Option(help: "Frames per size (a synthetic game of several throws is cut or looped to this).") var frames = 300
    @Option(help: "Timed runs per side; the best counts.") var `repeat` = 3
    @Option(help: "Raw frames to use instead of a synthetic game: FILE.gray (GRAY8) or FILE.yuv (YUV420P); needs a single --sizes entry.")
    var input: String?
    @Option(help: "Pixel format of the synthetic game's frames: yuv420p or gray8.") var pixelFormat = "yuv420p"
    @Option(help: "Frame rate of --input (speeds, and so what counts as a throw, depend on it).") var fps = 30.0
    @Option(help: "Folder for the raw frame files.") var workDir = "/tmp/pitchside-bench-trajectory"
    @Option(help: "Python interpreter with opencv-python-headless and numpy.") var python = "python3"
    @Option(help: "The peer script.") var peer = "bench/peers/trajectory_opencv.py"
    @Flag(help: "Skip the OpenCV peer.") var noPeer = false
    @Flag(help: "Print one JSON object per size instead of a table.") var json = false

    func run() throws {
        try FileManager.default.createDirectory(atPath: workDir, withIntermediateDirectories: true)
        if !json {
            print("| size | frames | Pitchside frames/s | OpenCV peer frames/s | ratio | Pitchside trajectories | peer observations |")
            print("|---|---:|---:|---:|---:|---:|---:|")
        }
        for size in sizes.split(separator: ",") {
            let parts = size.lowercased().split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2 else { throw ValidationError("bad size \(size): use WIDTHxHEIGHT") }
            let (width, height) = (parts[0], parts[1])
            let (video, path) = try loadFrames(width: width, height: height)
            let ours = timeOurs(video)
            var peerFPS = Double.nan, peerObservations = -1
            if !noPeer {
                let result = try runPeer(path: path, width: width, height: height)
                peerFPS = result["fps"] as? Double ?? .nan
                peerObservations = result["observations"] as? Int ?? -1
            }
            let ratio = ours.fps / peerFPS
            if json {
                let object: [String: Any] = [
                    "width": width, "height": height, "frames": video.count, "fps": ours.fps,
                    "peer_fps": peerFPS.isNaN ? NSNull() : peerFPS, "ratio": ratio.isNaN ? NSNull() : ratio,
                    "trajectories": ours.trajectories, "observations": ours.observations,
                    "peer_observations": peerObservations,
                ]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                print(String(decoding: data, as: UTF8.self))
            } else {
                print("| \(width)×\(height) | \(video.count) | \(Int(ours.fps)) | \(peerFPS.isNaN ? "–" : String(Int(peerFPS))) | "
                    + "\(ratio.isNaN ? "–" : String(format: "%.1f×", ratio)) | \(ours.trajectories) | \(peerObservations < 0 ? "–" : String(peerObservations)) |")
            }
        }
    }

    /// The frames in memory and the raw file holding the same bytes.
    private func loadFrames(width: Int, height: Int) throws -> ([VideoFrame], String) {
        if let input {
            guard input.hasSuffix(".gray") || input.hasSuffix(".yuv") else {
                throw ValidationError("--input must be a .gray (GRAY8) or .yuv (YUV420P) file")
            }
            let layout: PixelLayout = input.hasSuffix(".yuv") ? .yuv420p : .gray8
            guard layout == .gray8 || (width % 2 == 0 && height % 2 == 0) else {
                throw ValidationError("YUV420P frames need an even size, not \(width)×\(height)")
            }
            let data = try Data(contentsOf: URL(fileURLWithPath: input))
            let bytes = layout.byteCount(stride: width, height: height)
            guard data.count >= bytes else { throw ValidationError("\(input) holds less than one \(width)×\(height) frame") }
            let count = min(frames, data.count / bytes)
            let video = try (0..<count).map { i in
                VideoFrame(seq: UInt64(i), ptsUs: Int64((Double(i) * 1e6 / fps).rounded()), image: try ImageBuffer(
                    width: width, height: height, layout: layout, pixels: [UInt8](data[(i * bytes)..<((i + 1) * bytes)])))
            }
            return (video, input)
        }
        guard let layout = PixelLayout(rawValue: pixelFormat), layout != .rgb24 else {
            throw ValidationError("--pixel-format must be yuv420p or gray8")
        }
        let game = TrajectoryScene.game(width: width, height: height, seed: 7, throwCount: 4)
        let video = (0..<frames).map { i -> VideoFrame in
            var f = game.scene.frame(i % game.frames)
            f.seq = UInt64(i)
            f.ptsUs = game.scene.ptsUs(i)
            return layout == .yuv420p ? f.withNeutralChroma() : f
        }
        let path = "\(workDir)/game-\(width)x\(height)-\(frames)" + (layout == .yuv420p ? ".yuv" : ".gray")
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        for f in video { handle.write(Data(f.image.pixels)) }
        return (video, path)
    }

    private func timeOurs(_ video: [VideoFrame]) -> (fps: Double, trajectories: Int, observations: Int) {
        var best = Double.infinity
        var uuids = Set<UUID>(), observations = 0
        for _ in 0..<max(1, `repeat`) {
            var detector = TrajectoryDetector()
            uuids.removeAll()
            observations = 0
            let start = WallClock.monotonicSeconds()
            for frame in video {
                for o in detector.process(frame) {
                    uuids.insert(o.uuid)
                    observations += 1
                }
            }
            best = min(best, WallClock.monotonicSeconds() - start)
        }
        return (Double(video.count) / best, uuids.count, observations)
    }

    private func runPeer(path: String, width: Int, height: Int) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let peerFPS = input == nil ? 30.0 : fps
        process.arguments = [python, peer, path, String(width), String(height), "--repeat", String(max(1, `repeat`)),
                             "--fps", String(peerFPS)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw ValidationError("the peer failed (status \(process.terminationStatus)); is opencv-python-headless installed?")
        }
        return object
    }
}

import ArgumentParser
import Foundation
import Logging
import PitchsideCore
import PitchsideMedia
import PitchsideNodes
import PitchsideTransport

/// `pitchside bench media`: single-threaded decode (+ renditions) against `ffmpeg -threads 1`.
///
/// For each clip size it encodes a synthetic H.264 clip (cached in `--work-dir`), then,
/// interleaved for `--rounds` rounds, times: ffmpeg decoding to the null muxer (the decode
/// ceiling; it converts nothing), our decode only, our decode + GRAY8 full size + RGB24 at
/// most 640 wide, and the capture node doing all of that and publishing both renditions to a
/// subscriber process in lockstep. The best round of each counts (the machine is shared).
struct MediaBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "media",
        abstract: "Decode and rendition throughput, side by side with ffmpeg's single-thread decode.",
        discussion: "See bench/README.md. Needs a release build for meaningful figures.")

    @Option(help: "Clip sizes, WIDTHxHEIGHT, comma-separated.")
    var sizes = "1280x720,1920x1080"
    @Option(help: "Frames per clip.")
    var frames = 300
    @Option(help: "x264 constant rate factor of the clips.")
    var crf = 23
    @Option(help: "Interleaved measurement rounds; the best of each counts.")
    var rounds = 3
    @Option(help: "Where the clips are written (reused when present).")
    var workDir = FileManager.default.temporaryDirectory.appendingPathComponent("pitchside-bench-media").path
    @Option(help: "Width limit of the RGB24 rendition.")
    var rgbWidth = 640
    @Option(help: "Scaling for the RGB24 rendition: fast, bilinear or area.")
    var scaling = "area"

    func run() throws {
        try FileManager.default.createDirectory(atPath: workDir, withIntermediateDirectories: true)
        let quality: ScalingQuality
        switch scaling {
        case "fast": quality = .fast
        case "bilinear": quality = .bilinear
        default: quality = .area
        }
        print("pitchside bench media: \(frames) frames per clip, crf \(crf), best of \(rounds) rounds, single-threaded decode")
        print("renditions: gray8 full size + rgb24 ≤\(rgbWidth) wide (\(scaling))")
        var ratios: [Double] = []
        for size in sizes.split(separator: ",") {
            let parts = size.split(separator: "x").compactMap { Int($0) }
            guard parts.count == 2 else { throw ValidationError("bad size \(size)") }
            let (width, height) = (parts[0], parts[1])
            let path = "\(workDir)/clip-\(width)x\(height)-\(frames)f-crf\(crf).mp4"
            let start = Date()
            if try MediaBenchClip.make(path: path, width: width, height: height, frames: frames, fps: 30, crf: crf) {
                print(String(format: "encoded %@ in %.1f s", path, Date().timeIntervalSince(start)))
            }
            let bytes = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0

            var ffmpeg = Timing.worst, decode = Timing.worst, full = Timing.worst, rgbOnly = Timing.worst
            var capture = Timing.worst
            for _ in 0..<rounds {
                capture = capture.best(try Self.captureNode(path, renditions: [
                    .grayFull, Rendition(name: "rgb", layout: .rgb24, maxWidth: rgbWidth),
                ]))
                ffmpeg = ffmpeg.best(try Self.ffmpegDecode(path))
                decode = decode.best(try Self.ours(path, renditions: []))
                full = full.best(try Self.ours(path, renditions: [
                    .grayFull, Rendition(name: "rgb", layout: .rgb24, maxWidth: rgbWidth),
                ], quality: quality))
                rgbOnly = rgbOnly.best(try Self.ours(path, renditions: [
                    Rendition(name: "rgb", layout: .rgb24, maxWidth: rgbWidth),
                ], quality: quality))
            }
            print("")
            print(String(format: "%dx%d  (%.1f MB, %.0f kbit/s)", width, height, Double(bytes) / 1e6,
                         Double(bytes) * 8 / (Double(frames) / 30) / 1000))
            print("  what                                          frames   cpu fps  wall fps   vs ffmpeg (cpu)  | user+sys fps  vs ffmpeg")
            for (name, timing) in [
                ("ffmpeg -threads 1 -f null (ceiling)", ffmpeg), ("ours: decode only", decode),
                ("ours: decode + gray + rgb", full), ("ours: decode + rgb only", rgbOnly),
                ("capture node: decode + gray + rgb + publish", capture),
            ] {
                let label = "  " + name.padding(toLength: 45, withPad: " ", startingAt: 0)
                print(label + String(format: " %6d  %8.1f  %8.1f   %6.1f%%           | %12.1f  %6.1f%%", timing.frames,
                                     timing.cpuFPS, timing.wallFPS, 100 * timing.cpuFPS / ffmpeg.cpuFPS,
                                     timing.totalCPUFPS, 100 * timing.totalCPUFPS / ffmpeg.totalCPUFPS))
            }
            let ratio = capture.cpuFPS / ffmpeg.cpuFPS
            ratios.append(ratio)
            print(String(format: "  conversion cost per frame: gray+rgb %.2f ms (%.2f ms of it rgb)",
                         1000 / full.cpuFPS - 1000 / decode.cpuFPS, 1000 / rgbOnly.cpuFPS - 1000 / decode.cpuFPS))
            try Self.conversionCosts(path, rgbWidth: rgbWidth)
        }
        let worst = ratios.min() ?? 0
        print("")
        print(String(format: "target: capture (decode + renditions + publish) ≥ 80%% of ffmpeg's single-thread decode (user CPU); worst %.1f%% → %@",
                     worst * 100, worst >= 0.8 ? "MET" : "NOT MET"))
    }

    /// Frames and times of one timed run.
    struct Timing {
        var frames: Int
        /// User CPU (what ffmpeg's -benchmark calls utime).
        var cpuSeconds: Double
        var wallSeconds: Double
        /// System CPU (stime): kernel work, e.g. the socket writes of publishing.
        var systemSeconds = 0.0
        static let worst = Timing(frames: 0, cpuSeconds: .infinity, wallSeconds: .infinity)
        var cpuFPS: Double { Double(frames) / cpuSeconds }
        var totalCPUFPS: Double { Double(frames) / (cpuSeconds + systemSeconds) }
        var wallFPS: Double { Double(frames) / wallSeconds }
        func best(_ other: Timing) -> Timing { other.cpuSeconds < cpuSeconds ? other : self }
    }

    /// Conversion alone, per rendition and scaling, on the first 60 pictures held in memory.
    static func conversionCosts(_ path: String, rgbWidth: Int) throws {
        let source = try VideoSource(url: path)
        var pictures: [DecodedPicture] = []
        while pictures.count < 60, let picture = try source.nextPicture() { pictures.append(picture) }
        let cases: [(String, Rendition, ScalingQuality)] = [
            ("gray8 full size (luma copy)", .grayFull, .area),
            ("rgb24 ≤\(rgbWidth) fast bilinear", Rendition(name: "rgb", layout: .rgb24, maxWidth: rgbWidth), .fast),
            ("rgb24 ≤\(rgbWidth) bilinear", Rendition(name: "rgb", layout: .rgb24, maxWidth: rgbWidth), .bilinear),
            ("rgb24 ≤\(rgbWidth) area (box)", Rendition(name: "rgb", layout: .rgb24, maxWidth: rgbWidth), .area),
            ("rgb24 full size", Rendition(name: "rgbfull", layout: .rgb24), .area),
        ]
        var line = "  convert only, ms/frame:"
        for (name, rendition, quality) in cases {
            let converter = RenditionConverter(renditions: [rendition], quality: quality)
            var best = Double.infinity
            for _ in 0..<3 {
                let start = userCPUSeconds()
                for picture in pictures { _ = try converter.image(from: picture, rendition: rendition) }
                best = min(best, (userCPUSeconds() - start) / Double(pictures.count))
            }
            line += String(format: " %@ %.2f;", name, best * 1000)
        }
        print(line)
    }

    /// Decodes `path` single-threaded, converting every picture to `renditions`.
    static func ours(_ path: String, renditions: [Rendition], quality: ScalingQuality = .area) throws -> Timing {
        let cpuStart = userCPUSeconds(), systemStart = systemCPUSeconds(), wallStart = Date()
        let source = try VideoSource(url: path)
        let converter = RenditionConverter(renditions: renditions, quality: quality)
        var count = 0
        var checksum = 0
        while let picture = try source.nextPicture() {
            let frames = try converter.frames(from: picture, streamID: "bench", seq: UInt64(count))
            for frame in frames.values { checksum &+= Int(frame.image.pixels[frame.image.pixels.count / 2]) }
            count += 1
        }
        if checksum == -1 { print("") }  // keeps the conversions from being optimised away
        return Timing(frames: count, cpuSeconds: userCPUSeconds() - cpuStart, wallSeconds: Date().timeIntervalSince(wallStart),
                      systemSeconds: systemCPUSeconds() - systemStart)
    }

    /// The capture node itself, in this process: decode, convert each picture into pooled frame
    /// buffers, publish `[topic, Frame]` over tcp loopback in lockstep to one subscriber process
    /// (`bench transport --subscriber-of`, whose CPU is not counted). This process's CPU is the
    /// capture node's whole cost: decoding, conversion, message writing and libzmq's I/O thread.
    static func captureNode(_ path: String, renditions: [Rendition]) throws -> Timing {
        let ports = try freeTCPPorts(2)
        var endpoints = Endpoints()
        endpoints.frames = "tcp://127.0.0.1:\(ports[0])"
        endpoints.credits = "tcp://127.0.0.1:\(ports[1])"
        var options = CaptureNode.Options(input: path)
        options.streamID = "bench"
        options.pacing = .lockstep
        options.renditions = renditions
        options.progress = false
        var logger = Logger(label: "pitchside.bench.media")
        logger.logLevel = .warning
        let node = CaptureNode(options: options, endpoints: endpoints, logger: logger)

        let subscriber = Process()
        subscriber.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        subscriber.arguments = ["bench", "transport", "--subscriber-of", endpoints.frames, "--credits", endpoints.credits,
                                "--consumer-id", "media-bench", "--path", "view"]
        subscriber.standardOutput = FileHandle.nullDevice
        try subscriber.run()
        defer { subscriber.waitUntilExit() }
        let cpuStart = userCPUSeconds(), systemStart = systemCPUSeconds(), wallStart = Date()
        let report = try node.run(isCancelled: { false })
        return Timing(frames: report.framesPublished, cpuSeconds: userCPUSeconds() - cpuStart,
                      wallSeconds: Date().timeIntervalSince(wallStart), systemSeconds: systemCPUSeconds() - systemStart)
    }

    /// Ports the kernel says are free now (bound to port 0, then released).
    static func freeTCPPorts(_ count: Int) throws -> [Int] {
        let context = try ZMQContext()
        defer { context.shutdown() }
        let sockets = try (0..<count).map { _ in try context.socket(.pull) }
        defer { sockets.forEach { $0.close() } }
        return try sockets.map { socket in
            let bound = try socket.bind("tcp://127.0.0.1:*")
            guard let port = bound.split(separator: ":").last.flatMap({ Int($0) }) else {
                throw ValidationError("cannot read the port of \(bound)")
            }
            return port
        }
    }

    /// `ffmpeg -threads 1 -benchmark -i FILE -f null -`, timed by ffmpeg itself (utime, rtime).
    static func ffmpegDecode(_ path: String) throws -> Timing {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["ffmpeg", "-hide_banner", "-nostdin", "-threads", "1", "-benchmark", "-i", path,
                             "-f", "null", "-"]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw ValidationError("ffmpeg failed: \(output.suffix(400))") }
        func value(_ key: String, in line: Substring) -> Double? {
            guard let range = line.range(of: key + "=") else { return nil }
            return Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
        }
        let bench = output.split(separator: "\n").last { $0.hasPrefix("bench: utime") } ?? ""
        // The last progress line says "frame=  300 fps=...".
        let progress = output.split(whereSeparator: { $0 == "\r" || $0 == "\n" }).last { $0.hasPrefix("frame=") } ?? ""
        let frames = progress.dropFirst("frame=".count).drop { $0 == " " }.prefix { $0.isNumber }
        guard let utime = value("utime", in: bench), let rtime = value("rtime", in: bench), let count = Int(frames) else {
            throw ValidationError("cannot read ffmpeg's -benchmark output: \(output.suffix(400))")
        }
        return Timing(frames: count, cpuSeconds: utime, wallSeconds: rtime, systemSeconds: value("stime", in: bench) ?? 0)
    }

    static func userCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
    }

    static func systemCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }
}

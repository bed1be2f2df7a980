import ArgumentParser
import Foundation
import PitchsideCore
import PitchsideMedia
import PitchsideVision

/// `pitchside bench detection`: scene-stability registration in frames per second at 1280×720 on
/// one core, side by side with a memory-bound absdiff pass over the same frames and with
/// OpenCV's phaseCorrelate (bench/peers/stability_opencv.py); and board detection time on a
/// 1080p frame.
struct DetectionBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "detection",
        abstract: "Stability frames/s at 1280×720 against baselines; board detection ms at 1080p.",
        discussion: "Build with -c release. Runs on one thread. See bench/README.md.")

    @Option(help: "Frames in the stability sequence.") var frames = 240
    @Option(help: "Timed passes; the best is reported.") var `repeat` = 3
    @Option(help: "Python interpreter with opencv-python-headless and numpy (empty: skip the peer).") var python = "python3"
    @Option(help: "The peer script.") var peer = "bench/peers/stability_opencv.py"
    @Option(help: "An image to time board detection on (default: a drawn 1920×1080 side view).") var image: String?

    func run() throws {
        let width = 1280, height = 720
        let sequence = Self.shakySequence(width: width, height: height, count: frames)

        // Baseline 1: the cheapest look at every pixel pair (absdiff sum), same frames.
        var best = 0.0
        var sink: UInt64 = 0
        for _ in 0..<max(1, `repeat`) {
            let t0 = WallClock.monotonicSeconds()
            for i in 1..<sequence.count { sink &+= Self.absDiff(sequence[i - 1].image, sequence[i].image) }
            best = max(best, Double(sequence.count) / (WallClock.monotonicSeconds() - t0))
        }
        let absdiffFPS = best

        // Pitchside's stability analyser.
        best = 0
        var shifts: [(Double, Double)] = []
        for _ in 0..<max(1, `repeat`) {
            var analyzer = StabilityAnalyzer()
            var s: [(Double, Double)] = []
            let t0 = WallClock.monotonicSeconds()
            for f in sequence { let r = analyzer.process(f); if r.registered { s.append((r.tx, r.ty)) } }
            best = max(best, Double(sequence.count) / (WallClock.monotonicSeconds() - t0))
            shifts = s
        }
        let stabilityFPS = best
        let truth = Self.truthShifts(count: frames)
        let error = zip(shifts, truth.dropFirst()).map { abs($0.0 - $1.0) + abs($0.1 - $1.1) }
        let meanError = error.reduce(0, +) / Double(max(1, error.count))

        print("stability registration, \(width)×\(height) GRAY8, \(sequence.count) frames, one core (best of \(`repeat`)):")
        print(String(format: "  pitchside StabilityAnalyzer      %8.0f frames/s  (mean |error| %.2f px vs the true shifts)", stabilityFPS, meanError))
        print(String(format: "  baseline absdiff pass (Swift)    %8.0f frames/s  ratio %.2f", absdiffFPS, stabilityFPS / absdiffFPS))
        if !python.isEmpty, FileManager.default.fileExists(atPath: peer) {
            if let peerResult = try? runPeer(sequence, width: width, height: height) {
                let full = peerResult["fps_full"] as? Double ?? 0, work = peerResult["fps_work"] as? Double ?? 0
                var peerError = 0.0
                if let ps = peerResult["shifts"] as? [[Double]] {
                    let e = zip(ps, truth.dropFirst()).map { abs($0[0] - $1.0) + abs($0[1] - $1.1) }
                    peerError = e.reduce(0, +) / Double(max(1, e.count))
                }
                print(String(format: "  OpenCV phaseCorrelate, full res  %8.0f frames/s  ratio %.2f", full, stabilityFPS / max(1e-9, full)))
                print(String(format: "  OpenCV phaseCorrelate, 320 wide  %8.0f frames/s  ratio %.2f  (mean |error| %.2f px)", work, stabilityFPS / max(1e-9, work), peerError))
            } else {
                print("  OpenCV peer: not run (python3 with opencv-python-headless needed)")
            }
        }

        // Board detection on a 1080p frame.
        let frame = try image.map { try Self.readImage($0) } ?? Self.drawnSideView(width: 1920, height: 1080)
        let detector = BoardDetector()
        var times: [Double] = []
        var found: BoardDetection?
        for _ in 0..<max(5, `repeat`) {
            let t0 = WallClock.monotonicSeconds()
            found = detector.detect(in: frame)
            times.append((WallClock.monotonicSeconds() - t0) * 1000)
        }
        times.sort()
        print(String(format: "board detection, %d×%d RGB24: median %.1f ms, best %.1f ms (%@)", frame.width, frame.height,
                     times[times.count / 2], times[0], found.map { String(format: "found, confidence %.2f", $0.confidence) } ?? "not found"))
        if sink == 42 { print("") }
    }

    private func runPeer(_ frames: [VideoFrame], width: Int, height: Int) throws -> [String: Any] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pitchside-stability-\(getpid()).gray")
        var data = Data(capacity: frames.count * width * height)
        for f in frames { data.append(contentsOf: f.image.pixels) }
        try data.write(to: path)
        defer { try? FileManager.default.removeItem(at: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [python, peer, path.path, String(width), String(height), "--repeat", String(max(1, `repeat`))]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0,
              let obj = try JSONSerialization.jsonObject(with: out) as? [String: Any] else { throw ValidationError("peer failed") }
        return obj
    }

    static func absDiff(_ a: ImageBuffer, _ b: ImageBuffer) -> UInt64 {
        var s: UInt64 = 0
        a.pixels.withUnsafeBufferPointer { pa in
            b.pixels.withUnsafeBufferPointer { pb in
                var row: UInt32 = 0
                for i in 0..<pa.count {
                    let d = Int16(pa[i]) - Int16(pb[i])
                    row &+= UInt32(d < 0 ? -d : d)
                    if i & 4095 == 4095 { s &+= UInt64(row); row = 0 }
                }
                s &+= UInt64(row)
            }
        }
        return s
    }

    /// Camera path: shaking for the first third (integer steps of a few pixels), then still.
    static func truthShifts(count: Int) -> [(Double, Double)] {
        var state: UInt64 = 12345
        func rnd() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<count).map { i in i == 0 || i > count / 3 ? (0, 0) : (Double(Int(rnd() * 13) - 6), Double(Int(rnd() * 9) - 4)) }
    }

    /// Frames cropped from one large textured picture along the camera path.
    static func shakySequence(width: Int, height: Int, count: Int) -> [VideoFrame] {
        let margin = 160
        let bw = width + 2 * margin, bh = height + 2 * margin
        var big = [UInt8](repeating: 0, count: bw * bh)
        var state: UInt64 = 99
        for i in big.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            big[i] = UInt8(truncatingIfNeeded: state >> 56)
        }
        // Smooth the noise into blotches, and add a few broad shapes.
        for _ in 0..<3 { big = boxBlur(big, width: bw, height: bh, radius: 3) }
        for y in 0..<bh {
            for x in 0..<bw {
                let v = Double(big[y * bw + x] - 0) * 1.0 + 40 * sin(Double(x) / 37) * cos(Double(y) / 53)
                big[y * bw + x] = UInt8(max(0, min(255, (v - 128) * 4 + 128)))
            }
        }
        var x = margin, y = margin
        var out: [VideoFrame] = []
        for (i, s) in truthShifts(count: count).enumerated() {
            x = max(0, min(2 * margin, x - Int(s.0)))
            y = max(0, min(2 * margin, y - Int(s.1)))
            var img = ImageBuffer(width: width, height: height, layout: .gray8)
            for r in 0..<height {
                let src = (y + r) * bw + x
                img.pixels.replaceSubrange(r * width..<(r + 1) * width, with: big[src..<(src + width)])
            }
            out.append(VideoFrame(seq: UInt64(i), ptsUs: Int64(i) * 33_333, image: img))
        }
        return out
    }

    static func boxBlur(_ p: [UInt8], width w: Int, height h: Int, radius r: Int) -> [UInt8] {
        var out = p
        for y in 0..<h {
            for x in 0..<w {
                var s = 0, n = 0
                for dx in -r...r where x + dx >= 0 && x + dx < w { s += Int(p[y * w + x + dx]); n += 1 }
                out[y * w + x] = UInt8(s / n)
            }
        }
        var out2 = out
        for y in 0..<h {
            for x in 0..<w {
                var s = 0, n = 0
                for dy in -r...r where y + dy >= 0 && y + dy < h { s += Int(out[(y + dy) * w + x]); n += 1 }
                out2[y * w + x] = UInt8(s / n)
            }
        }
        return out2
    }

    /// A side view: grass-like ground, a red board top as a thin quadrilateral with a dark hole.
    static func drawnSideView(width: Int, height: Int) -> ImageBuffer {
        var img = ImageBuffer(width: width, height: height, layout: .rgb24)
        let k = Double(width) / 640
        let quad = [(380.0, 200.0), (590.0, 195.0), (600.0, 221.0), (372.0, 226.0)].map { ($0.0 * k, $0.1 * k) }
        let hole = (556.0 * k, 209.0 * k), axes = (13.5 * k, 4.0 * k)
        var state: UInt64 = 7
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let n = Double(state >> 60) - 8
                let fx = Double(x) + 0.5, fy = Double(y) + 0.5
                var c = (70.0 + n + 12 * sin(fx / 9) * sin(fy / 7), 120.0 + n + 10 * sin(fx / 13), 60.0 + n)
                var inside = true
                for i in 0..<4 {
                    let a = quad[i], b = quad[(i + 1) % 4]
                    if (b.0 - a.0) * (fy - a.1) - (b.1 - a.1) * (fx - a.0) < 0 { inside = false }
                }
                if inside {
                    c = (190 + n, 55 + n, 40 + n)
                    let u = (fx - hole.0) / axes.0, v = (fy - hole.1) / axes.1
                    if u * u + v * v < 1 { c = (20 + n, 20 + n, 20 + n) }
                }
                let i = (y * width + x) * 3
                img.pixels[i] = UInt8(max(0, min(255, c.0))); img.pixels[i + 1] = UInt8(max(0, min(255, c.1))); img.pixels[i + 2] = UInt8(max(0, min(255, c.2)))
            }
        }
        return img
    }

    static func readImage(_ path: String) throws -> ImageBuffer {
        try ImageFile.read(path)
    }
}

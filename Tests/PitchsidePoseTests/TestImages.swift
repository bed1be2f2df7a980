import Foundation
import PitchsideCore
import PitchsidePose
import XCTest

/// Test photographs from the cache (fetched by ops/setup → ops/fetch-models)
/// and a shared estimator, loaded once for the whole test run.
enum TestImages {
    /// Decodes an image file to RGB24 with the ffmpeg command-line tool.
    static func read(_ path: String) throws -> ImageBuffer {
        guard FileManager.default.fileExists(atPath: path) else {
            throw PoseError.missingFile(what: "test photo", path: path)
        }
        let size = try run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height",
                            "-of", "csv=p=0", path])
        let parts = String(decoding: size, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw PoseError.unsupportedImage("cannot read the size of \(path)")
        }
        let pixels = try run(["ffmpeg", "-v", "error", "-i", path, "-f", "rawvideo", "-pix_fmt", "rgb24", "-frames:v", "1", "-"])
        return try ImageBuffer(width: w, height: h, layout: .rgb24, pixels: [UInt8](pixels))
    }

    static func photo(_ name: String) throws -> ImageBuffer { try read(PoseAssets.photo(name)) }

    private static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PoseError.unsupportedImage("\(arguments[0]) failed on \(arguments.last!)")
        }
        return data
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var shared: PoseEstimator?

    /// One estimator for all tests (loading takes a moment); reset before use.
    static func estimator() throws -> PoseEstimator {
        lock.lock()
        defer { lock.unlock() }
        if let shared {
            shared.reset()
            return shared
        }
        let made = try PoseEstimator(assets: PoseAssets.default(), threads: 1)
        shared = made
        return made
    }
}

import Foundation

/// Where the LiteRT runtime and the BlazePose models live on this machine.
///
/// Files are fetched once by `ops/setup` (which runs `ops/fetch-models`) into
/// `${PITCHSIDE_CACHE:-$HOME/.cache/pitchside}`; nothing binary is in the repository.
///
/// ```swift
/// let assets = try PoseAssets.default().checked()   // throws with "run ops/setup" when missing
/// let estimator = try PoseEstimator(assets: assets, threads: 1)
/// ```
public struct PoseAssets: Sendable, Equatable {
    public var runtimeLibrary: String
    public var detectorModel: String
    public var landmarkModel: String

    public init(runtimeLibrary: String, detectorModel: String, landmarkModel: String) {
        self.runtimeLibrary = runtimeLibrary
        self.detectorModel = detectorModel
        self.landmarkModel = landmarkModel
    }

    /// The cache root: `$PITCHSIDE_CACHE`, else `~/.cache/pitchside`.
    public static func cacheDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let dir = environment["PITCHSIDE_CACHE"], !dir.isEmpty { return dir }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.cache/pitchside"
    }

    /// The files in the cache layout `ops/fetch-models` writes.
    public static func `default`(environment: [String: String] = ProcessInfo.processInfo.environment) -> PoseAssets {
        let root = cacheDirectory(environment: environment)
        return PoseAssets(
            runtimeLibrary: root + "/lib/libLiteRt.so",
            detectorModel: root + "/models/pose_detection.tflite",
            landmarkModel: root + "/models/pose_landmark_full.tflite")
    }

    /// The test photographs `ops/fetch-models` puts in the cache (`photos/NAME`).
    public static func photo(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        cacheDirectory(environment: environment) + "/photos/" + name
    }

    /// Self, once every file is known to exist; otherwise a `PoseError.missingFile`.
    public func checked() throws -> PoseAssets {
        for (what, path) in [
            ("LiteRT runtime (libLiteRt.so)", runtimeLibrary),
            ("pose detector model", detectorModel),
            ("pose landmark model", landmarkModel),
        ] where !FileManager.default.fileExists(atPath: path) {
            throw PoseError.missingFile(what: what, path: path)
        }
        return self
    }

    /// True when all three files are present.
    public var isAvailable: Bool { (try? checked()) != nil }
}

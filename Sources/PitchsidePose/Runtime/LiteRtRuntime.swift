import CLiteRt
import Foundation

/// An opened LiteRT runtime (`libLiteRt.so`) with one LiteRT environment.
///
/// The library is opened with `dlopen` at run time, so the package builds and
/// its pure parts run without it; a missing or wrong library becomes a clear
/// `PoseError`. Models keep their runtime alive.
///
/// ```swift
/// let runtime = try LiteRtRuntime(libraryPath: PoseAssets.default().runtimeLibrary)
/// let model = try LiteRtModel(runtime: runtime, path: "pose_landmark_full.tflite", threads: 1)
/// ```
public final class LiteRtRuntime {
    let api: PSLiteRtApi
    let environment: LiteRtEnvironment
    public let libraryPath: String

    /// What LiteRT printed while creating the environment (captured when `quiet`).
    public let loadLog: String

    /// Opens the library and creates an environment.
    /// - Parameter quiet: capture LiteRT's start-up chatter on standard error (kept in `loadLog`).
    public init(libraryPath: String, quiet: Bool = true) throws {
        guard FileManager.default.fileExists(atPath: libraryPath) else {
            throw PoseError.missingFile(what: "LiteRT runtime (libLiteRt.so)", path: libraryPath)
        }
        let api = try LiteRtRuntime.openLibrary(libraryPath)
        var env: LiteRtEnvironment?
        var status: LiteRtStatus = 0
        if quiet {
            (status, loadLog) = StderrCapture.run { api.CreateEnvironment!(0, nil, &env) }
        } else {
            status = api.CreateEnvironment!(0, nil, &env)
            loadLog = ""
        }
        guard status == 0, let env else { throw PoseError.runtimeCall(function: "CreateEnvironment", status: status) }
        self.api = api
        self.environment = env
        self.libraryPath = libraryPath
    }

    deinit {
        // Destroying the environment logs the accelerators it releases.
        let (api, environment) = (self.api, self.environment)
        _ = StderrCapture.run { api.DestroyEnvironment!(environment) }
    }

    /// Throws `PoseError.runtimeCall` for a non-zero status.
    func check(_ status: LiteRtStatus, _ function: String) throws {
        if status != 0 { throw PoseError.runtimeCall(function: function, status: status) }
    }

    // dlopen is reference counted and the library is never closed, so each
    // path is resolved once per process.
    private static let lock = NSLock()
    nonisolated(unsafe) private static var opened: [String: PSLiteRtApi] = [:]

    private static func openLibrary(_ path: String) throws -> PSLiteRtApi {
        lock.lock()
        defer { lock.unlock() }
        if let api = opened[path] { return api }
        var api = PSLiteRtApi()
        var message = [CChar](repeating: 0, count: 512)
        guard ps_litert_open(path, &api, &message, message.count) == 0 else {
            throw PoseError.runtimeUnavailable(path: path, reason: String(cString: message))
        }
        opened[path] = api
        return api
    }
}

/// What can go wrong loading or running the pose models, with enough detail
/// to fix it (every message says what to do next).
public enum PoseError: Error, CustomStringConvertible, Equatable {
    /// A file the pose worker needs is not where it should be.
    case missingFile(what: String, path: String)
    /// `libLiteRt.so` exists but cannot be opened or lacks a function.
    case runtimeUnavailable(path: String, reason: String)
    /// The file is not a model LiteRT can load.
    case unreadableModel(path: String, reason: String)
    /// The model loads but its tensors are not the ones this stage expects.
    case wrongModel(path: String, expected: String, found: String)
    /// A LiteRT call returned an error status.
    case runtimeCall(function: String, status: Int32)
    /// The image given is not one the pipeline takes.
    case unsupportedImage(String)

    public var description: String {
        switch self {
        case .missingFile(let what, let path):
            return "\(what) not found at \(path); run ops/setup (or ops/fetch-models) to fetch it"
        case .runtimeUnavailable(let path, let reason):
            return "cannot load the LiteRT runtime \(path): \(reason); run ops/setup to fetch it again"
        case .unreadableModel(let path, let reason):
            return "cannot load model \(path): \(reason)"
        case .wrongModel(let path, let expected, let found):
            return "\(path) is not the expected model: expected tensors \(expected), found \(found)"
        case .runtimeCall(let function, let status):
            return "LiteRt\(function) failed with status \(status)"
        case .unsupportedImage(let message):
            return message
        }
    }
}

/// Errors of the processes themselves (bad arguments, a cluster that cannot start).
public enum NodeError: Error, CustomStringConvertible, Equatable {
    case badArgument(String)
    case noConsumers(String)
    case failed(String)

    public var description: String {
        switch self {
        case .badArgument(let m), .noConsumers(let m), .failed(let m): return m
        }
    }
}

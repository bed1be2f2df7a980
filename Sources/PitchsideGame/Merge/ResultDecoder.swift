import Foundation
import PitchsideCore
import SwiftProtobuf

/// Decodes a worker result from its wire bytes, refusing garbage: bytes that
/// do not parse, oversized messages, and messages that carry no result.
public enum ResultDecoder {
    /// Largest result accepted (a pose with 33 landmarks is ~2 KB; trajectories a few KB).
    public static let maxBytes = 1 << 20

    public enum Failure: Error, Equatable, CustomStringConvertible {
        case oversized(Int)
        case malformed(String)
        case empty

        public var description: String {
            switch self {
            case .oversized(let n): return "worker result of \(n) bytes exceeds \(ResultDecoder.maxBytes)"
            case .malformed(let why): return "worker result does not decode: \(why)"
            case .empty: return "worker result carries no result"
            }
        }
    }

    public static func decode(_ bytes: [UInt8]) -> Result<PSWorkerResult, Failure> {
        guard bytes.count <= maxBytes else { return .failure(.oversized(bytes.count)) }
        do {
            let r = try PSWorkerResult(serializedBytes: bytes)
            guard r.result != nil else { return .failure(.empty) }
            return .success(r)
        } catch {
            return .failure(.malformed("\(error)"))
        }
    }
}

import Foundation
import PitchsideCore

/// The worker results an aggregator handed to its games, in the order it handed them, kept in
/// a file (`pitchside aggregate --keep-results`, `analyze --keep-results`): `Game` is
/// deterministic, so playing them again (`GameReplay`, `pitchside replay`) gives the run's
/// events without its workers, video or sockets. A change to the game's rules is then measured
/// over a corpus's runs in seconds (`eval games --replay`) instead of analysing every video again.
///
/// Format: the magic line `pitchside-results 1\n`, then per result a 4-byte little-endian
/// length and the result's protobuf bytes. A stream's end is kept as the `FrameDone` with
/// `end_of_stream` set and the stream's last media time in its header.
public enum KeptResults {
    static let magic = Data("pitchside-results 1\n".utf8)
    /// Larger than any result a worker may send (`ResultDecoder.maxBytes` is far below).
    static let maxRecordBytes = 64 << 20

    public enum ReadError: Error, CustomStringConvertible, Equatable {
        case notKeptResults(path: String)
        case truncated(path: String, offset: Int, results: Int)
        case malformed(path: String, offset: Int, results: Int)

        public var description: String {
            switch self {
            case .notKeptResults(let path):
                return "\(path): not a file of kept results (written by --keep-results)"
            case .truncated(let path, let offset, let results):
                return "\(path): cut short at byte \(offset), after \(results) results (the writer stopped mid-record)"
            case .malformed(let path, let offset, let results):
                return "\(path): the record at byte \(offset), after \(results) results, is no worker result"
            }
        }
    }

    /// Appends results to the file; each `append` is written to the file before it returns.
    public final class Writer {
        public let path: String
        private let handle: FileHandle

        /// Creates the file, or opens one kept before to append to it (an aggregator restarted on
        /// its log goes on where the file stands). A last record cut short by a killed writer is
        /// cut off; a file that is not kept results, or holds a record that is no result, is
        /// refused, not overwritten.
        public init(path: String) throws {
            self.path = path
            if let existing = FileManager.default.contents(atPath: path), !existing.isEmpty {
                guard existing.starts(with: KeptResults.magic) else { throw ReadError.notKeptResults(path: path) }
                handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
                let scan = KeptResults.records(in: existing)
                if scan.stop == .malformed {
                    throw ReadError.malformed(path: path, offset: scan.end, results: scan.results.count)
                }
                if scan.stop == .truncated { try handle.truncate(atOffset: UInt64(scan.end)) }
                try handle.seekToEnd()
            } else {
                guard FileManager.default.createFile(atPath: path, contents: KeptResults.magic) else {
                    throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
                }
                handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                try handle.seekToEnd()
            }
        }

        deinit { try? handle.close() }

        public func append(_ results: [PSWorkerResult]) throws {
            guard !results.isEmpty else { return }
            var data = Data()
            for result in results {
                let bytes: Data = try result.serializedData()
                var length = UInt32(bytes.count).littleEndian
                withUnsafeBytes(of: &length) { data.append(contentsOf: $0) }
                data.append(bytes)
            }
            try handle.write(contentsOf: data)
        }

        /// The stream ended at `ptsUs` (what `GameRecorder.endOfStream` was told).
        public func appendEnd(stream: String, ptsUs: Int64) throws {
            try append([KeptResults.endMarker(stream: stream, ptsUs: ptsUs)])
        }
    }

    static func endMarker(stream: String, ptsUs: Int64) -> PSWorkerResult {
        var done = PSFrameDone()
        done.header.streamID = stream
        done.header.ptsUs = ptsUs
        done.role = "aggregator"
        done.endOfStream = true
        var result = PSWorkerResult()
        result.frameDone = done
        return result
    }

    /// Every result in the file, in order.
    public static func read(path: String) throws -> [PSWorkerResult] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard data.starts(with: magic) else { throw ReadError.notKeptResults(path: path) }
        let scan = records(in: data)
        switch scan.stop {
        case .end: return scan.results
        case .truncated: throw ReadError.truncated(path: path, offset: scan.end, results: scan.results.count)
        case .malformed: throw ReadError.malformed(path: path, offset: scan.end, results: scan.results.count)
        }
    }

    /// The whole records after the magic line, and the offset where they end (the file's
    /// length, or where a record is cut short or is no result).
    static func records(in data: Data) -> (results: [PSWorkerResult], end: Int, stop: Stop) {
        var results: [PSWorkerResult] = []
        var offset = magic.count
        let base = data.startIndex
        while offset < data.count {
            guard offset + 4 <= data.count else { return (results, offset, .truncated) }
            var length = 0
            for k in 0..<4 { length |= Int(data[base + offset + k]) << (8 * k) }
            guard length <= maxRecordBytes else { return (results, offset, .malformed) }
            let start = offset + 4
            guard start + length <= data.count else { return (results, offset, .truncated) }
            guard let result = try? PSWorkerResult(serializedBytes: data.subdata(in: (base + start)..<(base + start + length))),
                  result.result != nil else { return (results, offset, .malformed) }
            results.append(result)
            offset = start + length
        }
        return (results, offset, .end)
    }

    enum Stop { case end, truncated, malformed }
}

/// Plays games again over kept results (`KeptResults`): one `Game` per stream, each result
/// handled as the aggregator's `GameRecorder` did, each end-of-stream marker ending its
/// stream's game. Pure: the same results give the same events (wall-clock times aside).
public enum GameReplay {
    public static func events(_ results: [PSWorkerResult],
                              configuration: (String) -> GameConfiguration = { _ in GameConfiguration() },
                              classifier: any ThrowTypeClassifier = LearnedThrowTypeClassifier()) -> [PSGameEvent] {
        var games: [String: Game] = [:]
        var events: [PSGameEvent] = []
        for result in results {
            guard let header = result.resultHeader, !header.streamID.isEmpty else { continue }
            let stream = header.streamID
            var game = games[stream] ?? Game(streamID: stream, configuration: configuration(stream), classifier: classifier)
            if result.isEndOfStream {
                events += game.endOfStream(ptsUs: header.ptsUs)
            } else {
                events += game.handle(result)
            }
            games[stream] = game
        }
        return events
    }
}

extension PSWorkerResult {
    /// A stream's end: the marker a kept file ends its stream with (`KeptResults.endMarker`),
    /// or a worker's frame receipt saying it saw the end.
    var isEndOfStream: Bool {
        if case .frameDone(let done)? = result { return done.endOfStream }
        return false
    }
}

import PitchsideCore

/// Puts the worker results of every stream back into media-time order.
///
/// Workers finish frames at different speeds (and the pose worker may be
/// sharded by frame), so results reach the aggregator out of order. The merger
/// keeps a bounded re-order buffer per stream keyed by (pts_us, seq, producer,
/// arrival) and releases results once the stream's *watermark* passes them: the minimum,
/// over the expected producer roles, of the last `pts_us` each role reported
/// done with a `PSFrameDone`. A role that stops reporting would stall the
/// stream, so when the buffer exceeds `maxBuffered` results or spans more than
/// `maxSpanUs` of media time the oldest results are released anyway and the
/// roles behind are marked lagging (left out of the watermark until they catch up).
///
/// Within one frame, results are released producer by producer (by id), each
/// producer's in the order it sent them: the game sees the same order however
/// the workers raced, so a run, a rerun and a run restarted midway agree.
///
/// Results older than what was already released are *late*: they are counted
/// and returned in `MergeOutput.late`, so the caller decides (the game can still
/// use a late board, census or trajectory observation, since trajectories carry
/// their whole point history; a late pose only misses the throw-type window).
///
/// ```swift
/// var merger = ResultMerger(expectedRoles: ["detection", "trajectory", "pose"])
/// let out = merger.add(result)
/// for r in out.released + out.late { events += game.handle(r) }
/// ```
public struct ResultMerger: Sendable {
    /// Roles whose `PSFrameDone` advance the watermark.
    public let expectedRoles: Set<String>
    /// Streams served; nil accepts any non-empty stream id.
    public var knownStreams: Set<String>?
    public let maxBuffered: Int
    public let maxSpanUs: Int64
    public private(set) var total = MergerCounters()
    public private(set) var perStream: [String: MergerCounters] = [:]
    private var streams: [String: StreamBuffer] = [:]
    private var arrival: UInt64 = 0

    /// What one `add` produced.
    public struct MergeOutput: Sendable {
        /// In-order results now past the watermark.
        public var released: [PSWorkerResult] = []
        /// Results older than the stream's release point (counted in `late`).
        public var late: [PSWorkerResult] = []
        /// Why the result was dropped, if it was.
        public var rejected: Rejection?
    }

    public enum Rejection: String, Sendable {
        case missingStream, unknownStream, duplicate, ignored
    }

    private struct Entry: Sendable {
        var pts: Int64
        var seq: UInt64
        var producer: String
        var arrival: UInt64
        var key: String
        var result: PSWorkerResult
    }

    private struct StreamBuffer: Sendable {
        var entries: [Entry] = []  // sorted by (pts, seq, producer, arrival)
        var keys: Set<String> = []
        var doneByRole: [String: Int64] = [:]
        var lagging: Set<String> = []
        var releasedPts: Int64 = .min
        var recentReleased: [String] = []  // FIFO of keys released, for late duplicates
        var recentSet: Set<String> = []
    }

    public init(expectedRoles: Set<String>, knownStreams: Set<String>? = nil,
                maxBuffered: Int = 512, maxSpanUs: Int64 = 2_000_000) {
        self.expectedRoles = expectedRoles
        self.knownStreams = knownStreams
        self.maxBuffered = maxBuffered
        self.maxSpanUs = maxSpanUs
    }

    /// Roles currently left out of a stream's watermark because they fell behind.
    public func laggingRoles(stream: String) -> Set<String> { streams[stream]?.lagging ?? [] }

    /// Results waiting in a stream's buffer.
    public func buffered(stream: String) -> Int { streams[stream]?.entries.count ?? 0 }

    /// Marks everything up to `pts` as already released (after a restart, so
    /// results a worker re-sends are reported late instead of replayed in order).
    public mutating func resume(stream: String, afterPts pts: Int64) {
        streams[stream, default: StreamBuffer()].releasedPts = pts
    }

    /// Takes one result; returns what can now be released in order.
    public mutating func add(_ result: PSWorkerResult) -> MergeOutput {
        var out = MergeOutput()
        guard let header = result.resultHeader else {
            total.ignored += 1
            out.rejected = .ignored
            return out
        }
        let stream = header.streamID
        guard !stream.isEmpty else {
            total.missingStream += 1
            out.rejected = .missingStream
            return out
        }
        if let known = knownStreams, !known.contains(stream) {
            total.unknownStream += 1
            perStream[stream, default: MergerCounters()].unknownStream += 1
            out.rejected = .unknownStream
            return out
        }
        var buf = streams[stream] ?? StreamBuffer()
        var counters = perStream[stream] ?? MergerCounters()
        defer {
            streams[stream] = buf
            perStream[stream] = counters
        }
        let key = Self.key(result, header)
        if buf.keys.contains(key) || buf.recentSet.contains(key) {
            counters.duplicates += 1
            total.duplicates += 1
            out.rejected = .duplicate
            return out
        }
        if case .frameDone(let done) = result.result {
            let role = done.role
            buf.doneByRole[role] = max(buf.doneByRole[role] ?? .min, header.ptsUs)
            if buf.lagging.contains(role), header.ptsUs >= buf.releasedPts { buf.lagging.remove(role) }
        }
        if header.ptsUs < buf.releasedPts {
            counters.late += 1
            total.late += 1
            Self.remember(key, in: &buf)
            out.late.append(result)
            return out
        }
        arrival += 1
        let entry = Entry(pts: header.ptsUs, seq: header.seq, producer: header.producerID, arrival: arrival,
                          key: key, result: result)
        let index = Self.insertionIndex(buf.entries, entry)
        buf.entries.insert(entry, at: index)
        buf.keys.insert(key)
        counters.accepted += 1
        total.accepted += 1

        // Release everything at or below the watermark.
        let watermark = Self.watermark(buf, expectedRoles)
        var released: [PSWorkerResult] = []
        while let first = buf.entries.first, first.pts <= watermark {
            released.append(Self.pop(&buf))
        }
        // Bounds: a dead or slow worker must not stall the stream forever.
        while let first = buf.entries.first, let last = buf.entries.last,
              buf.entries.count > maxBuffered || last.pts - first.pts > maxSpanUs {
            let pts = first.pts
            for role in expectedRoles where (buf.doneByRole[role] ?? .min) < pts { buf.lagging.insert(role) }
            released.append(Self.pop(&buf))
            counters.forcedReleases += 1
            total.forcedReleases += 1
        }
        counters.released += released.count
        total.released += released.count
        out.released = released
        return out
    }

    /// Releases everything a stream still buffers (end of stream, shutdown).
    public mutating func flush(stream: String) -> [PSWorkerResult] {
        guard var buf = streams[stream] else { return [] }
        var out: [PSWorkerResult] = []
        while !buf.entries.isEmpty { out.append(Self.pop(&buf)) }
        streams[stream] = buf
        perStream[stream, default: MergerCounters()].released += out.count
        total.released += out.count
        return out
    }

    private static func watermark(_ buf: StreamBuffer, _ roles: Set<String>) -> Int64 {
        var mark = Int64.max
        for role in roles where !buf.lagging.contains(role) {
            mark = min(mark, buf.doneByRole[role] ?? .min)
        }
        return mark
    }

    private static func pop(_ buf: inout StreamBuffer) -> PSWorkerResult {
        let e = buf.entries.removeFirst()
        buf.keys.remove(e.key)
        buf.releasedPts = max(buf.releasedPts, e.pts)
        remember(e.key, in: &buf)
        return e.result
    }

    private static func remember(_ key: String, in buf: inout StreamBuffer) {
        guard !buf.recentSet.contains(key) else { return }
        buf.recentReleased.append(key)
        buf.recentSet.insert(key)
        if buf.recentReleased.count > 4096 {
            for old in buf.recentReleased.prefix(1024) { buf.recentSet.remove(old) }
            buf.recentReleased.removeFirst(1024)
        }
    }

    private static func insertionIndex(_ entries: [Entry], _ e: Entry) -> Int {
        var lo = 0, hi = entries.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let m = entries[mid]
            if (m.pts, m.seq, m.producer, m.arrival) < (e.pts, e.seq, e.producer, e.arrival) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Identity of a result for duplicate detection: kind, frame, producer and,
    /// for trajectories, the track (several tracks report on one frame).
    static func key(_ r: PSWorkerResult, _ h: PSHeader) -> String {
        var k = "\(r.kindName)|\(h.seq)|\(h.ptsUs)|\(h.producerID)"
        switch r.result {
        case .trajectory(let t): k += "|\(t.uuid)|\(t.detectedPoints.count)"
        case .frameDone(let d): k += "|\(d.role)"
        default: break
        }
        return k
    }
}

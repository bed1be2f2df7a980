import PitchsideCore

/// Kept results with their detection worker's results replaced by others for the same video
/// (`eval detection --keep-results`), so that a change to the detection worker is measured at
/// the game's level over kept runs (`eval games --replay RUNS --detection DIR`) in seconds,
/// without analysing every video again: the detection results are a pure function of the frames,
/// and the trajectory and pose results do not depend on them.
public enum DetectionSplice {
    public struct Mismatch: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Whether the result is one the detection worker produces (its frame receipts aside).
    public static func isDetection(_ result: PSWorkerResult) -> Bool {
        switch result.result {
        case .board, .stability, .census: return true
        default: return false
        }
    }

    /// `kept` without its detection results, and `detection` in their place: each new result
    /// where the kept one of its frame and kind stood (the order the aggregator handed the game
    /// its results in), else after the frame's last kept detection result, else after the last
    /// kept result at or before its media time. The new results take the stream and producer of the kept
    /// detection results. Fails when `kept` holds no detection results or more than one stream.
    public static func splice(_ detection: [PSWorkerResult], into kept: [PSWorkerResult]) throws -> [PSWorkerResult] {
        let streams = Set(kept.compactMap { $0.resultHeader?.streamID }.filter { !$0.isEmpty })
        guard streams.count == 1, let stream = streams.first else {
            throw Mismatch(description: "the kept results hold \(streams.count) streams; a splice needs exactly one")
        }
        guard let producer = kept.first(where: isDetection)?.resultHeader?.producerID else {
            throw Mismatch(description: "the kept results hold no detection results to replace")
        }
        // The kept results without detection; where each frame's detection results of each
        // kind stood, and where the frame's last one stood.
        var rest: [PSWorkerResult] = []
        var kindSlot: [String: Int] = [:]
        var frameSlot: [Int64: Int] = [:]
        for result in kept {
            if isDetection(result) {
                let pts = result.resultHeader?.ptsUs ?? 0
                let key = "\(pts) \(result.kindName)"
                if kindSlot[key] == nil { kindSlot[key] = rest.count }
                frameSlot[pts] = rest.count
            } else {
                rest.append(result)
            }
        }
        // Each new result's position in `rest`; those sharing one keep their order.
        var insertions: [(at: Int, order: Int, result: PSWorkerResult)] = []
        for (order, var result) in detection.filter(isDetection).enumerated() {
            result.setStream(stream, producer: producer)
            let pts = result.resultHeader?.ptsUs ?? 0
            let at = kindSlot["\(pts) \(result.kindName)"] ?? frameSlot[pts]
                ?? (rest.lastIndex { ($0.resultHeader?.ptsUs ?? 0) <= pts && !$0.isEndOfStream }.map { $0 + 1 } ?? 0)
            insertions.append((at, order, result))
        }
        insertions.sort { ($0.at, $0.order) < ($1.at, $1.order) }
        var out: [PSWorkerResult] = []
        out.reserveCapacity(rest.count + insertions.count)
        var next = 0
        for (index, result) in rest.enumerated() {
            while next < insertions.count, insertions[next].at == index { out.append(insertions[next].result); next += 1 }
            out.append(result)
        }
        while next < insertions.count { out.append(insertions[next].result); next += 1 }
        return out
    }
}

extension PSWorkerResult {
    /// Moves a result to another stream and producer.
    mutating func setStream(_ stream: String, producer: String) {
        guard var header = resultHeader else { return }
        header.streamID = stream
        header.producerID = producer
        resultHeader = header
    }
}

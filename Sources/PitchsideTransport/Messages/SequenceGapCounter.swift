/// Accounts for the frames of one stream (and rendition) that a consumer did not receive.
///
/// Feed it the `seq` of every frame received, in arrival order; at end of stream give it the
/// last sequence number published (a `PSFrame` with `endOfStream` carries it in `header.seq`)
/// and it counts the missing tail too. Afterwards `received + dropped == published` exactly,
/// which is how a consumer in `live` pacing reports what its high-water mark cost (DESIGN §7).
///
/// ```swift
/// var gaps = SequenceGapCounter(expectedFirst: 0)
/// gaps.record(frame.header.seq)          // for every frame
/// gaps.finish(lastSeq: eos.header.seq)   // at end of stream
/// print(gaps.received, gaps.dropped)
/// ```
public struct SequenceGapCounter: Sendable, Equatable {
    /// Frames counted as received (duplicates excluded).
    public private(set) var received = 0
    /// Frames never seen: gaps between consecutive sequence numbers, and the tail.
    public private(set) var dropped = 0
    /// Frames whose seq was already seen or passed over as the current one (not counted as received).
    public private(set) var duplicates = 0
    /// Frames that arrived after a later one; each was first counted as dropped, then un-counted.
    public private(set) var outOfOrder = 0
    /// The highest seq seen.
    public private(set) var highest: UInt64?
    /// True once `finish` has been called.
    public private(set) var isFinished = false

    private let expectedFirst: UInt64?
    /// Seqs that were counted as dropped (the gaps), so a late arrival can be recognised.
    /// Kept small: only the most recent `lateWindow` gaps are remembered.
    private var missing: Set<UInt64> = []
    private var missingOrder: [UInt64] = []
    private let lateWindow: Int

    /// - Parameters:
    ///   - expectedFirst: the first seq the publisher sends (0 for a file); frames before the
    ///     first one received then count as dropped. nil starts counting at the first frame received.
    ///   - lateWindow: how many recent gaps are remembered to recognise out-of-order arrivals.
    public init(expectedFirst: UInt64? = nil, lateWindow: Int = 1024) {
        self.expectedFirst = expectedFirst
        self.lateWindow = lateWindow
    }

    /// What `record` made of one seq.
    public enum Arrival: Equatable, Sendable {
        /// The next one expected.
        case inOrder
        /// After a gap of `missed` frames.
        case afterGap(missed: Int)
        /// A frame from an earlier gap, arriving late.
        case late
        /// Seen before (or older than anything remembered).
        case duplicate
    }

    /// Records one received seq.
    @discardableResult
    public mutating func record(_ seq: UInt64) -> Arrival {
        guard let highest else {
            self.highest = seq
            received += 1
            if let expectedFirst, seq > expectedFirst {
                noteMissing(expectedFirst..<seq)
                return .afterGap(missed: Int(seq - expectedFirst))
            }
            return .inOrder
        }
        if seq == highest &+ 1 {
            self.highest = seq
            received += 1
            return .inOrder
        }
        if seq > highest {
            noteMissing((highest + 1)..<seq)
            self.highest = seq
            received += 1
            return .afterGap(missed: Int(seq - highest - 1))
        }
        if missing.remove(seq) != nil {
            dropped -= 1
            received += 1
            outOfOrder += 1
            return .late
        }
        duplicates += 1
        return .duplicate
    }

    /// Accounts the tail after the last frame received, given the last seq published.
    /// Later calls (a repeated end-of-stream marker) change nothing.
    public mutating func finish(lastSeq: UInt64) {
        guard !isFinished else { return }
        isFinished = true
        if let highest {
            if lastSeq > highest { dropped += Int(lastSeq - highest) }
        } else if let expectedFirst, lastSeq >= expectedFirst {
            dropped += Int(lastSeq - expectedFirst + 1)
        }
    }

    /// The number of frames the publisher sent, as far as this counter knows.
    public var accounted: Int { received + dropped }

    private mutating func noteMissing(_ range: Range<UInt64>) {
        dropped += range.count
        // Remember only the newest gaps; a frame later than that is a duplicate by then.
        for seq in range.suffix(lateWindow) {
            missing.insert(seq)
            missingOrder.append(seq)
        }
        if missingOrder.count > 2 * lateWindow {
            let forget = missingOrder.count - lateWindow
            for seq in missingOrder.prefix(forget) { missing.remove(seq) }
            missingOrder.removeFirst(forget)
        }
    }
}

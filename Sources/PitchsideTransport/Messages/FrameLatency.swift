import Foundation

/// Wall-clock time from a frame's capture to the moment every expected worker role has
/// reported it done at the aggregator: the frame is then complete there and can be merged.
///
/// Fed with the `FrameDone`s as they arrive. A role's progress is the highest media time it
/// reported done, and a frame is settled once every role's progress reached it. A frame every
/// role reported is measured; one that some role passed over (lost at its high-water mark in
/// live pacing) is counted as `partial`. Frames without a capture time are not measured; at
/// most `maxPending` frames are remembered per stream (a role that never reports would
/// otherwise grow the list forever).
///
/// ```swift
/// var latency = FrameLatency(roles: ["detection", "trajectory", "pose"])
/// latency.frameDone(stream: "cam1", role: "pose", ptsUs: pts, captureUnixUs: capture, nowUnixUs: now)
/// print(latency.summary()?.description ?? "no frame")
/// ```
public struct FrameLatency: Sendable {
    public let roles: Set<String>
    public let maxPending: Int
    /// Latencies kept for the percentiles (the most recent `maxSamples`).
    public let maxSamples: Int

    private var progress: [String: [String: Int64]] = [:]
    private var pending: [String: [(pts: Int64, captureUnixUs: Int64, roles: Set<String>)]] = [:]  // sorted by pts
    private var samples: [Double] = []
    private var nextSample = 0
    public private(set) var measured = 0
    /// Frames settled without a report from every role.
    public private(set) var partial = 0

    public init(roles: Set<String>, maxPending: Int = 4096, maxSamples: Int = 100_000) {
        self.roles = roles
        self.maxPending = maxPending
        self.maxSamples = maxSamples
    }

    /// A role reported a frame done.
    public mutating func frameDone(stream: String, role: String, ptsUs: Int64, captureUnixUs: Int64, nowUnixUs: Int64) {
        guard roles.contains(role) else { return }
        if captureUnixUs > 0 {
            var list = pending[stream, default: []]
            let index = list.firstIndex { $0.pts >= ptsUs } ?? list.count
            if index == list.count || list[index].pts != ptsUs {
                list.insert((ptsUs, captureUnixUs, [role]), at: index)
                if list.count > maxPending { list.removeFirst(list.count - maxPending) }
            } else {
                list[index].roles.insert(role)
            }
            pending[stream] = list
        }
        var done = progress[stream, default: [:]]
        done[role] = max(done[role] ?? .min, ptsUs)
        progress[stream] = done
        guard done.count == roles.count, let mark = done.values.min(), var list = pending[stream] else { return }
        var complete = 0
        while complete < list.count, list[complete].pts <= mark {
            if list[complete].roles.count == roles.count {
                record(Double(nowUnixUs - list[complete].captureUnixUs) / 1000)
            } else {
                partial += 1
            }
            complete += 1
        }
        list.removeFirst(complete)
        pending[stream] = list
    }

    private mutating func record(_ milliseconds: Double) {
        measured += 1
        if samples.count < maxSamples {
            samples.append(milliseconds)
        } else {
            samples[nextSample] = milliseconds
            nextSample = (nextSample + 1) % maxSamples
        }
    }

    /// Percentiles of the kept latencies, in milliseconds.
    public struct Summary: Sendable, Equatable, CustomStringConvertible {
        public var frames: Int
        /// Frames some role passed over (not measured).
        public var partial: Int
        public var p50: Double
        public var p90: Double
        public var p99: Double
        public var max: Double

        public var description: String {
            func ms(_ v: Double) -> String { String(format: "%.1f", v) }
            return "\(frames) frames, p50 \(ms(p50)) ms, p90 \(ms(p90)) ms, p99 \(ms(p99)) ms, max \(ms(max)) ms"
                + (partial > 0 ? " (\(partial) frames not analysed by every role)" : "")
        }
    }

    public func summary() -> Summary? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.sorted()
        func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((p * Double(sorted.count - 1)).rounded()))] }
        return Summary(frames: measured, partial: partial, p50: percentile(0.5), p90: percentile(0.9), p99: percentile(0.99), max: sorted.last!)
    }
}

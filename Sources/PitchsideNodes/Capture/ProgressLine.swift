import Foundation
import PitchsideCore

/// A once-a-second progress line on stderr for finite inputs:
/// `capture: 450/1800 frames (25.0%) 212.4 frames/s, trajectory 450 received/0 lost`.
struct ProgressLine {
    let total: Int?
    let enabled: Bool
    private var lastPrint = WallClock.monotonicSeconds()
    private var lastCount = 0
    private let isTerminal = isatty(STDERR_FILENO) != 0

    init(total: Int?, enabled: Bool) {
        self.total = total
        self.enabled = enabled
    }

    mutating func update(published: Int, extra: @autoclosure () -> String = "", force: Bool = false) {
        guard enabled else { return }
        let now = WallClock.monotonicSeconds()
        guard force || now - lastPrint >= 1 else { return }
        let rate = Double(published - lastCount) / max(now - lastPrint, 1e-6)
        var line = "capture: \(published)"
        if let total, total > 0 {
            line += "/\(total) frames (\(String(format: "%.1f", min(100, 100 * Double(published) / Double(total))))%)"
        } else {
            line += " frames"
        }
        line += String(format: " %.1f frames/s", rate)
        let extra = extra()
        if !extra.isEmpty { line += ", \(extra)" }
        FileHandle.standardError.write(Data(((isTerminal ? "\r" : "") + line + (isTerminal ? "\u{1B}[K" : "\n")).utf8))
        lastPrint = now
        lastCount = published
    }

    func finish() {
        if enabled && isTerminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}

import Foundation

/// Processor time of every descendant of a process, read from /proc while they run (Linux),
/// so a benchmark can say which process of a cluster the time went to. A process's last
/// sample is at most one sampling interval before it exits.
struct ProcessSampler {
    let root: Int32
    private(set) var cpuSeconds: [Int32: Double] = [:]
    private(set) var names: [Int32: String] = [:]
    private let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))

    init(root: Int32 = getpid()) { self.root = root }

    mutating func sample() {
        var parent: [Int32: Int32] = [:]
        var cpu: [Int32: Double] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            // After "pid (comm)": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime ...
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let ppid = Int32(fields[1]), let user = Double(fields[11]), let system = Double(fields[12])
            else { continue }
            parent[pid] = ppid
            cpu[pid] = (user + system) / ticks
        }
        for (pid, seconds) in cpu where pid != root && descends(pid, parent) {
            cpuSeconds[pid] = seconds
            if names[pid] == nil { names[pid] = Self.name(pid) }
        }
    }

    private func descends(_ pid: Int32, _ parent: [Int32: Int32]) -> Bool {
        var p = pid
        for _ in 0..<64 {
            guard let up = parent[p], up > 1 else { return false }
            if up == root { return true }
            p = up
        }
        return false
    }

    /// "worker pose", "capture", "aggregate", ... from the command line.
    private static func name(_ pid: Int32) -> String {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return "pid \(pid)" }
        let args = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard args.count > 1 else { return args.first ?? "pid \(pid)" }
        var name = args[1]
        if name == "worker", args.count > 2 { name += " " + args[2] }
        if let i = args.firstIndex(of: "--shard"), i + 1 < args.count { name += " " + args[i + 1] }
        return name
    }

    /// Processor seconds per process name (processes of one name added up), largest first.
    var byName: [(name: String, seconds: Double)] {
        var sums: [String: Double] = [:]
        for (pid, seconds) in cpuSeconds { sums[names[pid] ?? "?", default: 0] += seconds }
        return sums.map { ($0.key, $0.value) }.sorted { $0.seconds > $1.seconds }
    }
}

/// The one-minute load average, from /proc/loadavg.
func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?").split(separator: " ").prefix(3).joined(separator: " ")
}

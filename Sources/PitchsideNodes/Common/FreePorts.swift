import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A block of loopback ports for a private cluster (`pitchside analyze`, `bench analyze`).
///
/// The block is chosen below the kernel's ephemeral range: the ports there are handed out to
/// outgoing connections, the cluster's own among them (a worker connecting to the aggregator),
/// so a port found free there could be taken between the check and a process binding it.
public enum FreePorts {
    /// Ports in a block: the cluster's endpoints use base … base + 21.
    public static let blockSize = 22

    /// The base port of a block of `blockSize` free loopback ports outside the ephemeral range.
    public static func block() -> Int {
        let bases = candidateRange()
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100 {
            // A round base (easier to read in logs), still inside the range.
            let base = (Int.random(in: bases, using: &generator) + 99) / 100 * 100
            guard bases.contains(base) else { continue }
            if (0..<blockSize).allSatisfy({ isFree(base + $0) }) { return base }
        }
        return bases.lowerBound
    }

    /// The bases to draw from: a whole block lies between 20000 and the ephemeral range, or
    /// above that range when it starts too low to leave room.
    static func candidateRange() -> ClosedRange<Int> {
        let ephemeral = ephemeralRange()
        if ephemeral.lowerBound - blockSize - 100 > 20_000 { return 20_000...(ephemeral.lowerBound - blockSize - 100) }
        return (ephemeral.upperBound + 100)...(65_535 - blockSize - 100)
    }

    /// The kernel's ephemeral port range (Linux: /proc/sys/net/ipv4/ip_local_port_range).
    public static func ephemeralRange() -> ClosedRange<Int> {
        guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8) else {
            return 32_768...60_999
        }
        let numbers = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).compactMap { Int($0) }
        guard numbers.count == 2, numbers[0] <= numbers[1] else { return 32_768...60_999 }
        return numbers[0]...numbers[1]
    }

    static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs a closure with the process's standard error sent to a temporary file,
/// then restores it and returns what was written.
///
/// LiteRT prints about a dozen INFO/WARNING lines (failed NPU/GPU probes) on
/// every model load and offers no exported log control; capturing keeps CLI
/// output clean while the text stays available for error messages.
/// Standard error is process-wide: other threads' writes during the closure
/// are captured too, so keep the closure short.
enum StderrCapture {
    private static let lock = NSLock()

    static func run<T>(_ body: () throws -> T) rethrows -> (value: T, text: String) {
        lock.lock()
        defer { lock.unlock() }
        var template = Array("/tmp/pitchside-litert-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { return (try body(), "") }
        let path = String(cString: template)
        unlink(path)
        fflush(stderr)
        let saved = dup(2)
        guard saved >= 0 else {
            close(fd)
            return (try body(), "")
        }
        dup2(fd, 2)
        defer {
            fflush(stderr)
            dup2(saved, 2)
            close(saved)
            close(fd)
        }
        let value = try body()
        fflush(stderr)
        var text = ""
        let size = lseek(fd, 0, SEEK_END)
        if size > 0 {
            var bytes = [UInt8](repeating: 0, count: Int(min(size, 1 << 16)))
            let n = pread(fd, &bytes, bytes.count, 0)
            if n > 0 { text = String(decoding: bytes[0..<n], as: UTF8.self) }
        }
        return (value, text)
    }
}

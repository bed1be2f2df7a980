import Foundation
import PitchsideNodes
import XCTest

/// The built `pitchside` executable, next to the test bundle (`swift build --build-tests`
/// builds both), or `PITCHSIDE_BIN`.
enum PitchsideBinary {
    static var path: String {
        if let override = ProcessInfo.processInfo.environment["PITCHSIDE_BIN"] { return override }
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("pitchside").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        return ".build/debug/pitchside"
    }
}

/// A child process (`pitchside` unless told otherwise) whose output is collected, killed if
/// the test forgets it.
final class ChildProcess {
    let process = Process()
    private let stdoutPipe = Pipe()
    private let stderrPipe = Pipe()
    private var stdoutData = Data()
    private var stderrData = Data()
    /// Pipes whose end the reader has seen (the child and everything it started closed them).
    private var pipesAtEnd = 0
    private let lock = NSLock()

    init(_ arguments: [String], environment: [String: String] = [:], executable: String = PitchsideBinary.path) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        stdoutPipe.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            self?.lock.lock(); defer { self?.lock.unlock() }
            if d.isEmpty { h.readabilityHandler = nil; self?.pipesAtEnd += 1 } else { self?.stdoutData.append(d) }
        }
        stderrPipe.fileHandleForReading.readabilityHandler = { [weak self] h in
            let d = h.availableData
            self?.lock.lock(); defer { self?.lock.unlock() }
            if d.isEmpty { h.readabilityHandler = nil; self?.pipesAtEnd += 1 } else { self?.stderrData.append(d) }
        }
        try process.run()
    }

    deinit {
        if process.isRunning { process.terminate() }
    }

    var stdout: String { lock.lock(); defer { lock.unlock() }; return String(decoding: stdoutData, as: UTF8.self) }
    var stderr: String { lock.lock(); defer { lock.unlock() }; return String(decoding: stderrData, as: UTF8.self) }

    /// Waits for the exit; returns nil (and kills the child) when it takes longer than `timeout`.
    @discardableResult
    func wait(timeout: TimeInterval) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            return nil
        }
        process.waitUntilExit()
        // All the child wrote is read once both pipes reached their end: on a loaded machine the
        // reader can run well after the exit (a fixed 50 ms lost a refusal's message once).
        let drained = Date().addingTimeInterval(5)
        while Date() < drained, (lock.withLock { pipesAtEnd }) < 2 { usleep(5_000) }
        return process.terminationStatus
    }

    func signal(_ sig: Int32) { kill(process.processIdentifier, sig) }
}

/// Ports for one test: each test takes its own free block, below the kernel's ephemeral range
/// (`FreePorts`): a port there can be taken as the source port of any outgoing connection,
/// the test's own clusters' among them, between the choice and the bind.
enum TestPorts {
    private static let lock = NSLock()
    /// Blocks handed out in this run, so two clusters of one run never share a block.
    nonisolated(unsafe) private static var handedOut: Set<Int> = []

    static func base() -> Int {
        lock.lock(); defer { lock.unlock() }
        for _ in 0..<1_000 {
            let base = FreePorts.block()
            if handedOut.insert(base).inserted { return base }
        }
        fatalError("no free block of \(FreePorts.blockSize) loopback ports left below the ephemeral range")
    }
}

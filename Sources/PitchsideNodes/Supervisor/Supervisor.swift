import Foundation
import Logging

/// Runs the cluster's processes as children: restarts one that dies (with a
/// growing back-off), and stops all of them cleanly — SIGTERM, a grace period,
/// then SIGKILL — on `stop()` or when a child marked `endsRunOnExit` finishes.
///
/// ```swift
/// let supervisor = Supervisor(children: specs, logger: logger)
/// supervisor.installSignalHandlers()   // Ctrl-C / SIGTERM → stop()
/// let status = supervisor.run()        // blocks until the run ends
/// ```
public final class Supervisor: @unchecked Sendable {
    public struct Options: Sendable {
        /// First restart delay; doubles on each quick failure up to `maximumBackoff`.
        public var initialBackoff: TimeInterval = 0.5
        public var maximumBackoff: TimeInterval = 8
        /// A child that ran this long before dying is considered healthy again.
        public var healthyAfter: TimeInterval = 10
        /// Time children get between SIGTERM and SIGKILL.
        public var gracePeriod: TimeInterval = 5
        public init() {}
    }

    /// How the run ended.
    public enum Outcome: Equatable, Sendable {
        /// `stop()` was called (e.g. Ctrl-C).
        case stopped
        /// A child marked `endsRunOnExit` exited with this status.
        case finished(child: String, status: Int32)
    }

    private final class Slot {
        let spec: ChildSpec
        var process: Process?
        var startedAt = Date.distantPast
        var backoff: TimeInterval
        var restarts = 0
        init(spec: ChildSpec, backoff: TimeInterval) { self.spec = spec; self.backoff = backoff }
    }

    private let options: Options
    private let logger: Logger
    private let lock = NSCondition()
    private var slots: [Slot]
    private var outcome: Outcome?
    private var signalSources: [DispatchSourceSignal] = []
    private var pendingRestarts: [(Date, Slot)] = []

    public init(children: [ChildSpec], options: Options = Options(), logger: Logger) {
        self.options = options
        self.logger = logger
        self.slots = children.map { Slot(spec: $0, backoff: options.initialBackoff) }
    }

    /// Restart counts so far, by child name (for status lines and tests).
    public var restartCounts: [String: Int] {
        lock.lock(); defer { lock.unlock() }
        return Dictionary(uniqueKeysWithValues: slots.map { ($0.spec.name, $0.restarts) })
    }

    /// Process ids of the running children, by name.
    public var childPIDs: [String: Int32] {
        lock.lock(); defer { lock.unlock() }
        var pids: [String: Int32] = [:]
        for slot in slots { if let p = slot.process, p.isRunning { pids[slot.spec.name] = p.processIdentifier } }
        return pids
    }

    /// SIGINT and SIGTERM stop the cluster instead of killing only the supervisor.
    public func installSignalHandlers() {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [weak self] in
                self?.logger.info("received \(sig == SIGINT ? "SIGINT" : "SIGTERM"), stopping the cluster")
                self?.stop()
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Starts every child and blocks until the run ends; then stops the rest.
    @discardableResult
    public func run() -> Outcome {
        lock.lock()
        for slot in slots { start(slot) }
        while outcome == nil {
            let now = Date()
            let due = pendingRestarts.filter { $0.0 <= now }
            pendingRestarts.removeAll { $0.0 <= now }
            for (_, slot) in due { start(slot) }
            let next = pendingRestarts.map(\.0).min() ?? now.addingTimeInterval(1)
            _ = lock.wait(until: min(next, now.addingTimeInterval(1)))
        }
        let result = outcome!
        lock.unlock()
        terminateAll()
        return result
    }

    /// Ends the run: `run()` returns after every child is gone.
    public func stop() {
        lock.lock()
        if outcome == nil { outcome = .stopped }
        lock.broadcast()
        lock.unlock()
    }

    // Called with the lock held.
    private func start(_ slot: Slot) {
        guard outcome == nil else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: slot.spec.executable)
        process.arguments = slot.spec.arguments
        var environment = ProcessInfo.processInfo.environment
        for (k, v) in slot.spec.environment { environment[k] = v }
        process.environment = environment
        process.terminationHandler = { [weak self] p in self?.childExited(slot, process: p) }
        do {
            try process.run()
            slot.process = process
            slot.startedAt = Date()
            logger.debug("started \(slot.spec.name) (pid \(process.processIdentifier))")
        } catch {
            logger.error("cannot start \(slot.spec.name): \(error)")
            scheduleRestart(slot)
        }
    }

    private func childExited(_ slot: Slot, process: Process) {
        lock.lock(); defer { lock.unlock() }
        guard slot.process === process else { return }
        slot.process = nil
        let status = process.terminationStatus
        let how = process.terminationReason == .uncaughtSignal ? "was killed by signal \(status)" : "exited with status \(status)"
        guard outcome == nil else { return }
        if slot.spec.endsRunOnExit && process.terminationReason == .exit {
            logger.info("\(slot.spec.name) \(how); stopping the cluster")
            outcome = .finished(child: slot.spec.name, status: status)
            lock.broadcast()
            return
        }
        if slot.spec.restartOnExit {
            logger.warning("\(slot.spec.name) \(how); restarting in \(String(format: "%.1f", backoff(for: slot))) s")
            scheduleRestart(slot)
        } else {
            logger.info("\(slot.spec.name) \(how)")
        }
    }

    private func backoff(for slot: Slot) -> TimeInterval {
        Date().timeIntervalSince(slot.startedAt) > options.healthyAfter ? options.initialBackoff : slot.backoff
    }

    // Called with the lock held.
    private func scheduleRestart(_ slot: Slot) {
        let delay = backoff(for: slot)
        slot.backoff = min(delay * 2, options.maximumBackoff)
        slot.restarts += 1
        pendingRestarts.append((Date().addingTimeInterval(delay), slot))
        lock.broadcast()
    }

    private func terminateAll() {
        lock.lock()
        let running = slots.compactMap { $0.process }.filter { $0.isRunning }
        lock.unlock()
        for p in running { kill(p.processIdentifier, SIGTERM) }
        let deadline = Date().addingTimeInterval(options.gracePeriod)
        while Date() < deadline && running.contains(where: { $0.isRunning }) {
            usleep(20_000)
        }
        for p in running where p.isRunning {
            logger.warning("child pid \(p.processIdentifier) ignored SIGTERM; killing it")
            kill(p.processIdentifier, SIGKILL)
        }
        for p in running { p.waitUntilExit() }
    }
}

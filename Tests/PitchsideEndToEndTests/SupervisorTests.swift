import Foundation
import Logging
import XCTest
@testable import PitchsideNodes

final class SupervisorTests: XCTestCase {
    private let logger = Logger(label: "test.supervisor")

    private func options() -> Supervisor.Options {
        var o = Supervisor.Options()
        o.initialBackoff = 0.05
        o.maximumBackoff = 0.2
        o.gracePeriod = 2
        return o
    }

    func testAChildThatDiesIsRestartedAndStopEndsEveryChild() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sup-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let marker = dir.appendingPathComponent("starts").path
        let flaky = ChildSpec(name: "flaky", executable: "/bin/sh",
                              arguments: ["-c", "echo x >> \(marker); exit 3"])
        let steady = ChildSpec(name: "steady", executable: "/bin/sleep", arguments: ["60"])
        let supervisor = Supervisor(children: [flaky, steady], options: options(), logger: logger)
        let done = expectation(description: "run returned")
        final class Box: @unchecked Sendable { var outcome: Supervisor.Outcome? }
        let box = Box()
        Thread.detachNewThread {
            box.outcome = supervisor.run()
            done.fulfill()
        }
        let deadline = Date().addingTimeInterval(20)
        while (supervisor.restartCounts["flaky"] ?? 0) < 3 && Date() < deadline { usleep(20_000) }
        XCTAssertGreaterThanOrEqual(supervisor.restartCounts["flaky"] ?? 0, 3)
        let steadyPID = supervisor.childPIDs["steady"]
        XCTAssertNotNil(steadyPID)
        supervisor.stop()
        wait(for: [done], timeout: 20)
        XCTAssertEqual(box.outcome, .stopped)
        let starts = try String(contentsOfFile: marker, encoding: .utf8).split(separator: "\n").count
        XCTAssertGreaterThanOrEqual(starts, 3)
        // The steady child is gone: signal 0 fails for a dead pid.
        if let pid = steadyPID { XCTAssertEqual(kill(pid, 0), -1) }
    }

    func testAFinishingJobEndsTheRunWithItsStatus() {
        let job = ChildSpec(name: "capture", executable: "/bin/sh", arguments: ["-c", "sleep 0.2; exit 0"],
                            restartOnExit: false, endsRunOnExit: true)
        let worker = ChildSpec(name: "worker", executable: "/bin/sleep", arguments: ["60"])
        let supervisor = Supervisor(children: [job, worker], options: options(), logger: logger)
        XCTAssertEqual(supervisor.run(), .finished(child: "capture", status: 0))
        XCTAssertTrue(supervisor.childPIDs.isEmpty)
    }

    func testAChildIgnoringSigtermIsKilledAfterTheGracePeriod() {
        var o = options()
        o.gracePeriod = 0.5
        let stubborn = ChildSpec(name: "stubborn", executable: "/bin/sh",
                                 arguments: ["-c", "trap '' TERM; while true; do sleep 0.05; done"])
        let job = ChildSpec(name: "job", executable: "/bin/sh", arguments: ["-c", "sleep 0.5"],
                            restartOnExit: false, endsRunOnExit: true)
        let supervisor = Supervisor(children: [stubborn, job], options: o, logger: logger)
        let started = Date()
        XCTAssertEqual(supervisor.run(), .finished(child: "job", status: 0))
        XCTAssertLessThan(Date().timeIntervalSince(started), 15)
        XCTAssertTrue(supervisor.childPIDs.isEmpty)
    }
}

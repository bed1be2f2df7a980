import Foundation
import PitchsideCore
import XCTest
@testable import PitchsideGame

/// Results kept by an aggregator (`KeptResults`) and the games played again over them (`GameReplay`).
final class KeptResultsTests: XCTestCase {
    private var dir: URL!

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("pitchside-kept-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: dir)
    }

    private var path: String { dir.appendingPathComponent("game.results").path }

    /// Five throws of a scripted game, the last still waiting for the census when the stream
    /// ends, and the events a game gives for them, the stream's end included.
    private func played() -> (results: [PSWorkerResult], events: [PSGameEvent], endPts: Int64) {
        let results = GameScript().results(throws: Array(GameScript.appleGame().prefix(5)), frames: 530)
        var game = Game(streamID: "cam1", classifier: GameScript.classifier)
        var events = results.flatMap { game.handle($0) }
        let endPts = results.compactMap { $0.resultHeader?.ptsUs }.max() ?? 0
        events += game.endOfStream(ptsUs: endPts)
        return (results, events, endPts)
    }

    func testKeptResultsPlayedAgainGiveTheSameEvents() throws {
        let run = played()
        XCTAssertEqual(run.events.throwEvents.count, 5, "the stream's end completes the fifth throw")
        let writer = try KeptResults.Writer(path: path)
        for batch in stride(from: 0, to: run.results.count, by: 37) {
            try writer.append(Array(run.results[batch..<min(batch + 37, run.results.count)]))
        }
        try writer.appendEnd(stream: "cam1", ptsUs: run.endPts)
        let kept = try KeptResults.read(path: path)
        XCTAssertEqual(kept.count, run.results.count + 1)
        XCTAssertEqual(GameReplay.events(kept, classifier: GameScript.classifier), run.events)
        // The end marker is what completes the last throw.
        XCTAssertEqual(GameReplay.events(Array(kept.dropLast()), classifier: GameScript.classifier).throwEvents.count, 4)
    }

    func testAWriterKilledMidRecordLeavesAFileThatSaysSoAndIsAppendedToAfterTheLastWholeRecord() throws {
        let run = played()
        try KeptResults.Writer(path: path).append(Array(run.results.prefix(10)))
        let whole = try XCTUnwrap(FileManager.default.contents(atPath: path))
        // Half of one more record: what a writer killed while writing leaves.
        var record = Data()
        let bytes: Data = try run.results[10].serializedData()
        var length = UInt32(bytes.count).littleEndian
        withUnsafeBytes(of: &length) { record.append(contentsOf: $0) }
        record.append(bytes)
        try (whole + record.prefix(record.count / 2)).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try KeptResults.read(path: path)) { error in
            XCTAssertEqual(error as? KeptResults.ReadError, .truncated(path: path, offset: whole.count, results: 10))
            XCTAssertTrue("\(error)".contains("cut short at byte \(whole.count), after 10 results"), "\(error)")
        }
        // Opened again (the aggregator restarted): the half record goes, the file goes on.
        try KeptResults.Writer(path: path).append(Array(run.results[10..<20]))
        XCTAssertEqual(try KeptResults.read(path: path), Array(run.results.prefix(20)))
    }

    func testAFileThatIsNotKeptResultsIsRefusedAndLeftAsItWas() throws {
        let text = Data("frame,x,y\n1,0.5,0.5\n".utf8)
        try text.write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try KeptResults.read(path: path)) {
            XCTAssertEqual($0 as? KeptResults.ReadError, .notKeptResults(path: path))
        }
        XCTAssertThrowsError(try KeptResults.Writer(path: path)) {
            XCTAssertEqual($0 as? KeptResults.ReadError, .notKeptResults(path: path))
        }
        XCTAssertEqual(FileManager.default.contents(atPath: path), text, "not overwritten")
    }

    func testARecordThatIsNoResultIsNamedWithItsOffset() throws {
        let run = played()
        try KeptResults.Writer(path: path).append(Array(run.results.prefix(3)))
        let whole = try XCTUnwrap(FileManager.default.contents(atPath: path))
        // A record of 8 bytes that do not parse as a result (field 15, wire type 7: invalid).
        let junk = Data([8, 0, 0, 0, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F])
        try (whole + junk).write(to: URL(fileURLWithPath: path))
        XCTAssertThrowsError(try KeptResults.read(path: path)) {
            XCTAssertEqual($0 as? KeptResults.ReadError, .malformed(path: path, offset: whole.count, results: 3))
        }
        XCTAssertThrowsError(try KeptResults.Writer(path: path), "a damaged file is not appended to")
    }
}

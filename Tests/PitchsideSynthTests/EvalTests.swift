import PitchsideCore
import XCTest
@testable import PitchsideSynth

final class EvalTests: XCTestCase {
    static let truth: GroundTruth = {
        SynthGame(settings: SynthFixtures.small(seed: 61, throwCount: 4,
                                                styles: [.underhand, .overhand, .underleg, .underhand])).truth()
    }()

    func event(_ t: ThrowTruth, seq: Int, type: PSThrowType? = nil, speedDelta: Double = 0, releaseDelta: Double = 0,
               outcome: PSThrowOutcome? = nil) throws -> String {
        var e = PSGameEvent()
        e.streamID = "synth"
        e.eventSeq = UInt64(seq)
        e.gameIndex = 1
        var c = PSThrowCompleted()
        c.throwIndex = UInt32(t.index)
        c.player = t.player
        c.type = type ?? [.overhand: .overhand, .underhand: .underhand, .underleg: .underleg][t.style]!
        let truthOutcome: PSThrowOutcome = [.hole: .hole, .board: .board, .miss: .miss][t.outcome]!
        c.outcome = outcome ?? truthOutcome
        c.points = Int32(t.points)
        c.releaseSpeedMps = t.releaseSpeedMps + speedDelta
        c.releaseSpeedMph = c.releaseSpeedMps * 2.236936
        c.launchAngleDeg = t.launchAngleDeg
        c.releaseAngleDeg = t.releaseAngleDeg
        c.releasePtsUs = Int64(((t.releaseTime + releaseDelta) * 1e6).rounded())
        e.throwCompleted = c
        return try e.jsonString()
    }

    func score(_ totals: [String: Int]) throws -> String {
        var e = PSGameEvent()
        e.eventSeq = 100
        var u = PSScoreUpdate()
        u.scores = totals.map { var p = PSPlayerScore(); p.player = $0.key; p.score = Int32($0.value); return p }
        e.scoreUpdate = u
        return try e.jsonString()
    }

    func board(frame: Int, shift: Double) throws -> String {
        let f = Self.truth.frames[frame]
        var b = PSBoardObservation()
        b.header.seq = UInt64(frame)
        b.header.ptsUs = Int64(Double(frame) / 30 * 1e6)
        b.found = true
        b.corners = f.boardCorners.map { var p = PSPoint(); p.x = $0[0] + shift / 640; p.y = $0[1]; return p }
        b.hole.center.x = f.hole.cx
        b.hole.center.y = f.hole.cy + shift / 360
        b.metresPerPixel = f.metresPerPixel
        var r = PSWorkerResult()
        r.board = b
        return try r.jsonString()
    }

    func testPerfectRunScoresPerfectly() throws {
        let truth = Self.truth
        var lines = try truth.throwsTruth.enumerated().map { try event($0.element, seq: $0.offset + 1) }
        lines.append(try score(["P1": truth.totals.scores[0]]))
        lines.append(try board(frame: 10, shift: 0))
        lines.append("{\"heartbeat\": {\"role\": \"capture\"}}")
        lines.append("{\"somethingElse\": 1}")
        let run = try RunLog.parse(lines.joined(separator: "\n"))
        XCTAssertEqual(run.throwsCompleted.count, 4)
        XCTAssertEqual(run.boards.count, 1)
        XCTAssertEqual(run.skippedLines, 1)
        let r = Evaluator().evaluate(run: run, truth: truth)
        XCTAssertEqual(r.recall, 1)
        XCTAssertEqual(r.precision, 1)
        XCTAssertEqual(r.outcomeAccuracy, 1)
        XCTAssertEqual(r.pointsAccuracy, 1)
        XCTAssertEqual(r.throwTypeAccuracy, 1)
        XCTAssertEqual(r.gameTotalAccuracy, 1)
        XCTAssertEqual(r.speedErrorMps.median, 0)
        XCTAssertEqual(r.boardCornerErrorPixels.median!, 0, accuracy: 1e-6)
        XCTAssertEqual(r.confusion, [[1, 0, 0, 0, 0], [0, 2, 0, 0, 0], [0, 0, 1, 0, 0]])
        XCTAssertTrue(EvalThresholds.strict.check(r).isEmpty)
    }

    func testImperfectRunGivesTheRightFigures() throws {
        let t = Self.truth.throwsTruth
        let wrongOutcome: PSThrowOutcome = t[1].outcome == .miss ? .board : .miss
        var lines = [
            try event(t[0], seq: 1, speedDelta: 0.5, releaseDelta: 0.1),
            try event(t[1], seq: 2, type: .underhand, speedDelta: -1.0, outcome: wrongOutcome),
            // t[2] is missed; a throw that never happened is reported instead.
            try event(t[3], seq: 3, speedDelta: 2.0),
        ]
        var ghost = t[3]
        ghost.index = 9
        ghost.releaseTime += 1.5
        lines.append(try event(ghost, seq: 4))
        // A throw far from any truth release does not match.
        lines.append(try board(frame: 20, shift: 3))
        lines.append(try board(frame: 21, shift: 3))
        let r = Evaluator(releaseTolerance: 0.5).evaluate(run: try RunLog.parse(lines.joined(separator: "\n")),
                                                          truth: Self.truth)
        XCTAssertEqual(r.matchedThrows, 3)
        XCTAssertEqual(r.recall, 0.75)
        XCTAssertEqual(r.precision, 0.75)
        XCTAssertEqual(r.outcomeAccuracy!, 2.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(r.throwTypeAccuracy!, 2.0 / 3, accuracy: 1e-9)
        XCTAssertEqual(r.confusion[0], [0, 1, 0, 0, 0])  // overhand taken for underhand
        XCTAssertEqual(r.speedErrorMps.median!, 1.0, accuracy: 1e-6)
        XCTAssertEqual(r.speedErrorMps.p90!, 1.8, accuracy: 1e-6)
        XCTAssertEqual(r.releaseTimeError.median!, 0.0, accuracy: 1e-5)
        XCTAssertEqual(r.boardCornerErrorPixels.median!, 3, accuracy: 1e-3)
        XCTAssertEqual(r.holeCentreErrorPixels.median!, 3, accuracy: 1e-3)
        var thresholds = EvalThresholds()
        thresholds.minRecall = 0.9
        thresholds.maxSpeedError = 0.5
        thresholds.minPrecision = 0.5
        let failures = thresholds.check(r)
        XCTAssertEqual(failures.count, 2, "\(failures)")
    }

    /// The corpus report lists the throws to look at: scored in the wrong place or for the wrong
    /// points, and not found; a throw right but for its type is left to the type table.
    func testTheCorpusReportListsTheThrowsScoredWrongAndTheOnesNotFound() throws {
        let t = Self.truth.throwsTruth
        let wrongOutcome: PSThrowOutcome = t[1].outcome == .miss ? .board : .miss
        let lines = [
            try event(t[0], seq: 1, type: t[0].style == .overhand ? .underhand : .overhand),
            try event(t[1], seq: 2, outcome: wrongOutcome),
            // t[2] is missed.
            try event(t[3], seq: 3),
        ]
        let game = CorpusGameResult(name: "g7", run: try RunLog.parse(lines.joined(separator: "\n")), truth: Self.truth)
        let rows = GameCorpusReport.wrongThrowRows(of: game)
        XCTAssertEqual(rows.count, 2, "\(rows)")
        XCTAssertTrue(rows[0].hasPrefix("| g7 | \(t[1].index) | \(t[1].outcome.rawValue), "), rows[0])
        XCTAssertTrue(rows[0].contains("| \(wrongOutcome == .miss ? "miss" : "board"), "), rows[0])
        XCTAssertEqual(rows[1], "| g7 | \(t[2].index) | – | not found |")
        let markdown = GameCorpusReport(games: [game]).markdown()
        XCTAssertTrue(markdown.contains("Throws whose outcome or points are wrong, or that were not found"))
        XCTAssertTrue(markdown.contains(rows[1]))
        // A run right throw for throw lists none.
        let perfect = try t.enumerated().map { try event($0.element, seq: $0.offset + 1) }.joined(separator: "\n")
        let clean = CorpusGameResult(name: "g8", run: try RunLog.parse(perfect), truth: Self.truth)
        XCTAssertEqual(GameCorpusReport.wrongThrowRows(of: clean), [])
        XCTAssertFalse(GameCorpusReport(games: [clean]).markdown().contains("Throws whose outcome"))
    }

    func testMatchingIsOneToOneByClosestRelease() {
        let t = Self.truth.throwsTruth
        var a = PSThrowCompleted(), b = PSThrowCompleted()
        a.releasePtsUs = Int64((t[0].releaseTime + 0.3) * 1e6)
        b.releasePtsUs = Int64((t[0].releaseTime - 0.1) * 1e6)
        let pairs = Evaluator().match(truth: Array(t.prefix(1)), run: [a, b])
        XCTAssertEqual(pairs.count, 1)
        XCTAssertEqual(pairs[0].1, 1)
    }
}

extension EvalThresholds {
    static var strict: EvalThresholds {
        var t = EvalThresholds()
        t.minRecall = 1
        t.minPrecision = 1
        t.minOutcomeAccuracy = 1
        t.maxSpeedError = 0.01
        return t
    }
}

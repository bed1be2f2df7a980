import Foundation
import PitchsideCore

/// Measures a run's detection results (board, stability and census observations) against a
/// synthetic game's truth, and sums games up into the corpus figures.
///
/// - Board: every found observation against its frame's truth: the largest corner distance over
///   the board's length in the picture (1.22 m / truth metres per pixel), the hole centre distance
///   over the hole's apparent diameter (twice its major semi-axis), the scale error.
/// - Stability: the picture moves until the last frame whose settle offset changes; a stable
///   verdict before then is wrong. Latency runs from the truth's first settled frame to the
///   first stable verdict. Each registered frame's shift is compared with the change of the
///   truth's offset.
/// - Census: for each truth rest state, the run's census in force a little later (`censusGrace`
///   seconds, or just before the next bag lands) is compared count by count. Bags on the ground
///   count when they lie within the census' reach of the board (0.6 board lengths around its
///   box in the picture, as `BagFinder` looks) and the board does not hide them (the truth's
///   `hidden`).
///
/// ```swift
/// let game = DetectionEvaluator().evaluate(run: log, truth: truth, name: "dev-0001")
/// let corpus = DetectionEvaluator().summarize([game])
/// ```
public struct DetectionEvaluator: Sendable {
    public var requirements = DetectionRequirements()
    /// Seconds after a truth rest state by which the census must show it.
    public var censusGrace = 1.5
    /// Reach of the census around the board, in board lengths.
    public var censusReach = 0.6
    /// A ground bag whose centre lies within this many bag sides of that reach's edge, either
    /// side, lies across it: the census draws the edge with its own board and scale, so such a
    /// bag may be counted or not (held3-0014: a bag 0.07 px past the edge, counted in every
    /// rest state, made all eight wrong).
    public var censusReachEdgeBags = 0.5
    /// How far (in bag sides) a census bag may lie from a truth bag and still account for it: a
    /// blob's centre stands for every bag in it.
    public var unseenMatchBags = 2.0
    /// Distance from the camera's true shift, in pixels of the analysed picture, beyond which a
    /// frame's registration counts as off.
    public var maximumRegistrationError = 1.0

    public init() {}

    public func evaluate(run: RunLog, truth: GroundTruth, name: String) -> DetectionGameReport {
        let frameCount = truth.frames.count
        let w = Double(truth.video.width), h = Double(truth.video.height)
        func frameIndex(_ header: PSHeader) -> Int { Int(header.seq) }

        // Board localisation, per found observation.
        var cornerErrors: [Double] = [], holeErrors: [Double] = [], scaleErrors: [Double] = []
        var found = 0, notFound = 0
        var knownFrom: [(frame: Int, known: Bool)] = []
        for board in run.boards.sorted(by: { $0.header.seq < $1.header.seq }) {
            let i = frameIndex(board.header)
            knownFrom.append((i, board.found))
            guard board.found else { notFound += 1; continue }
            found += 1
            guard i >= 0, i < frameCount else { continue }
            let f = truth.frames[i]
            let length = BoardModel.length / f.metresPerPixel
            if board.corners.count == 4, f.boardCorners.count == 4 {
                let worst = zip(board.corners, f.boardCorners).map { hypot(($0.x - $1[0]) * w, ($0.y - $1[1]) * h) }.max() ?? 0
                cornerErrors.append(worst / length)
            } else {
                cornerErrors.append(.infinity)
            }
            let diameter = 2 * max(f.hole.rxPixels, f.hole.ryPixels)
            holeErrors.append(board.hasHole
                ? hypot((board.hole.center.x - f.hole.cx) * w, (board.hole.center.y - f.hole.cy) * h) / diameter
                : .infinity)
            // Metres per pixel of the picture analysed (the worker's rendition may be smaller
            // than the video), in the video's pixels.
            let analysed = board.header.frameWidth > 0 ? Double(board.header.frameWidth) : w
            let scale = board.metresPerPixel * analysed / w
            scaleErrors.append(abs(scale - f.metresPerPixel) / f.metresPerPixel)
        }

        // Board coverage over the settled frames.
        var known = [Bool](repeating: false, count: frameCount)
        var k = 0, state = false
        for i in 0..<frameCount {
            while k < knownFrom.count, knownFrom[k].frame <= i { state = knownFrom[k].known; k += 1 }
            known[i] = state
        }
        let settled = truth.frames.filter(\.settled).map(\.index)
        let coverage = settled.isEmpty ? nil : Double(settled.filter { $0 < frameCount && known[$0] }.count) / Double(settled.count)

        // Stability.
        var stable = [Bool?](repeating: nil, count: frameCount)
        for s in run.stabilities {
            let i = frameIndex(s.header)
            if i >= 0, i < frameCount { stable[i] = s.stable }
        }
        var lastMoving = -1
        for i in 1..<max(1, frameCount) where truth.frames[i].offset != truth.frames[i - 1].offset { lastMoving = i }
        let firstSettled = truth.camera.firstSettledFrame
        let firstStable = (max(0, lastMoving + 1)..<frameCount).first { stable[$0] == true }
        let latency = firstStable.map { max(0, Double($0 - firstSettled)) / Double(truth.video.fps) }
        let stableWhileMoving = (0...max(0, lastMoving)).filter { $0 < frameCount && lastMoving >= 0 && stable[$0] == true }.count
        let unstableAfter = firstStable.map { start in
            (start..<frameCount).filter { truth.frames[$0].settled && stable[$0] == false }.count
        } ?? 0
        let missing = stable.filter { $0 == nil }.count
        let registration = registrationErrors(run.stabilities, truth: truth)

        // Census, per truth rest state.
        let censuses = run.censuses.sorted { $0.header.seq < $1.header.seq }
        let landings = truth.throwsTruth.map(\.landingFrame).sorted()
        var checks: [CensusCheck] = []
        for c in truth.censuses {
            let grace = c.frame + Int((censusGrace * Double(truth.video.fps)).rounded())
            let nextLanding = landings.first { $0 > c.frame } ?? Int.max
            let deadline = min(grace, nextLanding - 1, frameCount - 1)
            let f = truth.frames[min(max(0, c.frame), frameCount - 1)]
            let reach = reachOfCensus(f, width: w, height: h)
            // A bag the board hides is no census' to see; the score still counts it a miss.
            let onGround = c.bags.filter { $0.place == .onGround }
            let inView = onGround.filter { $0.hidden != true }
            let nearGround = inView.filter { reach($0.position) == .within }
            let acrossEdge = inView.filter { reach($0.position) == .acrossEdge }.count
            let onGroundNear = nearGround.count
            let onGroundFar = inView.count - onGroundNear - acrossEdge
            let reported = censuses.last { frameIndex($0.header) <= deadline }
            // The first census after this throw's landing, before the next release.
            let thrown = truth.throwsTruth.first { $0.index == c.afterThrow }
            let nextRelease = truth.throwsTruth.map(\.releaseFrame).filter { $0 > (thrown?.releaseFrame ?? Int.max) }.min() ?? Int.max
            let verdict: String? = thrown.flatMap { t in
                censuses.first { let f = frameIndex($0.header); return f >= t.landingFrame && f < nextRelease }
            }.map { census in
                guard let bag = census.changes.first(where: { $0.kind == .censusChangeNewBag }) else { return "none" }
                return (Self.bagPlace(bag.place) ?? .onGround).rawValue
            }
            checks.append(CensusCheck(
                afterThrow: c.afterThrow, frame: c.frame, deadlineFrame: deadline,
                truthOnBoard: c.onBoard, truthInHole: c.inHole, truthOnGround: onGroundNear, truthOnGroundFar: onGroundFar,
                runFrame: reported.map { frameIndex($0.header) }, runOnBoard: Int(reported?.onBoard ?? 0),
                runInHole: Int(reported?.inHole ?? 0), runOnGround: Int(reported?.onGround ?? 0),
                truthPlace: thrown?.place.rawValue, runVerdict: verdict,
                truthOnGroundHidden: onGround.count - inView.count, truthOnGroundAcrossReach: acrossEdge,
                unseen: Self.unseenBags(c.bags.filter { $0.place == .onBoard } + nearGround, census: reported,
                                        width: w, height: h,
                                        matchDistance: unseenMatchBags * BagPhysics.side / f.metresPerPixel)))
        }

        return DetectionGameReport(
            game: name, width: truth.video.width, height: truth.video.height, fps: truth.video.fps, frames: frameCount,
            boardFound: found, boardNotFound: notFound, cornerErrors: cornerErrors, holeErrors: holeErrors,
            scaleErrors: scaleErrors, boardCoverage: coverage, firstSettledFrame: firstSettled, lastMovingFrame: lastMoving,
            firstStableFrame: firstStable, stableLatencySeconds: latency, stableWhileMoving: stableWhileMoving,
            unstableAfterSettling: unstableAfter, stabilityMissing: missing,
            registeredFrames: registration.count,
            registrationFramesOff: registration.filter { $0 > maximumRegistrationError }.count,
            registrationWorstPixels: registration.max() ?? 0, restStates: checks)
    }

    /// Per registered frame, the distance between the shift measured and the camera's true one
    /// (the change of the truth's picture offset), in pixels of the picture analysed. A frame
    /// with no previous picture to register against (the first, or the first at a new size:
    /// no samples and no shift) has nothing to judge; a frame that moved the camera (history
    /// cleared, so no samples) has.
    func registrationErrors(_ stabilities: [PSStabilityObservation], truth: GroundTruth) -> [Double] {
        let w = Double(truth.video.width)
        return stabilities.compactMap { s in
            let i = Int(s.header.seq)
            guard s.sampleCount > 0 || s.tx != 0 || s.ty != 0, i >= 1, i < truth.frames.count,
                  truth.frames[i].offset.count == 2, truth.frames[i - 1].offset.count == 2 else { return nil }
            // Analysed pixels per video pixel.
            let k = s.header.frameWidth > 0 ? Double(s.header.frameWidth) / w : 1
            let dx = Double(truth.frames[i].offset[0] - truth.frames[i - 1].offset[0]) * k
            let dy = Double(truth.frames[i].offset[1] - truth.frames[i - 1].offset[1]) * k
            return hypot(s.tx - dx, s.ty - dy)
        }
    }

    /// Which of `bags` (truth, at rest in view) no bag of `census` accounts for: each census bag
    /// in the same place accounts for the nearest truth bag within `matchDistance` pixels, the
    /// closest pairs first. Bags in one blob share the blob's centre, so a pile of three lies
    /// within a bag or two of each of its census bags.
    static func unseenBags(_ bags: [BagTruth], census: PSBoardCensus?, width w: Double, height h: Double,
                           matchDistance: Double) -> [UnseenBag] {
        let seen = (census?.bags ?? []).map { (place: bagPlace($0.place), x: $0.position.x * w, y: $0.position.y * h) }
        let truth = bags.map { (bag: $0, x: $0.position[0] * w, y: $0.position[1] * h) }
        var pairs: [(t: Int, s: Int, d: Double)] = []
        for (i, t) in truth.enumerated() {
            for (j, s) in seen.enumerated() where s.place == t.bag.place {
                let d = hypot(t.x - s.x, t.y - s.y)
                if d <= matchDistance { pairs.append((i, j, d)) }
            }
        }
        var truthTaken = Set<Int>(), seenTaken = Set<Int>()
        for p in pairs.sorted(by: { $0.d < $1.d }) where !truthTaken.contains(p.t) && !seenTaken.contains(p.s) {
            truthTaken.insert(p.t)
            seenTaken.insert(p.s)
        }
        return truth.indices.filter { !truthTaken.contains($0) }.map {
            UnseenBag(place: truth[$0].bag.place.rawValue, color: truth[$0].bag.color, x: truth[$0].x, y: truth[$0].y)
        }
    }

    /// The truth's name for a census place; nil when the census gave none.
    static func bagPlace(_ p: PSBagPlace) -> BagPlace? {
        switch p {
        case .onBoard: return .onBoard
        case .onGround: return .onGround
        case .inHole: return .inHole
        default: return nil
        }
    }

    /// Pooled over rest states: how often bags of each place and colour went unseen.
    static func tally(_ checks: [CensusCheck]) -> [UnseenTally] {
        var counts: [String: UnseenTally] = [:]
        for bag in checks.flatMap({ $0.unseen ?? [] }) {
            let key = "\(bag.place) \(bag.color.r) \(bag.color.g) \(bag.color.b)"
            counts[key, default: UnseenTally(place: bag.place, color: bag.color, count: 0)].count += 1
        }
        return counts.values.sorted {
            ($0.count, $1.place, $1.color.r, $1.color.g, $1.color.b) > ($1.count, $0.place, $0.color.r, $0.color.g, $0.color.b)
        }
    }

    /// Where a ground bag lies against the census' reach around the board (`censusReach`
    /// board lengths past the top's box), its edge a band `censusReachEdgeBags` wide each side.
    enum Reach { case within, acrossEdge, beyond }

    private func reachOfCensus(_ f: FrameTruth, width w: Double, height h: Double) -> ([Double]) -> Reach {
        let xs = f.boardCorners.map { $0[0] * w }, ys = f.boardCorners.map { $0[1] * h }
        let reach = censusReach * BoardModel.length / f.metresPerPixel
        let band = censusReachEdgeBags * BagPhysics.side / f.metresPerPixel
        let x0 = (xs.min() ?? 0) - reach, x1 = (xs.max() ?? 0) + reach
        let y0 = (ys.min() ?? 0) - reach, y1 = (ys.max() ?? 0) + reach
        return { p in
            guard p.count >= 2 else { return .beyond }
            let x = p[0] * w, y = p[1] * h
            // How far inside the reach's box (negative: outside).
            let inside = min(x - x0, x1 - x, y - y0, y1 - y)
            return inside > band ? .within : inside >= -band ? .acrossEdge : .beyond
        }
    }

    /// The corpus figures and the requirements they miss.
    public func summarize(_ games: [DetectionGameReport]) -> DetectionCorpusReport {
        let r = requirements
        let corners = ToleranceStats(games.flatMap(\.cornerErrors), limit: r.cornerTolerance)
        let hole = ToleranceStats(games.flatMap(\.holeErrors), limit: r.holeTolerance)
        let scale = ToleranceStats(games.flatMap(\.scaleErrors), limit: r.scaleTolerance)
        let latency = ToleranceStats(games.compactMap(\.stableLatencySeconds), limit: r.maxStableLatency)
        var coveredFrames = 0.0, settledFrames = 0.0
        for g in games {
            let settled = Double(g.frames - g.firstSettledFrame)
            if let c = g.boardCoverage { coveredFrames += c * settled; settledFrames += settled }
        }
        let checks = games.flatMap(\.restStates)
        var report = DetectionCorpusReport(
            games: games, corners: corners, hole: hole, scale: scale,
            gamesWithBoard: games.filter { $0.boardFound > 0 }.count,
            boardCoverage: settledFrames > 0 ? coveredFrames / settledFrames : nil,
            stableLatency: latency, gamesNeverStable: games.filter { $0.firstStableFrame == nil }.count,
            stableWhileMoving: games.map(\.stableWhileMoving).reduce(0, +),
            unstableAfterSettling: games.map(\.unstableAfterSettling).reduce(0, +),
            registeredFrames: games.map(\.registeredFrames).reduce(0, +),
            registrationFramesOff: games.map(\.registrationFramesOff).reduce(0, +),
            registrationWorstPixels: games.map(\.registrationWorstPixels).max() ?? 0,
            restStates: checks.count, censusVisibleExact: checks.filter(\.visibleExact).count,
            censusAllExact: checks.filter(\.allExact).count,
            censusVerdictsRight: checks.filter(\.verdictRight).count, unseenBags: Self.tally(checks), failures: [])

        var failures: [String] = []
        func share(_ name: String, _ s: ToleranceStats, _ what: String) {
            guard let within = s.withinShare else { return failures.append("\(name): no found board to measure") }
            if within < r.minBoardShare {
                failures.append(String(format: "%@ within %@: %.1f%% of found boards < %.0f%%", name, what, 100 * within, 100 * r.minBoardShare))
            }
        }
        if report.gamesWithBoard < games.count {
            failures.append("board never found in \(games.count - report.gamesWithBoard) of \(games.count) games")
        }
        share("corners", corners, String(format: "%.0f%% of the board length", 100 * r.cornerTolerance))
        share("hole centre", hole, String(format: "%.0f%% of the hole diameter", 100 * r.holeTolerance))
        share("metres per pixel", scale, String(format: "%.0f%%", 100 * r.scaleTolerance))
        if report.gamesNeverStable > 0 { failures.append("never stable in \(report.gamesNeverStable) games") }
        let late = games.filter { ($0.stableLatencySeconds ?? 0) > r.maxStableLatency }.count
        if late > 0 { failures.append(String(format: "stable later than %.1f s after settling in %d games", r.maxStableLatency, late)) }
        if report.stableWhileMoving > 0 { failures.append("stable while the camera moved in \(report.stableWhileMoving) frames") }
        if let s = report.censusVisibleExactShare, s < r.minCensusExact {
            failures.append(String(format: "census counts exact in %.1f%% of rest states < %.0f%%", 100 * s, 100 * r.minCensusExact))
        }
        report.failures = failures
        return report
    }
}

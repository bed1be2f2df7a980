import ArgumentParser
import Foundation
import PitchsideCore
import PitchsideMedia
import PitchsideVision

/// `pitchside inspect board IMAGE|VIDEO`: board, hole, scale, stability and bag census on a file.
struct InspectBoardCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "board",
        abstract: "Find the board, its hole and scale, scene stability and the bags at rest in an image or video.",
        discussion: """
            pitchside inspect board photo.jpg --json --overlay board.png
            pitchside inspect board game.mp4 --json > detection.jsonl
            With --json, prints wire messages as JSON lines, each under its kind: {"board": BoardObservation},
            {"stability": StabilityObservation} (with --stability), {"census": BoardCensus}. A frame with no board
            gives "found": false (omitted by proto3 JSON) and a reason. Coordinates are normalized, origin top-left.
            """)

    @Argument(help: "An image (PNG, JPEG, …) or a video file.")
    var input: String

    @Flag(help: "Print JSON lines of the wire messages.")
    var json = false

    @Option(help: "Write an image with the board, hole and bags drawn (for a video: the last frame with a board).")
    var overlay: String?

    @Flag(help: "Also print every frame's stability observation.")
    var stability = false

    @Option(help: "Stop after this many frames (0: all).")
    var frames = 0

    @Flag(help: "For an image: list every colour region examined as a board candidate, with its verdict (on stderr).")
    var explain = false

    func run() throws {
        let source = try VideoSource(url: input)
        let converter = RenditionConverter(renditions: [Rendition(name: "rgb", layout: .rgb24), .grayFull])
        var stabilityAnalyzer = StabilityAnalyzer()
        var tracker = BoardTracker()
        var census = BagCensus()
        var pictures: [(VideoFrame, VideoFrame)] = []
        var overlayImage: ImageBuffer?
        var count = 0
        var lastFrame: VideoFrame?
        while let picture = try source.nextPicture() {
            if frames > 0 && count >= frames { break }
            let seq = UInt64(picture.index)
            let f = try converter.frames(from: picture, streamID: "inspect", seq: seq)
            guard let rgb = f["rgb"], let gray = f["gray"] else { continue }
            count += 1
            // A single picture is handled after the loop (no motion to wait for).
            if count == 1 { pictures.append((rgb, gray)); continue }
            if count == 2, let first = pictures.first { try step(first.0, first.1) }
            try step(rgb, gray)
            lastFrame = rgb
        }
        if count == 1, let (rgb, _) = pictures.first {
            let result = BoardDetector().search(in: rgb.image)
            if explain { Self.explain(result) }
            let header = PSHeader(frame: rgb, producerID: "inspect")
            var bags: [BagSighting] = []
            if let d = result.detection {
                bags = BagFinder().find(in: rgb.image, board: d)
                emit("board", try PSBoardObservation(d, header: header).jsonString(), text: describe(d))
                let res = CensusResult(seq: rgb.seq, ptsUs: rgb.ptsUs, imageWidth: rgb.image.width, imageHeight: rgb.image.height,
                                       bags: bags.enumerated().map { CensusBag(id: UInt32($0.offset + 1), center: $0.element.center, colour: $0.element.colour, place: $0.element.place, sincePtsUs: rgb.ptsUs) },
                                       changes: [])
                emit("census", try PSBoardCensus(res, header: header).jsonString(), text: bags.map { "  bag \($0.place.rawValue) at (\(Int($0.center.x)), \(Int($0.center.y))) rgb \($0.colour.r),\($0.colour.g),\($0.colour.b), \(Int($0.area.rounded())) px" }.joined(separator: "\n"))
            } else {
                emit("board", try PSBoardObservation(notFound: result.reason, confidence: result.bestConfidence, header: header).jsonString(),
                     text: "no board: \(result.reason)")
            }
            overlayImage = DetectionOverlay.draw(board: result.detection, bags: bags, on: rgb.image)
        }
        if let overlay {
            if count > 1, let f = lastFrame, let b = tracker.board {
                overlayImage = DetectionOverlay.draw(board: b, bags: BagFinder().find(in: f.image, board: b), on: f.image)
            }
            if let img = overlayImage {
                try ImageFile.writePNG(img, to: overlay)
            } else {
                FileHandle.standardError.write("no board found: \(overlay) not written\n".data(using: .utf8)!)
            }
        }

        func step(_ rgb: VideoFrame, _ gray: VideoFrame) throws {
            let header = PSHeader(frame: rgb, producerID: "inspect")
            let s = stabilityAnalyzer.process(gray)
            if self.stability {
                emit("stability", try PSStabilityObservation(s, header: header).jsonString(),
                     text: String(format: "frame %d: shift (%.2f, %.2f) %@ samples %d sum %.2f", s.seq, s.tx, s.ty, s.stable ? "stable" : "unstable", s.sampleCount, s.summedShift))
            }
            let event = tracker.process(rgb, stability: s)
            if event?.movesTheBoard == true { census.reset() }
            switch event {
            case .relocated(let d, let dx, let dy): emit("board", try PSBoardObservation(d, header: header).jsonString(), text: "frame \(rgb.seq): found again \(dx), \(dy) px from where it was: " + describe(d))
            case .found(let d): emit("board", try PSBoardObservation(d, header: header).jsonString(), text: "frame \(rgb.seq): " + describe(d))
            case .notFound(let reason, let c): emit("board", try PSBoardObservation(notFound: reason, confidence: c, header: header).jsonString(), text: "frame \(rgb.seq): no board: \(reason)")
            case .lost(let reason): emit("board", try PSBoardObservation(notFound: reason, confidence: 0, header: header).jsonString(), text: "frame \(rgb.seq): board lost: \(reason)")
            case nil: break
            }
            if let r = census.process(frame: rgb, board: tracker.board, stable: s.stable) {
                emit("census", try PSBoardCensus(r, header: header).jsonString(),
                     text: "frame \(rgb.seq): census on board \(r.onBoard), in hole \(r.inHole), on ground \(r.onGround); changes " + r.changes.map { "\($0.kind.rawValue) #\($0.bagID)" }.joined(separator: ", "))
            }
        }
    }

    /// The candidates of one search, one line each, on standard error.
    private static func explain(_ result: BoardSearchResult) {
        var lines = ["\(result.candidates.count) candidate regions (box in searched pixels, area):"]
        for c in result.candidates {
            lines.append("  [\(c.x), \(c.y) \(c.width)×\(c.height)] area \(c.area): \(c.verdict)")
        }
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }

    private func describe(_ d: BoardDetection) -> String {
        let c = d.corners.map { String(format: "(%.1f, %.1f)", $0.x, $0.y) }.joined(separator: " ")
        return String(format: "board confidence %.2f corners %@ hole (%.1f, %.1f) axes %.1f×%.1f, %.5f m/px",
                      d.confidence, c, d.hole.center.x, d.hole.center.y, d.hole.semiMajor, d.hole.semiMinor, d.metresPerPixel)
    }

    private func emit(_ kind: String, _ message: @autoclosure () throws -> String, text: String) {
        if json {
            if let s = try? message() { print("{\"\(kind)\": \(s)}") }
        } else if !text.isEmpty {
            print(text)
        }
    }
}

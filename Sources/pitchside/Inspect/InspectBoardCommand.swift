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

    @Option(help: "For a video: largest width of the RGB rendition analysed (the detection worker's is 1280).")
    var maxWidth = 1280

    func run() throws {
        let source = try VideoSource(url: input)
        // A picture alone is looked at whole; a video as the detection worker sees it.
        let whole = RenditionConverter(renditions: [Rendition(name: "rgb", layout: .rgb24)])
        let converter = RenditionConverter(renditions: [Rendition(name: "rgb", layout: .rgb24, maxWidth: maxWidth)])
        var stream = DetectionStream(producerID: "inspect", boardInterval: Int.max)
        var first: (full: VideoFrame, rgb: VideoFrame)?
        var count = 0
        var lastFrame: VideoFrame?
        while let picture = try source.nextPicture() {
            if frames > 0 && count >= frames { break }
            let seq = UInt64(picture.index)
            guard let rgb = try converter.frames(from: picture, streamID: "inspect", seq: seq)["rgb"] else { continue }
            count += 1
            // A single picture is handled after the loop (no motion to wait for), at its own size.
            if count == 1 {
                guard let full = try whole.frames(from: picture, streamID: "inspect", seq: seq)["rgb"] else { continue }
                first = (full, rgb)
                continue
            }
            if count == 2, let first { try step(first.rgb, &stream) }
            try step(rgb, &stream)
            lastFrame = rgb
        }
        guard let first else { throw ValidationError("\(input): no picture could be decoded") }
        if count == 1 {
            let found = try still(first.full)
            if let overlay {
                try ImageFile.writePNG(DetectionOverlay.draw(board: found.board, bags: found.bags, on: first.full.image), to: overlay)
            }
        } else if let overlay {
            // Drawn only when asked for: the bags are looked for once more on the last frame.
            if let f = lastFrame, let b = stream.tracker.board {
                try ImageFile.writePNG(DetectionOverlay.draw(board: b, bags: BagFinder().find(in: f.image, board: b), on: f.image), to: overlay)
            } else {
                FileHandle.standardError.write("no board found: \(overlay) not written\n".data(using: .utf8)!)
            }
        }
    }

    /// One picture: the board search, and the bags on and around what it found.
    private func still(_ picture: VideoFrame) throws -> (board: BoardDetection?, bags: [BagSighting]) {
        let result = BoardDetector().search(in: picture.image)
        if explain { Self.explain(result) }
        let header = PSHeader(frame: picture, producerID: "inspect")
        guard let d = result.detection else {
            emit("board", try PSBoardObservation(notFound: result.reason, confidence: result.bestConfidence, header: header).jsonString(),
                 text: "no board: \(result.reason)")
            return (nil, [])
        }
        let bags = BagFinder().find(in: picture.image, board: d)
        emit("board", try PSBoardObservation(d, header: header).jsonString(), text: describe(d))
        let census = CensusResult(seq: picture.seq, ptsUs: picture.ptsUs, imageWidth: picture.image.width, imageHeight: picture.image.height,
                                  bags: bags.enumerated().map { CensusBag(id: UInt32($0.offset + 1), center: $0.element.center, colour: $0.element.colour, place: $0.element.place, sincePtsUs: picture.ptsUs) },
                                  changes: [])
        emit("census", try PSBoardCensus(census, header: header).jsonString(),
             text: bags.map { "  bag \($0.place.rawValue) at (\(Int($0.center.x)), \(Int($0.center.y))) rgb \($0.colour.r),\($0.colour.g),\($0.colour.b), \(Int($0.area.rounded())) px (\(String(format: "%.2f", $0.area / $0.singleBagArea)) of a bag, counted \($0.count))" }.joined(separator: "\n"))
        return (d, bags)
    }

    /// One frame of a video through the detection worker's own analysis (`DetectionStream`): its
    /// wire messages as JSON, or in words. Boards are not repeated while kept.
    private func step(_ frame: VideoFrame, _ stream: inout DetectionStream) throws {
        let results = stream.process(frame)
        for result in results {
            switch result.result {
            case .stability(let s)?:
                guard stability else { continue }
                emit("stability", try s.jsonString(),
                     text: String(format: "frame %d: shift (%.2f, %.2f) %@ samples %d sum %.2f", frame.seq, s.tx, s.ty,
                                  s.stable ? "stable" : "unstable", s.sampleCount, s.summedShift))
            case .board(let b)?:
                emit("board", try b.jsonString(), text: "frame \(frame.seq): " + describe(stream.lastBoardEvent))
            case .census(let c)?:
                emit("census", try c.jsonString(),
                     text: "frame \(frame.seq): census on board \(c.onBoard), in hole \(c.inHole), on ground \(c.onGround); changes "
                        + c.changes.map { "\(Self.name($0.kind)) #\($0.bagID)" }.joined(separator: ", "))
            default:
                continue
            }
        }
    }

    private func describe(_ event: BoardTrackerEvent?) -> String {
        switch event {
        case .found(let d)?: return describe(d)
        case .relocated(let d, let dx, let dy)?: return "found again \(dx), \(dy) px from where it was: " + describe(d)
        case .notFound(let reason, _)?: return "no board: \(reason)"
        case .lost(let reason)?: return "board lost: \(reason)"
        case nil: return "board"
        }
    }

    private static func name(_ kind: PSCensusChangeKind) -> String {
        switch kind {
        case .censusChangeNewBag: return "new bag"
        case .censusChangeKnockedIn: return "knocked in"
        case .censusChangeKnockedOff: return "knocked off"
        case .censusChangeRemoved: return "removed"
        case .censusChangeReshaded: return "re-shaded"
        case .censusChangeSeenAgain: return "seen again"
        default: return "change"
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

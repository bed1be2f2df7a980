import ArgumentParser
import Foundation
import PitchsideCore
import PitchsideMedia
import PitchsidePose
import PitchsideSynth

/// `pitchside inspect pose IMAGE|VIDEO`: runs the pose estimator on a file, no cluster needed.
struct InspectPoseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pose",
        abstract: "Find the body pose in an image or video.",
        discussion: """
            pitchside inspect pose photo.jpg --json --overlay pose.png
            pitchside inspect pose game.mp4 --json --max-width 640 > poses.jsonl
            pitchside inspect pose games/7/game.mp4 --truth games/7/truth.json   # accuracy on a synthetic game
            With --json, each frame prints one PoseObservation (the wire message) as a JSON line:
            the person tracked longest in its main fields, anyone else in "others";
            "present": false (omitted by proto3 JSON) means nobody was found. Coordinates are
            normalized to the image, origin top-left. The runtime and models come from ops/setup.
            """)

    @Argument(help: "An image (PNG, JPEG, …) or a video file.")
    var input: String

    @Flag(help: "Print one JSON line per frame (the PoseObservation wire message).")
    var json = false

    @Option(help: "Write an image with the pose drawn on it (for a video: the last frame with a pose).")
    var overlay: String?

    @Option(help: "XNNPACK threads per model.")
    var threads = 1

    @Option(help: "Scale frames down to at most this width first, as the pose rendition does (0: as is).")
    var maxWidth = 0

    @Option(help: "People tracked at once, as the pose worker does (1: only the first one found).")
    var maxPeople = PoseEstimator.Configuration.defaultMaxPeople

    @Option(help: "Stop after this many frames (0: all).")
    var frames = 0

    @Option(help: "Only frames with seq mod N == k, as `worker pose --shard k/N` takes them.")
    var shard = "0/1"

    @Option(help: "A synthetic game's truth.json (one player): report how often the fully visible thrower is found and the median joint errors.")
    var truth: String?

    func run() throws {
        let shard = try ShardSelector(parsing: self.shard)
        guard maxPeople >= 1 else { throw ValidationError("--max-people must be at least 1") }
        let estimator = try PoseEstimator(assets: PoseAssets.default(),
                                          configuration: .init(threads: threads, maxPeople: maxPeople))
        let source = try VideoSource(url: input)
        let rendition = Rendition(name: "rgb", layout: .rgb24, maxWidth: maxWidth > 0 ? maxWidth : nil)
        let converter = RenditionConverter(renditions: [rendition])
        let groundTruth = try truth.map { try GroundTruth.load(path: $0) }
        var accuracy = PoseAccuracy()
        var overlayImage: ImageBuffer?
        var count = 0, found = 0, seconds = 0.0
        while let picture = try source.nextPicture() {
            if frames > 0 && count >= frames { break }
            count += 1
            let seq = UInt64(picture.index)
            guard shard.accepts(seq: seq) else { continue }
            guard let frame = try converter.frames(from: picture, streamID: "inspect", seq: seq)["rgb"] else { continue }
            let start = WallClock.monotonicSeconds()
            let people = estimator.processPeople(frame)
            let result = people.first
            seconds += WallClock.monotonicSeconds() - start
            if let result {
                found += 1
                if overlay != nil { overlayImage = PoseOverlay.draw(result, on: frame.image) }
            } else if let error = estimator.lastError {
                throw error
            }
            if let groundTruth, picture.index < groundTruth.frames.count {
                Self.score(result, truth: groundTruth, frame: frame, index: picture.index, into: &accuracy)
            }
            if json {
                let message = PSPoseObservation(people: people, frame: frame, producerID: "inspect", shard: shard)
                print(try message.jsonString())
            } else {
                print(Self.describe(result, frame: frame))
                for (k, other) in people.dropFirst().enumerated() {
                    print(Self.describe(other, frame: frame).replacingOccurrences(of: "frame \(frame.seq):", with: "  person \(k + 2):"))
                }
            }
        }
        if let overlay {
            if let overlayImage {
                try ImageFile.writePNG(overlayImage, to: overlay)
            } else {
                FileHandle.standardError.write("no pose found: \(overlay) not written\n".data(using: .utf8)!)
            }
        }
        let stats = estimator.statistics
        FileHandle.standardError.write(String(
            format: "%d frames, pose in %d, %.1f ms/frame, detector runs %d, landmark runs %d\n",
            stats.frames, found, stats.frames > 0 ? seconds * 1000 / Double(stats.frames) : 0,
            stats.detectorRuns, stats.landmarkRuns).data(using: .utf8)!)
        if groundTruth != nil { FileHandle.standardError.write(Self.report(accuracy).data(using: .utf8)!) }
    }

    /// Adds one frame of a synthetic game (player 0) to `accuracy`.
    static func score(_ result: PoseResult?, truth: GroundTruth, frame: VideoFrame, index: Int, into accuracy: inout PoseAccuracy) {
        guard let player = truth.frames[index].joints.first else { return }
        let w = Float(frame.image.width), h = Float(frame.image.height)
        let joints = player.map { j in
            PoseAccuracy.TruthJoint(position: PosePoint(x: Float(j[0]) * w, y: Float(j[1]) * h), inFrame: j[2] > 0.5)
        }
        accuracy.add(found: result?.joints.map(\.position), truth: joints,
                     personHeight: Float(truth.camera.throwerHeightFraction) * h)
    }

    static func report(_ accuracy: PoseAccuracy) -> String {
        var lines = [String(
            format: "truth: thrower fully visible in %d of %d frames, found in %d (%.1f%%); poses with nobody visible: %d",
            accuracy.visibleFrames, accuracy.frames, accuracy.foundFrames, accuracy.detectionRate * 100,
            accuracy.posesWithoutPerson)]
        if let all = accuracy.medianError() {
            lines.append(String(format: "median joint error: %.2f%% of the player's height (all scored joints)", all * 100))
            for joint in PoseAccuracy.scoredJoints {
                if let e = accuracy.medianError(joint) {
                    lines.append(String(format: "  %-15@ %.2f%%", joint.rawValue as NSString, e * 100))
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func describe(_ result: PoseResult?, frame: VideoFrame) -> String {
        guard let result else { return "frame \(frame.seq): nobody" }
        let box = result.normalizedPersonBox
        var lines = [String(format: "frame %d: presence %.3f, box x %.3f…%.3f y %.3f…%.3f%@", frame.seq,
                            result.presence, box.minX, box.maxX, box.minY, box.maxY,
                            result.usedDetector ? " (detector)" : " (tracked)")]
        for joint in result.joints {
            let p = result.normalized(joint.position)
            lines.append(String(format: "  %-15@ x %.3f y %.3f conf %.2f", joint.name.rawValue as NSString, p.x, p.y, joint.confidence))
        }
        return lines.joined(separator: "\n")
    }
}

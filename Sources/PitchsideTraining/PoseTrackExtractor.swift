import Foundation
import PitchsideCore
import PitchsideMedia
import PitchsideNodes
import PitchsidePose

/// Runs the pose worker's analyser over a video file, frame after frame, the
/// way the cluster does: decode, convert to the default `rgb` rendition (RGB24,
/// at most 1280 wide, as the capture node sends it), one `PoseEstimator` with
/// the pose worker's configuration (one thread, tracking across frames).
///
/// ```swift
/// let track = try PoseTrackExtractor().extract(video: "games/3000/game.mp4") { done, total in print(done, total) }
/// try track.write(to: URL(fileURLWithPath: "games/3000/poses.jsonl"))
/// ```
public struct PoseTrackExtractor {
    /// The rendition the pose worker subscribes to by default.
    public static var rendition: Rendition {
        RenditionSpec.defaults.first { $0.name == "rgb" } ?? Rendition(name: "rgb", layout: .rgb24, maxWidth: 1280)
    }

    public var assets: PoseAssets

    public init(assets: PoseAssets = .default()) { self.assets = assets }

    /// The poses of every frame of `video`; `progress(framesDone, framesTotal)` is called every 100 frames.
    public func extract(video: String, progress: (Int, Int) -> Void = { _, _ in }) throws -> PoseTrack {
        let estimator = try PoseEstimator(assets: assets.checked(), threads: 1)
        let source = try VideoSource(url: video)
        let rendition = Self.rendition
        let converter = RenditionConverter(renditions: [rendition])
        let total = source.info.estimatedFrameCount ?? 0
        var records: [PoseRecord] = []
        var size = (0, 0)
        while let picture = try source.nextPicture() {
            let seq = UInt64(picture.index)
            guard let frame = try converter.frames(from: picture, streamID: "train", seq: seq)[rendition.name] else { continue }
            size = (picture.width, picture.height)
            let people = estimator.processPeople(frame)
            records.append(PoseRecord(PSPoseObservation(people: people, frame: frame, producerID: "pose")))
            if records.count % 100 == 0 { progress(records.count, total) }
        }
        // Like the worker, a frame the runtime failed on gives no pose; a model that fails on every frame is an error.
        if estimator.statistics.errors > 0, estimator.statistics.errors == estimator.statistics.frames,
           let error = estimator.lastError {
            throw error
        }
        let header = PoseTrack.Header(video: video, videoWidth: size.0, videoHeight: size.1,
                                      rendition: rendition.description, frames: records.count)
        return PoseTrack(header: header, records: records)
    }
}

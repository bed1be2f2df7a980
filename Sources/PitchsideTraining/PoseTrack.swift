import Foundation
import PitchsideCore

/// One frame of the pose worker's output, compactly: what the throw-type
/// classifier needs (the 18 joints, presence, person box, of the first person
/// and of everyone else tracked), without the 33 landmarks. A game's frames are cached as JSON lines (`poses.jsonl`) so the
/// classifier can be retrained without running the pose model again.
public struct PoseRecord: Codable, Sendable, Equatable {
    /// Frame index (the capture node's `seq`) and media time.
    public var seq: UInt64
    public var pts: Int64
    /// Size of the image the pose model saw.
    public var w: Int
    public var h: Int
    /// Pose presence; 0 when nobody was found.
    public var p: Double
    /// x, y, confidence of the 18 joints in `JointName` order (normalized); nil when nobody was found.
    public var j: [Double]?
    /// Person box x, y, width, height (normalized).
    public var box: [Double]?
    /// Everyone else tracked: presence, box (4 values), then the joints as in `j`; nil when nobody else.
    public var o: [[Double]]?

    public init(seq: UInt64, pts: Int64, w: Int, h: Int, p: Double, j: [Double]?, box: [Double]?, o: [[Double]]? = nil) {
        self.o = o
        self.seq = seq
        self.pts = pts
        self.w = w
        self.h = h
        self.p = p
        self.j = j
        self.box = box
    }

    /// The record of a pose observation (coordinates rounded to 1e-5, confidences to 1e-3).
    public init(_ o: PSPoseObservation) {
        seq = o.header.seq
        pts = o.header.ptsUs
        w = Int(o.header.frameWidth)
        h = Int(o.header.frameHeight)
        p = o.present ? Self.round(o.presence, 1e3) : 0
        if o.present {
            j = Self.values(o.joints)
            box = Self.values(o.personBox)
            if !o.others.isEmpty {
                self.o = o.others.map { [Self.round($0.presence, 1e3)] + Self.values($0.personBox) + Self.values($0.joints) }
            }
        }
    }

    static func values(_ joints: [PSJoint]) -> [Double] {
        var values = [Double](repeating: 0, count: JointName.allCases.count * 3)
        for joint in joints {
            guard let k = JointName.allCases.firstIndex(where: { $0.rawValue == joint.name }) else { continue }
            values[3 * k] = round(joint.position.x, 1e5)
            values[3 * k + 1] = round(joint.position.y, 1e5)
            values[3 * k + 2] = round(joint.confidence, 1e3)
        }
        return values
    }

    static func values(_ box: PSRect) -> [Double] {
        [box.x, box.y, box.width, box.height].map { round($0, 1e5) }
    }

    static func joints(_ j: ArraySlice<Double>) -> [PSJoint] {
        let base = j.startIndex
        return JointName.allCases.enumerated().map { k, name in
            var joint = PSJoint()
            joint.name = name.rawValue
            joint.position.x = j[base + 3 * k]
            joint.position.y = j[base + 3 * k + 1]
            joint.confidence = j[base + 3 * k + 2]
            return joint
        }
    }

    static func box(_ b: ArraySlice<Double>) -> PSRect {
        var r = PSRect()
        let base = b.startIndex
        (r.x, r.y, r.width, r.height) = (b[base], b[base + 1], b[base + 2], b[base + 3])
        return r
    }

    /// The pose observation this record stands for, as the game receives it (without landmarks).
    public func observation(streamID: String = "train") -> PSPoseObservation {
        var o = PSPoseObservation()
        o.header.streamID = streamID
        o.header.seq = seq
        o.header.ptsUs = pts
        o.header.frameWidth = UInt32(w)
        o.header.frameHeight = UInt32(h)
        guard let j, j.count == JointName.allCases.count * 3 else { return o }
        o.present = true
        o.presence = p
        o.joints = Self.joints(j[...])
        if let box, box.count == 4 { o.personBox = Self.box(box[...]) }
        let jointValues = JointName.allCases.count * 3
        o.others = (self.o ?? []).filter { $0.count == 5 + jointValues }.map { values in
            var other = PSPersonPose()
            other.presence = values[0]
            other.personBox = Self.box(values[1..<5])
            other.joints = Self.joints(values[5...])
            return other
        }
        return o
    }

    static func round(_ v: Double, _ scale: Double) -> Double { (v * scale).rounded() / scale }
}

/// A game's poses as the pose worker produced them, with what produced them.
public struct PoseTrack: Sendable, Equatable {
    /// The first line of the file: how the poses were made.
    public struct Header: Codable, Sendable, Equatable {
        public var schema = PoseTrack.schema
        /// The video the poses come from and its size.
        public var video: String
        public var videoWidth: Int
        public var videoHeight: Int
        /// The rendition the pose model saw, e.g. "rgb(rgb24, w≤1280)".
        public var rendition: String
        public var frames: Int

        public init(video: String, videoWidth: Int, videoHeight: Int, rendition: String, frames: Int) {
            self.video = video
            self.videoWidth = videoWidth
            self.videoHeight = videoHeight
            self.rendition = rendition
            self.frames = frames
        }
    }

    public static let schema = "pitchside-pose-track/2"  // 2: everyone tracked (`PoseRecord.o`)

    public var header: Header
    public var records: [PoseRecord]

    public init(header: Header, records: [PoseRecord]) {
        self.header = header
        self.records = records
    }

    /// Every frame's pose observation, in frame order (absent ones included, `present == false`).
    public func observations(streamID: String = "train") -> [PSPoseObservation] {
        records.map { $0.observation(streamID: streamID) }
    }

    /// JSON lines: the header, then one record per frame.
    public func write(to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = try encoder.encode(header)
        data.append(0x0A)
        for r in records {
            data.append(try encoder.encode(r))
            data.append(0x0A)
        }
        // Written whole, then moved: an interrupted run never leaves a truncated cache.
        let partial = url.appendingPathExtension("partial")
        try data.write(to: partial)
        _ = try? FileManager.default.removeItem(at: url)
        try FileManager.default.moveItem(at: partial, to: url)
    }

    /// Reads a file written by `write(to:)`; refuses another schema, a bad line or a short file.
    public static func read(from url: URL) throws -> PoseTrack {
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        guard let first = lines.first else { throw TrainingError.badPoseTrack(url.path, "empty file") }
        let decoder = JSONDecoder()
        let header: Header
        do { header = try decoder.decode(Header.self, from: Data(first.utf8)) } catch {
            throw TrainingError.badPoseTrack(url.path, "line 1 is not a pose-track header: \(error)")
        }
        guard header.schema == schema else {
            throw TrainingError.badPoseTrack(url.path, "schema \(header.schema), expected \(schema)")
        }
        var records: [PoseRecord] = []
        records.reserveCapacity(lines.count - 1)
        for (i, line) in lines.dropFirst().enumerated() {
            do { records.append(try decoder.decode(PoseRecord.self, from: Data(line.utf8))) } catch {
                throw TrainingError.badPoseTrack(url.path, "line \(i + 2): \(error)")
            }
        }
        guard records.count == header.frames else {
            throw TrainingError.badPoseTrack(url.path, "\(records.count) frames, the header says \(header.frames)")
        }
        return PoseTrack(header: header, records: records)
    }
}

/// What can go wrong while preparing training data.
public enum TrainingError: Error, CustomStringConvertible, Equatable {
    case badPoseTrack(String, String)
    case badSeeds(String)
    case noSamples(String)
    case badCorpus(String)
    case badModel(String, String)

    public var description: String {
        switch self {
        case .badPoseTrack(let path, let why): return "\(path): not a usable pose track: \(why)"
        case .badSeeds(let why): return why
        case .noSamples(let why): return "no training samples: \(why)"
        case .badCorpus(let why): return why
        case .badModel(let path, let why): return "\(path): not a usable throw-type model: \(why)"
        }
    }
}

import Foundation
import PitchsideCore
import PitchsideGame

/// A few labelled pose windows from the real pose model, small enough to commit
/// as test data: each pose packed as bytes (time from release, presence, and
/// the 18 joints' x, y at 1/65535 and confidence at 1/255), base64 in JSON.
/// A window is about 6 KB.
public struct WindowFixture: Codable, Sendable, Equatable {
    public struct Window: Codable, Sendable, Equatable {
        public var label: String
        /// Where the window comes from.
        public var seed: UInt64
        public var frame: Int
        public var releasePtsUs: Int64
        public var width: Int
        public var height: Int
        /// The packed poses (see the type's comment).
        public var poses: String
    }

    public var schema = "pitchside-window-fixture/1"
    public var note: String
    public var windows: [Window]

    static let bytesPerPose = 4 + 1 + JointName.allCases.count * 5

    public init(note: String, windows: [Window]) {
        self.note = note
        self.windows = windows
    }

    /// Packs a window's poses (all present, as `PoseWindow.around` gives them).
    public static func pack(label: PSThrowType, seed: UInt64, frame: Int, sample: ThrowTypeTrainer.Sample) -> Window {
        let release = sample.releasePtsUs ?? sample.poses.last?.header.ptsUs ?? 0
        var bytes: [UInt8] = []
        func put16(_ v: Double) {
            let q = UInt16(max(0, min(65535, (v * 65535).rounded())))
            bytes += [UInt8(q >> 8), UInt8(q & 0xFF)]
        }
        for pose in sample.poses {
            let dt = Int32(clamping: pose.header.ptsUs - release)
            bytes += withUnsafeBytes(of: dt.bigEndian) { Array($0) }
            bytes.append(UInt8(max(0, min(255, (pose.presence * 255).rounded()))))
            let byName = Dictionary(pose.joints.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
            for name in JointName.allCases {
                let j = byName[name.rawValue]
                put16(j?.position.x ?? 0)
                put16(j?.position.y ?? 0)
                bytes.append(UInt8(max(0, min(255, ((j?.confidence ?? 0) * 255).rounded()))))
            }
        }
        let first = sample.poses.first
        return Window(label: ThrowTypeModel.name(of: label), seed: seed, frame: frame, releasePtsUs: release,
                      width: Int(first?.header.frameWidth ?? 0), height: Int(first?.header.frameHeight ?? 0),
                      poses: Data(bytes).base64EncodedString())
    }

    /// The window's poses as the game would hold them, and its label.
    public static func unpack(_ w: Window) throws -> (sample: ThrowTypeTrainer.Sample, label: PSThrowType) {
        guard let data = Data(base64Encoded: w.poses), data.count % bytesPerPose == 0 else {
            throw TrainingError.badPoseTrack("window fixture", "poses of seed \(w.seed) frame \(w.frame) are not whole packed poses")
        }
        let bytes = [UInt8](data)
        var poses: [PSPoseObservation] = []
        var at = 0
        func get16() -> Double {
            defer { at += 2 }
            return Double(UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1])) / 65535
        }
        while at < bytes.count {
            let dt = Int32(bitPattern: UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3]))
            at += 4
            var o = PSPoseObservation()
            o.header.ptsUs = w.releasePtsUs + Int64(dt)
            o.header.frameWidth = UInt32(w.width)
            o.header.frameHeight = UInt32(w.height)
            o.present = true
            o.presence = Double(bytes[at]) / 255
            at += 1
            o.joints = JointName.allCases.map { name in
                var j = PSJoint()
                j.name = name.rawValue
                j.position.x = get16()
                j.position.y = get16()
                j.confidence = Double(bytes[at]) / 255
                at += 1
                return j
            }
            poses.append(o)
        }
        let label = ThrowTypeModel.type(named: w.label)
        return (ThrowTypeTrainer.Sample(poses: poses, releasePtsUs: w.releasePtsUs, label: label), label)
    }
}

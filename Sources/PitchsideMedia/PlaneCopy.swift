import CFFmpeg
import Foundation
import PitchsideCore

/// A full-size YUV420P rendition straight from a YUV420P picture's planes (internal): rows
/// copied, values as decoded (limited-range video stays limited-range).
enum PlaneCopy {
    /// Writes Y, U and V of `picture` back to back at `target` (rows packed: width and
    /// width / 2 bytes).
    static func writeYUV420P(_ picture: DecodedPicture, into target: UnsafeMutablePointer<UInt8>) throws {
        let frame = picture.frame
        let width = picture.width, height = picture.height
        guard width % 2 == 0, height % 2 == 0 else {
            throw MediaError.decodeFailed("picture \(picture.index)", reason: "yuv420p needs an even size, not \(width)×\(height)")
        }
        let planes = [frame.pointee.data.0, frame.pointee.data.1, frame.pointee.data.2]
        let strides = [Int(frame.pointee.linesize.0), Int(frame.pointee.linesize.1), Int(frame.pointee.linesize.2)]
        let sizes = [(width, height), (width / 2, height / 2), (width / 2, height / 2)]
        var out = target
        for k in 0..<3 {
            guard let plane = planes[k] else {
                throw MediaError.decodeFailed("picture \(picture.index)", reason: "plane \(k) missing")
            }
            let (w, h) = sizes[k]
            for y in 0..<h { memcpy(out + y * w, plane + y * strides[k], w) }
            out += w * h
        }
    }
}

import CFFmpeg
import PitchsideCore

/// Full-size GRAY8 straight from a picture's luma plane (internal).
///
/// Limited-range video (luma 16–235) is expanded to 0–255, matching libswscale's
/// YUV → GRAY8 output within one level, at a fraction of its cost.
enum LumaCopy {
    /// Writes the picture's GRAY8 (width × height bytes, packed) at `target`.
    static func write(_ picture: DecodedPicture, into target: UnsafeMutablePointer<UInt8>) throws {
        let frame = picture.frame
        let limited = !(picture.isFullRange || picture.pixelFormat == AV_PIX_FMT_GRAY8)
        guard let plane = frame.pointee.data.0 else {
            throw MediaError.decodeFailed("picture \(picture.index)", reason: "no luma plane")
        }
        pitchside_copy_luma(plane, frame.pointee.linesize.0, target, Int32(picture.width), Int32(picture.width),
                            Int32(picture.height), limited ? 1 : 0)
    }
}

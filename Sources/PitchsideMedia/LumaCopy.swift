import CFFmpeg
import PitchsideCore

/// Full-size GRAY8 straight from a picture's luma plane (internal).
///
/// Limited-range video (luma 16–235) is expanded to 0–255, matching libswscale's
/// YUV → GRAY8 output within one level, at a fraction of its cost.
enum LumaCopy {
    static func image(from picture: DecodedPicture) throws -> ImageBuffer {
        let width = picture.width, height = picture.height
        let frame = picture.frame
        let limited = !(picture.isFullRange || picture.pixelFormat == AV_PIX_FMT_GRAY8)
        guard let plane = frame.pointee.data.0 else {
            throw MediaError.decodeFailed("picture \(picture.index)", reason: "no luma plane")
        }
        let sourceStride = frame.pointee.linesize.0
        let count = width * height
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            pitchside_copy_luma(plane, sourceStride, buffer.baseAddress!, Int32(width), Int32(width), Int32(height),
                                limited ? 1 : 0)
            initialized = count
        }
        return try ImageBuffer(width: width, height: height, layout: .gray8, stride: width, pixels: pixels)
    }
}

import CFFmpeg
import PitchsideCore

/// Full-size GRAY8 straight from a picture's luma plane (internal).
enum LumaCopy {
    /// Limited-range luma (16–235) to full range (0–255), rounded like libswscale.
    static let expand: [UInt8] = (0..<256).map { (y: Int) -> UInt8 in
        let scaled: Int = ((y - 16) * 510 + 219) / 438
        return UInt8(clamping: scaled)
    }

    static func image(from picture: DecodedPicture) throws -> ImageBuffer {
        let width = picture.width, height = picture.height
        let frame = picture.frame
        let fullRange = picture.isFullRange || picture.pixelFormat == AV_PIX_FMT_GRAY8
        let sourceStride = Int(frame.pointee.linesize.0)
        guard let plane = frame.pointee.data.0 else {
            throw MediaError.decodeFailed("picture \(picture.index)", reason: "no luma plane")
        }
        let count = width * height
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let target = buffer.baseAddress!
            if fullRange {
                for row in 0..<height {
                    (target + row * width).update(from: plane + row * sourceStride, count: width)
                }
            } else {
                expand.withUnsafeBufferPointer { table in
                    let lut = table.baseAddress!
                    for row in 0..<height {
                        let source = plane + row * sourceStride
                        let destination = target + row * width
                        for x in 0..<width { destination[x] = lut[Int(source[x])] }
                    }
                }
            }
            initialized = count
        }
        return try ImageBuffer(width: width, height: height, layout: .gray8, stride: width, pixels: pixels)
    }
}

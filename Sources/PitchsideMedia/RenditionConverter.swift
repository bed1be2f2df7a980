import CFFmpeg
import PitchsideCore

/// Turns decoded pictures into the renditions consumers asked for (libswscale,
/// one cached context per rendition).
///
/// Output sizes are fixed by the first picture: if the stream later changes
/// size, pictures are scaled to the sizes already announced, so consumers never
/// see a size change. Full-size GRAY8 from a YUV source is the luma plane
/// copied directly (expanded to full range 0–255 when the video is
/// limited-range, as libswscale does), which costs far less than decoding.
/// With `.area` (the default), a rendition that is an exact 1/k of the source
/// (1920×1080 or 1280×720 → 640×360) is box-averaged in YUV before the colour
/// conversion, the cheapest alias-free reduction; other sizes use libswscale.
///
/// ```swift
/// let converter = RenditionConverter(renditions: [.grayFull, Rendition(name: "rgb", layout: .rgb24, maxWidth: 640)])
/// while let picture = try source.nextPicture() {
///     let frames = try converter.frames(from: picture, streamID: "cam1", seq: UInt64(picture.index))
///     // frames["gray"], frames["rgb"]
/// }
/// ```
public final class RenditionConverter {
    public let renditions: [Rendition]
    public let quality: ScalingQuality
    private var scalers: [Scaler]
    private var shrinkers: [BoxShrinker]
    private var sizes: [(width: Int, height: Int)?]
    /// Off only in tests, to compare the direct luma copy with libswscale.
    var allowsDirectLumaCopy = true
    /// Off only in tests, to compare the whole-factor box shrink with libswscale.
    var allowsBoxShrink = true

    public init(renditions: [Rendition], quality: ScalingQuality = .area) {
        self.renditions = renditions
        self.quality = quality
        scalers = renditions.map { _ in Scaler() }
        shrinkers = renditions.map { _ in BoxShrinker() }
        sizes = renditions.map { _ in nil }
    }

    /// The output size of each rendition once the first picture has been converted.
    public func outputSize(of rendition: Rendition) -> (width: Int, height: Int)? {
        renditions.firstIndex(of: rendition).flatMap { sizes[$0] }
    }

    /// Every rendition of `picture` as a `VideoFrame`, keyed by rendition name.
    public func frames(
        from picture: DecodedPicture, streamID: String, seq: UInt64, captureUnixUs: Int64 = 0
    ) throws -> [String: VideoFrame] {
        var frames: [String: VideoFrame] = [:]
        for index in renditions.indices {
            let image = try convert(picture, at: index)
            frames[renditions[index].name] = VideoFrame(
                streamID: streamID, seq: seq, ptsUs: picture.ptsUs, captureUnixUs: captureUnixUs, image: image)
        }
        return frames
    }

    /// One rendition (one of `renditions`, or any other) of `picture`.
    public func image(from picture: DecodedPicture, rendition: Rendition) throws -> ImageBuffer {
        if let index = renditions.firstIndex(of: rendition) { return try convert(picture, at: index) }
        let size = rendition.targetSize(sourceWidth: picture.width, sourceHeight: picture.height)
        return try convert(picture, layout: rendition.layout, size: size, scaler: Scaler(), shrinker: BoxShrinker())
    }

    /// The size `rendition` (one of `renditions`) has for `picture`: fixed by the first picture.
    public func size(of rendition: Rendition, for picture: DecodedPicture) -> (width: Int, height: Int) {
        guard let index = renditions.firstIndex(of: rendition) else {
            return rendition.targetSize(sourceWidth: picture.width, sourceHeight: picture.height)
        }
        let size = sizes[index] ?? rendition.targetSize(sourceWidth: picture.width, sourceHeight: picture.height)
        sizes[index] = size
        return size
    }

    /// Writes `rendition` (one of `renditions`) of `picture` into `target`, packed rows: exactly
    /// width × height × bytes per pixel of `size(of:for:)`, e.g. a `FrameBuffer`'s pixels, so the
    /// capture node publishes it without another copy. Returns the size written.
    @discardableResult
    public func write(_ picture: DecodedPicture, rendition: Rendition, into target: UnsafeMutableRawBufferPointer) throws
        -> (width: Int, height: Int)
    {
        guard let index = renditions.firstIndex(of: rendition) else {
            preconditionFailure("rendition \(rendition.name) is not one of this converter's")
        }
        let size = self.size(of: rendition, for: picture)
        precondition(target.count == rendition.layout.byteCount(stride: size.width * rendition.layout.bytesPerPixel, height: size.height),
                     "target size")
        try convert(picture, layout: rendition.layout, size: size, scaler: scalers[index], shrinker: shrinkers[index],
                    into: target.baseAddress!.assumingMemoryBound(to: UInt8.self))
        return size
    }

    private func convert(_ picture: DecodedPicture, at index: Int) throws -> ImageBuffer {
        let rendition = renditions[index]
        let size = self.size(of: rendition, for: picture)
        return try convert(picture, layout: rendition.layout, size: size, scaler: scalers[index], shrinker: shrinkers[index])
    }

    private func convert(
        _ picture: DecodedPicture, layout: PixelLayout, size: (width: Int, height: Int), scaler: Scaler,
        shrinker: BoxShrinker
    ) throws -> ImageBuffer {
        let stride = size.width * layout.bytesPerPixel
        let count = layout.byteCount(stride: stride, height: size.height)
        var failure: Error?
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do {
                try convert(picture, layout: layout, size: size, scaler: scaler, shrinker: shrinker, into: buffer.baseAddress!)
            } catch {
                failure = error
                buffer.baseAddress!.initialize(repeating: 0, count: count)
            }
            initialized = count
        }
        if let failure { throw failure }
        return try ImageBuffer(width: size.width, height: size.height, layout: layout, stride: stride, pixels: pixels)
    }

    /// The conversion itself, into `target` (packed rows of `size`).
    private func convert(
        _ picture: DecodedPicture, layout: PixelLayout, size: (width: Int, height: Int), scaler: Scaler,
        shrinker: BoxShrinker, into target: UnsafeMutablePointer<UInt8>
    ) throws {
        if layout == .gray8, allowsDirectLumaCopy, size.width == picture.width, size.height == picture.height,
           Self.hasLumaPlane(picture.pixelFormat) {
            return try LumaCopy.write(picture, into: target)
        }
        if layout == .yuv420p, size.width == picture.width, size.height == picture.height,
           picture.pixelFormat == AV_PIX_FMT_YUV420P || picture.pixelFormat == AV_PIX_FMT_YUVJ420P {
            return try PlaneCopy.writeYUV420P(picture, into: target)
        }
        let frame = picture.frame
        if quality == .area, allowsBoxShrink, let factor = BoxShrinker.factor(
            format: picture.pixelFormat, sourceWidth: picture.width, sourceHeight: picture.height,
            targetWidth: size.width, targetHeight: size.height) {
            // Area-average in YUV by the whole factor, then only convert colours.
            return try shrinker.shrink(frame, factor: factor) { planes, strides, width, height in
                try scale(planes: planes, strides: strides, width: width, height: height, format: frame.pointee.format,
                          to: layout, size: size, flags: SWS_POINT, scaler: scaler, label: picture, into: target)
            }
        }
        let flags: Int32
        switch quality {
        case .fast: flags = SWS_FAST_BILINEAR
        case .bilinear: flags = SWS_BILINEAR
        case .area: flags = SWS_AREA
        }
        return try frame.withPlanes { planes, lines in
            let source = (0..<4).map { UnsafePointer(planes[$0]) }
            let strides = (0..<4).map { lines[$0] }
            return try scale(planes: source, strides: strides, width: picture.width, height: picture.height,
                             format: frame.pointee.format, to: layout, size: size, flags: flags, scaler: scaler,
                             label: picture, into: target)
        }
    }

    /// libswscale from source planes into packed rows at `target`.
    private func scale(
        planes: [UnsafePointer<UInt8>?], strides: [Int32], width: Int, height: Int, format: Int32,
        to layout: PixelLayout, size: (width: Int, height: Int), flags: Int32, scaler: Scaler, label picture: DecodedPicture,
        into target: UnsafeMutablePointer<UInt8>
    ) throws {
        let key = Scaler.Key(
            sourceWidth: Int32(width), sourceHeight: Int32(height), sourceFormat: format,
            targetWidth: Int32(size.width), targetHeight: Int32(size.height), targetFormat: layout.avPixelFormat.rawValue,
            flags: flags)
        guard let sws = scaler.context(for: key) else {
            throw MediaError.decodeFailed(
                "picture \(picture.index)", reason: "libswscale cannot convert \(picture.pixelFormatName) to \(layout.rawValue)")
        }
        let stride = size.width * layout.bytesPerPixel
        var targets: [UnsafeMutablePointer<UInt8>?] = [target, nil, nil, nil]
        var targetStrides: [Int32] = [Int32(stride), 0, 0, 0]
        if layout == .yuv420p {
            let chroma = (stride / 2) * (size.height / 2)
            targets[1] = target + stride * size.height
            targets[2] = target + stride * size.height + chroma
            targetStrides[1] = Int32(stride / 2)
            targetStrides[2] = Int32(stride / 2)
        }
        _ = sws_scale(sws, planes, strides, 0, Int32(height), &targets, &targetStrides)
    }

    /// Formats whose first plane is 8-bit luma at full resolution.
    static func hasLumaPlane(_ format: AVPixelFormat) -> Bool {
        switch format {
        case AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUVJ420P, AV_PIX_FMT_YUV422P, AV_PIX_FMT_YUVJ422P,
             AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUVJ444P, AV_PIX_FMT_YUV440P, AV_PIX_FMT_YUVJ440P,
             AV_PIX_FMT_YUV411P, AV_PIX_FMT_YUV410P, AV_PIX_FMT_NV12, AV_PIX_FMT_NV21, AV_PIX_FMT_GRAY8:
            return true
        default:
            return false
        }
    }
}

import CFFmpeg

/// One libswscale context, rebuilt only when the source or target changes (internal).
final class Scaler {
    private var context: OpaquePointer?
    private var key: Key?

    struct Key: Equatable {
        var sourceWidth: Int32, sourceHeight: Int32, sourceFormat: Int32
        var targetWidth: Int32, targetHeight: Int32, targetFormat: Int32
        var flags: Int32
    }

    deinit { sws_freeContext(context) }

    /// The context for this conversion (cached while the key stays the same).
    func context(for key: Key) -> OpaquePointer? {
        if key == self.key, let context { return context }
        sws_freeContext(context)
        context = sws_getContext(
            key.sourceWidth, key.sourceHeight, AVPixelFormat(rawValue: key.sourceFormat),
            key.targetWidth, key.targetHeight, AVPixelFormat(rawValue: key.targetFormat),
            key.flags, nil, nil, nil)
        self.key = context == nil ? nil : key
        return context
    }
}

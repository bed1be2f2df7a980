/// One timestamped picture of a stream, as the analysers receive it.
///
/// Analysers are fed `VideoFrame`s in `seq` order; `ptsUs` is media time and
/// orders everything, `captureUnixUs` is wall time used only for latency.
public struct VideoFrame: Sendable {
    public var streamID: String
    public var seq: UInt64
    public var ptsUs: Int64
    public var captureUnixUs: Int64
    public var image: ImageBuffer

    public init(streamID: String = "default", seq: UInt64, ptsUs: Int64, captureUnixUs: Int64 = 0, image: ImageBuffer) {
        self.streamID = streamID
        self.seq = seq
        self.ptsUs = ptsUs
        self.captureUnixUs = captureUnixUs
        self.image = image
    }
}

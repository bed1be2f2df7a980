import PitchsideCore
import PitchsideMedia

/// Parses rendition specifications given on the command line:
/// `NAME:FORMAT` (full size) or `NAME:FORMAT:MAXWIDTH` (scaled down to at most MAXWIDTH pixels
/// wide), FORMAT one of gray8, rgb24, yuv420p.
public enum RenditionSpec {
    /// What the workers subscribe to by default: full-size GRAY8 for stability, full-size
    /// YUV420P for trajectory (colour: a bag can have the luma of the ground behind it), RGB24
    /// at most 1280 wide for pose and board detection.
    public static let defaults = [
        Rendition(name: "gray", layout: .gray8),
        Rendition(name: "yuv", layout: .yuv420p),
        Rendition(name: "rgb", layout: .rgb24, maxWidth: 1280),
    ]

    public static func parse(_ text: String) throws -> Rendition {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2 || parts.count == 3, !parts[0].isEmpty else {
            throw NodeError.badArgument("rendition '\(text)' must look like NAME:FORMAT or NAME:FORMAT:MAXWIDTH (FORMAT gray8, rgb24 or yuv420p)")
        }
        guard let layout = PixelLayout(rawValue: parts[1]) else {
            throw NodeError.badArgument("rendition '\(text)': pixel format must be gray8, rgb24 or yuv420p")
        }
        var maxWidth: Int?
        if parts.count == 3 {
            guard let width = Int(parts[2]), width >= 16 else {
                throw NodeError.badArgument("rendition '\(text)': maximum width must be a number ≥ 16")
            }
            maxWidth = width
        }
        return Rendition(name: parts[0], layout: layout, maxWidth: maxWidth)
    }
}

import CCairo
import PitchsideCore

/// A Cairo drawing surface over a buffer this type owns (xRGB32: bytes B, G, R, x).
final class CairoCanvas {
    let width: Int
    let height: Int
    let stride: Int
    let data: UnsafeMutablePointer<UInt8>
    let surface: OpaquePointer
    let cr: OpaquePointer

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_RGB24, Int32(width)))
        data = UnsafeMutablePointer<UInt8>.allocate(capacity: stride * height)
        data.initialize(repeating: 0, count: stride * height)
        surface = cairo_image_surface_create_for_data(data, CAIRO_FORMAT_RGB24, Int32(width), Int32(height), Int32(stride))
        cr = cairo_create(surface)
    }

    deinit {
        cairo_destroy(cr)
        cairo_surface_destroy(surface)
        data.deallocate()
    }

    /// Copies a window of another canvas (top-left at x0, y0) into this one, whole rows at a time.
    func copy(from source: CairoCanvas, x0: Int, y0: Int) {
        cairo_surface_flush(surface)
        let rowBytes = width * 4
        for y in 0..<height {
            let sy = min(max(y + y0, 0), source.height - 1)
            let sx = min(max(x0, 0), source.width - width)
            (data + y * stride).update(from: source.data + sy * source.stride + sx * 4, count: rowBytes)
        }
        cairo_surface_mark_dirty(surface)
    }

    func setColor(_ c: RGB, alpha: Double = 1) {
        let (r, g, b) = c.unit
        if alpha >= 1 { cairo_set_source_rgb(cr, r, g, b) } else { cairo_set_source_rgba(cr, r, g, b, alpha) }
    }

    func polygon(_ points: [Pixel]) {
        guard let first = points.first else { return }
        cairo_new_path(cr)
        cairo_move_to(cr, first.x, first.y)
        for p in points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
        cairo_close_path(cr)
    }

    func fillPolygon(_ points: [Pixel], _ c: RGB, alpha: Double = 1) {
        polygon(points)
        setColor(c, alpha: alpha)
        cairo_fill(cr)
    }

    /// A thick line with round ends: a limb.
    func capsule(_ a: Pixel, _ b: Pixel, width: Double, _ c: RGB) {
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_width(cr, max(width, 1))
        setColor(c)
        cairo_new_path(cr)
        cairo_move_to(cr, a.x, a.y)
        cairo_line_to(cr, b.x, b.y)
        cairo_stroke(cr)
    }

    func ellipse(_ centre: Pixel, rx: Double, ry: Double, angle: Double = 0) {
        cairo_new_path(cr)
        cairo_save(cr)
        cairo_translate(cr, centre.x, centre.y)
        cairo_rotate(cr, angle)
        cairo_scale(cr, max(rx, 0.1), max(ry, 0.1))
        cairo_arc(cr, 0, 0, 1, 0, 2 * Double.pi)
        cairo_restore(cr)
    }

    func fillEllipse(_ centre: Pixel, rx: Double, ry: Double, angle: Double = 0, _ c: RGB, alpha: Double = 1) {
        ellipse(centre, rx: rx, ry: ry, angle: angle)
        setColor(c, alpha: alpha)
        cairo_fill(cr)
    }

    /// A soft dark ellipse (a shadow), darkest in the middle.
    func shadow(_ centre: Pixel, rx: Double, ry: Double, alpha: Double) {
        guard rx > 0.3, ry > 0.1, alpha > 0.01 else { return }
        cairo_save(cr)
        cairo_translate(cr, centre.x, centre.y)
        cairo_scale(cr, rx, ry)
        let pattern = cairo_pattern_create_radial(0, 0, 0, 0, 0, 1)
        cairo_pattern_add_color_stop_rgba(pattern, 0, 0, 0, 0, alpha)
        cairo_pattern_add_color_stop_rgba(pattern, 0.6, 0, 0, 0, alpha * 0.6)
        cairo_pattern_add_color_stop_rgba(pattern, 1, 0, 0, 0, 0)
        cairo_set_source(cr, pattern)
        cairo_new_path(cr)
        cairo_arc(cr, 0, 0, 1, 0, 2 * Double.pi)
        cairo_fill(cr)
        cairo_pattern_destroy(pattern)
        cairo_restore(cr)
    }

    /// Writes the canvas as a PNG (for looking at frames while developing).
    func writePNG(_ path: String) {
        cairo_surface_flush(surface)
        cairo_surface_write_to_png(surface, path)
    }
}

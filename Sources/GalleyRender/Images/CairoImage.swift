// A decoded image as cairo draws it.

import CCairo

/// A decoded image surface, destroyed with the object.
final class CairoImage {
    let surface: OpaquePointer
    let width: Double
    let height: Double

    /// An image of `surface`, which it takes over.
    init(surface: OpaquePointer) {
        self.surface = surface
        width = Double(cairo_image_surface_get_width(surface))
        height = Double(cairo_image_surface_get_height(surface))
    }

    deinit { cairo_surface_destroy(surface) }

    /// The image as a PNG file, as cairo writes one; nil when cairo cannot.
    func pngData() -> [UInt8]? {
        let sink = PNGSink()
        let status = withExtendedLifetime(sink) {
            cairo_surface_write_to_png_stream(surface, writePNG, Unmanaged.passUnretained(sink).toOpaque())
        }
        return status == CAIRO_STATUS_SUCCESS ? sink.bytes : nil
    }
}

/// The bytes cairo's PNG writer gives, in turn.
private final class PNGSink {
    var bytes: [UInt8] = []
}

private let writePNG: cairo_write_func_t = { closure, data, length in
    let sink = Unmanaged<PNGSink>.fromOpaque(closure!).takeUnretainedValue()
    if let data { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length))) }
    return CAIRO_STATUS_SUCCESS
}

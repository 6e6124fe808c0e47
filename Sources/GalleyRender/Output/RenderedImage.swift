// Pixels drawn by cairo, for whoever wants to look at them (tests among them).

import CCairo

/// An image drawn in memory: premultiplied ARGB pixels, row by row from the top.
public struct RenderedImage: Sendable, Hashable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Each pixel as `0xAARRGGBB`, premultiplied by alpha, `width` a row.
    public let pixels: [UInt32]

    /// The most pixels an image may have a side (cairo's own bound).
    public static let maximumSide = 32_767

    /// The opacity of the pixel at (`x`, `y`), 0 (nothing drawn) to 255.
    public func alpha(x: Int, y: Int) -> UInt8 { UInt8(truncatingIfNeeded: pixels[y * width + x] >> 24) }

    /// The pixels of an image surface cairo finished drawing.
    init(surface: OpaquePointer) {
        cairo_surface_flush(surface)
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        var pixels = [UInt32](repeating: 0, count: width * height)
        for row in 0..<height {
            for column in 0..<width { pixels[row * width + column] = data.load(fromByteOffset: row * stride + column * 4, as: UInt32.self) }
        }
        self.pixels = pixels
    }
}

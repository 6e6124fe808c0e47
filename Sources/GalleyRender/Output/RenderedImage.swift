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
        let (width, height) = (width, height)
        pixels = [UInt32](unsafeUninitializedCapacity: width * height) { pixels, count in
            // Row by row: cairo's rows may be padded past the width.
            for row in 0..<height {
                UnsafeMutableRawPointer(pixels.baseAddress! + row * width).copyMemory(from: data + row * stride, byteCount: width * 4)
            }
            count = width * height
        }
    }
}

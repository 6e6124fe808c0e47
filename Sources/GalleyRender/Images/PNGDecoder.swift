// PNG files decoded with libpng, within bounds (see CGalleyPNG.h).

import CCairo
import CGalleyPNG

/// Decodes PNG files into cairo image surfaces with libpng, reading only the chunks that make
/// the image: text, colour profiles and every other ancillary chunk are skipped unread, so a
/// small file cannot inflate into gigabytes of them.
enum PNGDecoder {
    /// The most memory libpng may hold for one image besides its pixels: its rows, zlib's
    /// window and the palette take a few hundred kilobytes at the largest side.
    static let maximumLibraryBytes = 4 << 20

    /// An image decoded, and the most memory libpng held for it at once.
    struct Decoded {
        var image: CairoImage?
        var peakLibraryBytes: Int
    }

    /// `png` decoded (nil when it cannot be: not a PNG, damaged, more than `maximumSide` pixels
    /// a side, or needing more than ``maximumLibraryBytes`` of libpng's memory). The header must
    /// be the first chunk, as the format says and as an image folder checks it before decoding
    /// (libpng would skip an ancillary chunk before it).
    static func decode(_ png: [UInt8], maximumSide: Int = ImageFolder.maximumSide) -> Decoded {
        guard png.count > 16, png[12..<16].elementsEqual("IHDR".utf8) else { return Decoded(image: nil, peakLibraryBytes: 0) }
        return png.withUnsafeBufferPointer { bytes in
            guard let base = bytes.baseAddress,
                let decoder = CGalleyPNG_open(base, bytes.count, UInt32(clamping: maximumSide), maximumLibraryBytes)
            else { return Decoded(image: nil, peakLibraryBytes: 0) }
            defer { CGalleyPNG_close(decoder) }
            let format = CGalleyPNG_hasAlpha(decoder) != 0 ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_RGB24
            let surface = cairo_image_surface_create(format, Int32(CGalleyPNG_width(decoder)), Int32(CGalleyPNG_height(decoder)))!
            guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(surface),
                CGalleyPNG_read(decoder, data, Int(cairo_image_surface_get_stride(surface))) != 0
            else {
                cairo_surface_destroy(surface)
                return Decoded(image: nil, peakLibraryBytes: CGalleyPNG_peakLibraryBytes(decoder))
            }
            cairo_surface_mark_dirty(surface)
            return Decoded(image: CairoImage(surface: surface), peakLibraryBytes: CGalleyPNG_peakLibraryBytes(decoder))
        }
    }
}

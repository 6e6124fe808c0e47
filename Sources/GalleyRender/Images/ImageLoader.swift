// Images decoded for one drawing, each once.

import CCairo

/// Decodes the images rows name from their folder with cairo, once each for a drawing.
final class ImageLoader {
    let folder: ImageFolder
    private var images: [String: Result<CairoImage, ImageProblem>] = [:]

    init(folder: ImageFolder) { self.folder = folder }

    /// The image `source` names, decoded, or why it cannot be (see ``ImageFolder``).
    func image(for source: String) -> Result<CairoImage, ImageProblem> {
        if let known = images[source] { return known }
        let image = folder.pngBytes(for: source).flatMap { bytes in CairoImage(png: bytes).map(Result.success) ?? .failure(.undecodable) }
        images[source] = image
        return image
    }
}

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

    /// `png` decoded; nil when cairo cannot.
    convenience init?(png: [UInt8]) {
        let reader = PNGReader(bytes: png)
        let surface = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream(readPNG, Unmanaged.passUnretained(reader).toOpaque())!
        }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            return nil
        }
        self.init(surface: surface)
    }

    deinit { cairo_surface_destroy(surface) }
}

/// The bytes cairo's PNG reader asks for, in turn.
private final class PNGReader {
    let bytes: [UInt8]
    var offset = 0
    init(bytes: [UInt8]) { self.bytes = bytes }
}

private let readPNG: cairo_read_func_t = { closure, data, length in
    let reader = Unmanaged<PNGReader>.fromOpaque(closure!).takeUnretainedValue()
    let count = Int(length)
    guard let data, reader.offset + count <= reader.bytes.count else { return CAIRO_STATUS_READ_ERROR }
    reader.bytes.withUnsafeBufferPointer { bytes in data.update(from: bytes.baseAddress! + reader.offset, count: count) }
    reader.offset += count
    return CAIRO_STATUS_SUCCESS
}

// Images decoded for one drawing, each once.

import CCairo

/// Decodes the images rows name from their folder with cairo, once each for a drawing.
final class ImageLoader {
    let folder: ImageFolder
    private var images: [String: Result<CairoImage, ImageProblem>] = [:]
    /// The images asked for and not given, each row's once.
    private(set) var notDrawn: [ImageNotDrawn] = []
    private var reported = Set<[String]>()

    init(folder: ImageFolder) { self.folder = folder }

    /// The image `source` names for `itemID`'s row, decoded, or nil when it cannot be (see
    /// ``ImageFolder``), which is noted in ``notDrawn``.
    func image(for source: String, itemID: String) -> CairoImage? {
        let image =
            images[source] ?? folder.open(source).flatMap { $0.png() }.flatMap { CairoImage(png: $0.bytes).map(Result.success) ?? .failure(.undecodable) }
        images[source] = image
        switch image {
        case .success(let image): return image
        case .failure(let problem):
            // A row drawn at several widths is noted once.
            if reported.insert([itemID, source]).inserted { notDrawn.append(ImageNotDrawn(itemID: itemID, source: source, problem: problem)) }
            return nil
        }
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

// The images one drawing draws, each made once, and in SVG each embedded once.

import CCairo

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The images of one drawing: the files ``ImageLoader`` decodes and the colour glyphs
/// ``Canvas`` draws, each made once however many rows draw it. For SVG each carries a reference
/// that cairo's SVG surface writes in place of its pixels, and ``SVGRows`` embeds each once for
/// all rows (cairo would embed an image again in every row, each row being a drawing of its own).
final class DrawingImages {
    /// Whether images are tagged with references, for SVG.
    let tagsReferences: Bool
    /// Every image added, in order: a reference names its place here, from 1.
    private(set) var all: [CairoImage] = []
    /// Colour glyphs drawn so far (the image, and where it sits in strike pixels), by face,
    /// glyph and size.
    var colorGlyphs: [String: (image: CairoImage, left: Double, top: Double, pixelsPerEm: Double)?] = [:]

    /// What cairo writes in place of a tagged image's pixels, before its place.
    static let referencePrefix = "galley-image:"

    init(tagsReferences: Bool = false) { self.tagsReferences = tagsReferences }

    /// The reference the image at `place` (from 1) carries.
    static func reference(to place: Int) -> String { referencePrefix + String(place) }

    /// Adds `image`, tagging it when the drawing is SVG.
    func add(_ image: CairoImage) {
        all.append(image)
        guard tagsReferences else { return }
        // The URI cairo's SVG surface writes as the image's link instead of encoding it.
        let reference = strdup(Self.reference(to: all.count))!
        cairo_surface_set_mime_data(
            image.surface, CAIRO_MIME_TYPE_URI, UnsafeRawPointer(reference).assumingMemoryBound(to: UInt8.self), UInt(strlen(reference)),
            { free($0) }, reference)
    }
}

// The ordered faces tried for each grapheme cluster of a run of text.

/// Faces in the order fallback tries them.
final class FallbackChain: Sendable {
    struct Key: Hashable, Sendable {
        var descriptor: FontDescriptor
        var fallbacks: [FontDescriptor]
        /// The fallback family the text's language prefers (see ``FontCollection``), by index.
        var preferredFamily: Int?
    }

    /// The requested face first, then the caller's fallbacks, then the collection's order.
    let faces: [FontFace]

    /// Whether the requested face has every printable ASCII character (space included), so
    /// that font fallback can give them that face without looking each one up.
    let primaryCoversPrintableASCII: Bool

    /// The face truncation draws its ellipsis (U+2026) in: the first that has it.
    let ellipsisFace: FontFace

    var primary: FontFace { faces[0] }

    init(faces: [FontFace]) {
        self.faces = faces
        primaryCoversPrintableASCII = (0x20...0x7E).allSatisfy(faces[0].covers)
        ellipsisFace = faces.first { $0.covers(0x2026) } ?? faces[0]
    }
}

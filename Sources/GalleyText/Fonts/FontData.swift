// A font file's bytes as the engine holds them, for a renderer that loads the face itself.

internal import CHarfBuzz

/// The bytes of the font file a ``FontFace`` was loaded from (a collection's faces share them),
/// exactly as HarfBuzz shaped with them, kept alive while this object lives, even after the
/// face is gone.
///
/// A renderer that loads the face itself from these (FreeType's `FT_New_Memory_Face`, with
/// ``FontFace/faceIndex``) reads no file, and a glyph id names the glyph that was measured even
/// if the file has since been replaced. Fonts registered by path are mapped, not copied: writing
/// over such a file in place (rather than replacing it) changes them under every reader.
public final class FontData: @unchecked Sendable, Hashable {
    // `@unchecked Sendable`: the blob is immutable, and HarfBuzz counts its references atomically.
    private let blob: OpaquePointer

    /// The bytes, valid while this object lives.
    public let bytes: UnsafeRawBufferPointer

    /// Takes over a reference to `blob`.
    init(blob: OpaquePointer) {
        self.blob = blob
        var length: UInt32 = 0
        bytes = UnsafeRawBufferPointer(start: hb_blob_get_data(blob, &length), count: Int(length))
    }

    deinit { hb_blob_destroy(blob) }

    /// Whether both hold the same bytes in memory (one loading of one file).
    public static func == (lhs: FontData, rhs: FontData) -> Bool { lhs.bytes.baseAddress == rhs.bytes.baseAddress && lhs.bytes.count == rhs.bytes.count }
    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(bytes.baseAddress)
        hasher.combine(bytes.count)
    }
}

// One face of a font file, loaded once and shared by every measurement.

internal import CHarfBuzz
import Synchronization

/// A loaded font face: its names, style, metrics, and the HarfBuzz font that shapes with it.
///
/// Faces are created by a ``FontCollection`` and live as long as it does. A face is immutable
/// and may be used from any number of threads at once.
public final class FontFace: Sendable, Hashable, CustomStringConvertible {
    /// A number unique to this face in the process, used to key caches.
    public let uniqueID: Int
    /// The font file.
    public let path: String
    /// The face's index within its file (non-zero only in collections such as `.ttc`).
    public let faceIndex: Int
    /// The family name, as the font's name table gives it (for example "Noto Sans").
    public let familyName: String
    /// The style name (for example "Bold Italic").
    public let styleName: String
    /// The weight class, 100 (thin) to 900 (black); 400 is regular, 700 bold.
    public let weight: Int
    /// Whether the face is italic or oblique.
    public let isItalic: Bool
    /// Vertical metrics in font units.
    public let metrics: FontMetrics
    /// Whether the face draws colour glyphs (CBDT/sbix bitmaps, COLR layers or SVG).
    public let hasColorGlyphs: Bool

    /// The HarfBuzz font, at a scale of one unit per font unit (so shaping is size-independent).
    /// `@unchecked Sendable` justification: HarfBuzz fonts are made immutable after setup, and
    /// immutable fonts are safe to shape with from many threads at once.
    struct HarfBuzzFont: @unchecked Sendable { let pointer: OpaquePointer }
    let harfBuzz: HarfBuzzFont
    /// Which of U+0000–U+2FFF (Latin to CJK punctuation) the face's cmap has, one bit each, so
    /// that font fallback tests them without a cmap lookup.
    private let commonCoverage: [UInt64]
    private static let commonCoverageLimit: UInt32 = 0x3000

    private static let nextID = Atomic<Int>(1)

    /// What the face counts against the font memory of requests, if it was loaded for one.
    private let memory: FontMemory?
    private let heldBytes: Int

    /// Face `index` of `file`: described by FreeType, shaped by HarfBuzz. When `memory` is
    /// given (a face loaded for a request), the font's size in memory (a WOFF file's decoded
    /// size) is counted there (already reserved) while the face lives.
    ///
    /// - Throws: ``FontError`` when FreeType cannot read the face as an OpenType font.
    convenience init(file: FontFile, index: Int, memory: FontMemory? = nil) throws(FontError) {
        let description = try FreeTypeLibrary.shared.describeFace(bytes: file.bytes, path: file.path, index: index)
        self.init(path: file.path, faceIndex: index, blob: file.blob, description: description, memory: memory, heldBytes: file.loadedSize)
    }

    private init(
        path: String, faceIndex: Int, blob: OpaquePointer, description: FreeTypeLibrary.FaceDescription, memory: FontMemory?, heldBytes: Int
    ) {
        uniqueID = Self.nextID.wrappingAdd(1, ordering: .relaxed).oldValue
        self.memory = memory
        self.heldBytes = heldBytes
        self.path = path
        self.faceIndex = faceIndex
        familyName = description.familyName
        styleName = description.styleName
        weight = description.weight
        isItalic = description.isItalic
        metrics = description.metrics
        let face = hb_face_create(blob, UInt32(faceIndex))
        hasColorGlyphs =
            hb_ot_color_has_png(face) != 0 || hb_ot_color_has_layers(face) != 0
            || hb_ot_color_has_svg(face) != 0
        let font = hb_font_create(face)!
        hb_face_destroy(face)
        let upem = Int32(description.metrics.unitsPerEm)
        hb_font_set_scale(font, upem, upem)
        hb_font_make_immutable(font)
        harfBuzz = HarfBuzzFont(pointer: font)
        var coverage = [UInt64](repeating: 0, count: Int(Self.commonCoverageLimit) / 64)
        let unicodes = hb_set_create()
        hb_face_collect_unicodes(hb_font_get_face(font), unicodes)
        var codepoint = hb_codepoint_t.max  // HB_SET_VALUE_INVALID: start before the first
        while hb_set_next(unicodes, &codepoint) != 0 && codepoint < Self.commonCoverageLimit {
            coverage[Int(codepoint >> 6)] |= 1 << UInt64(codepoint & 63)
        }
        hb_set_destroy(unicodes)
        commonCoverage = coverage
    }

    deinit {
        hb_font_destroy(harfBuzz.pointer)
        memory?.release(heldBytes)
    }

    /// The bytes of the font file the face was loaded from, for a renderer that loads the face
    /// itself; see ``FontData``.
    public var data: FontData { FontData(blob: hb_face_reference_blob(hb_font_get_face(harfBuzz.pointer))) }

    /// The nominal glyph for `scalar` in this face's character map, or nil if it has none.
    public func glyph(for scalar: Unicode.Scalar) -> UInt32? {
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(harfBuzz.pointer, scalar.value, &glyph) != 0 ? glyph : nil
    }

    /// Whether the face's character map has `scalar`.
    @inline(__always)
    func covers(_ scalar: UInt32) -> Bool {
        if scalar < Self.commonCoverageLimit { return commonCoverage[Int(scalar >> 6)] & (1 << UInt64(scalar & 63)) != 0 }
        var glyph: hb_codepoint_t = 0
        return hb_font_get_nominal_glyph(harfBuzz.pointer, scalar, &glyph) != 0
    }

    /// The unhinted horizontal advance of `glyph`, in font units.
    public func advance(ofGlyph glyph: UInt32) -> Int {
        Int(hb_font_get_glyph_h_advance(harfBuzz.pointer, glyph))
    }

    /// How the value reads in messages.
    public var description: String { "\(familyName) \(styleName) (\(path)#\(faceIndex))" }

    /// Whether the two are equal.
    public static func == (lhs: FontFace, rhs: FontFace) -> Bool { lhs === rhs }
    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

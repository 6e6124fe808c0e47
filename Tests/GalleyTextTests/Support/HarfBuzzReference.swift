// Shapes whole strings with HarfBuzz directly, independently of Galley's segmenting and cache.

import CHarfBuzz
import Foundation
import GalleyTestSupport

/// One font file opened straight through HarfBuzz, to measure runs as a whole.
final class HarfBuzzReference: @unchecked Sendable {
    private let font: OpaquePointer
    let unitsPerEm: Double

    static let notoSans = HarfBuzzReference(path: PackagePaths.font("NotoSans-Regular.ttf"))

    init(path: String, index: Int = 0) {
        let blob = hb_blob_create_from_file(path)
        let face = hb_face_create(blob, UInt32(index))
        font = hb_font_create(face)
        unitsPerEm = Double(hb_face_get_upem(face))
        hb_font_set_scale(font, Int32(unitsPerEm), Int32(unitsPerEm))
        hb_face_destroy(face)
        hb_blob_destroy(blob)
    }

    deinit { hb_font_destroy(font) }

    /// Whether the font has every scalar of `text`.
    func covers(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { scalar in
            var glyph: hb_codepoint_t = 0
            return hb_font_get_nominal_glyph(font, scalar.value, &glyph) != 0
        }
    }

    /// A glyph as HarfBuzz shapes it, in font units.
    struct Glyph: Equatable {
        var id: UInt32
        var advance: Int32
        var xOffset: Int32
        var yOffset: Int32
    }

    /// The glyphs of `text` shaped as one left-to-right run in `script` (ISO 15924) and `language`.
    func glyphs(of text: String, script: String, language: String) -> [Glyph] {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        let utf16 = Array(text.utf16)
        hb_buffer_add_utf16(buffer, utf16, Int32(utf16.count), 0, Int32(utf16.count))
        hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
        hb_buffer_set_script(buffer, hb_script_from_string(script, -1))
        hb_buffer_set_language(buffer, hb_language_from_string(language, -1))
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)!
        let positions = hb_buffer_get_glyph_positions(buffer, &count)!
        return (0..<Int(count)).map { index in
            Glyph(
                id: infos[index].codepoint, advance: positions[index].x_advance, xOffset: positions[index].x_offset,
                yOffset: positions[index].y_offset)
        }
    }

    /// The advance of `text` shaped as one run, in points at `size`, in `language` when given.
    func width(of text: String, size: Double, language: String? = nil) -> Double {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        let utf16 = Array(text.utf16)
        hb_buffer_add_utf16(buffer, utf16, Int32(utf16.count), 0, Int32(utf16.count))
        if let language { hb_buffer_set_language(buffer, hb_language_from_string(language, -1)) }
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        let positions = hb_buffer_get_glyph_positions(buffer, &count)!
        var total = 0
        for index in 0..<Int(count) { total += Int(positions[index].x_advance) }
        return Double(total) * size / unitsPerEm
    }
}

// A language as HarfBuzz reads it, held by Galley rather than interned by HarfBuzz.

internal import CHarfBuzz

/// A canonical BCP 47 tag ("zh-hant-tw") in the form HarfBuzz reads, in memory of its own.
///
/// HarfBuzz makes an `hb_language_t` from a string by interning it in a process-wide list that
/// it never frees and searches from the start on every lookup: every distinct tag a request
/// brings would slow later lookups and stay in memory for good. An `hb_language_t` is the
/// address of a canonical string (lowercase ASCII letters, digits and hyphens), and what
/// HarfBuzz does with a segment's language is read that string (to pick OpenType language
/// systems) or compare addresses (shape plans: Galley keeps its own, see ``ShapePlans``). So
/// Galley hands HarfBuzz the address of a string it owns, kept as long as a shape plan made
/// with it lives.
final class HarfBuzzLanguage: @unchecked Sendable {
    // `@unchecked Sendable`: the string is written once, in `init`, and only read afterwards.

    /// The canonical tag.
    let tag: String
    private let storage: UnsafeMutablePointer<CChar>

    /// `tag` made canonical as HarfBuzz makes tags: ASCII letters lowercased, `_` as `-`; nil
    /// when it is empty or holds anything else, which HarfBuzz would have cut short.
    init?(_ tag: String) {
        var canonical: [CChar] = []
        for byte in tag.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): canonical.append(CChar(bitPattern: byte | 0x20))
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                canonical.append(CChar(bitPattern: byte))
            case UInt8(ascii: "_"): canonical.append(CChar(bitPattern: UInt8(ascii: "-")))
            default: return nil
            }
        }
        guard !canonical.isEmpty else { return nil }
        self.tag = String(decoding: canonical.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        canonical.append(0)
        storage = .allocate(capacity: canonical.count)
        storage.initialize(from: canonical, count: canonical.count)
    }

    deinit { storage.deallocate() }

    /// The language for HarfBuzz; valid while this object lives.
    var pointer: hb_language_t { hb_language_t(storage) }

    /// Which language systems of `face`'s GSUB and GPOS tables text in `script` and this
    /// language gets, as HarfBuzz's map builder picks them; ``LanguageSystems/defaultSystems``
    /// when they are the ones text with no language gets (see ``LanguageSystems``).
    func systems(in face: FontFace, script: hb_script_t) -> LanguageSystems {
        let systems = LanguageSystems(face: face, script: script, language: pointer)
        return systems == LanguageSystems(face: face, script: script, language: nil) ? .defaultSystems : systems
    }
}

/// The language systems (OpenType `LangSys` records) a face's GSUB and GPOS tables give text
/// in one script and language, as indices.
///
/// A segment's language changes HarfBuzz's output only through these choices (for faces
/// without AAT `morx` tables, whose language-tag features Galley does not use), so text in two
/// languages that get the same systems shapes alike, and shares shape plans and cached words.
struct LanguageSystems: Hashable, Sendable {
    /// The GSUB language system's index (`HB_OT_LAYOUT_DEFAULT_LANGUAGE_INDEX` for the
    /// script's default one).
    var substitution: UInt32
    /// The GPOS language system's index.
    var positioning: UInt32

    /// Stands for whatever text with no language gets: such text is shaped with no language.
    static let defaultSystems = LanguageSystems(substitution: HB_OT_LAYOUT_DEFAULT_LANGUAGE_INDEX, positioning: HB_OT_LAYOUT_DEFAULT_LANGUAGE_INDEX)

    init(substitution: UInt32, positioning: UInt32) {
        self.substitution = substitution
        self.positioning = positioning
    }

    /// The systems `face` gives `script` in `language`, chosen as `hb_ot_map_builder_t` does:
    /// the language's OpenType tags, then the first the face's table has for the script.
    init(face: FontFace, script: hb_script_t, language: hb_language_t?) {
        let hbFace = hb_font_get_face(face.harfBuzz.pointer)
        guard hb_aat_layout_has_substitution(hbFace) == 0 else {
            self = .defaultSystems
            return
        }
        var scriptTags = [hb_tag_t](repeating: 0, count: Int(HB_OT_MAX_TAGS_PER_SCRIPT))
        var languageTags = [hb_tag_t](repeating: 0, count: Int(HB_OT_MAX_TAGS_PER_LANGUAGE))
        var scriptCount = UInt32(scriptTags.count)
        var languageCount = UInt32(languageTags.count)
        hb_ot_tags_from_script_and_language(script, language, &scriptCount, &scriptTags, &languageCount, &languageTags)
        func pick(_ table: hb_tag_t) -> UInt32 {
            var scriptIndex: UInt32 = 0
            var chosenScript: hb_tag_t = 0
            var languageIndex: UInt32 = 0
            _ = hb_ot_layout_table_select_script(hbFace, table, scriptCount, &scriptTags, &scriptIndex, &chosenScript)
            _ = hb_ot_layout_script_select_language(hbFace, table, scriptIndex, languageCount, &languageTags, &languageIndex)
            return languageIndex
        }
        self.init(substitution: pick(Self.gsub), positioning: pick(Self.gpos))
    }

    /// Both indices in one number, for keys.
    var packed: Int { Int(substitution) << 32 | Int(positioning) }

    private static let gsub: hb_tag_t = 0x4753_5542  // 'GSUB'
    private static let gpos: hb_tag_t = 0x4750_4F53  // 'GPOS'
}

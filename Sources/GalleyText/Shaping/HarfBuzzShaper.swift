// Shapes segments with HarfBuzz, reusing buffers, and interns feature sets and languages.

internal import CHarfBuzz
import GalleyLocks

/// Turns a segment of text in one face, script and direction into glyphs, with HarfBuzz.
///
/// HarfBuzz buffers are pooled, so shaping allocates no buffer per call. Feature sets and
/// languages are interned to small integers so cache keys stay cheap to hash.
final class HarfBuzzShaper: Sendable {
    /// An `hb_buffer_t`. `@unchecked Sendable`: it moves between threads only through the
    /// pool's lock and is used by one caller at a time.
    private struct Buffer: @unchecked Sendable { let pointer: OpaquePointer }
    private let idleBuffers = Locked<[Buffer]>([])

    /// Interned feature settings: id -> HarfBuzz features.
    private struct FeatureTable: @unchecked Sendable {
        var ids: [[FontFeature]: Int] = [:]
        var features: [[hb_feature_t]] = []
    }
    private let featureTable = Locked(FeatureTable(ids: [[]: 0], features: [[]]))

    /// Interned languages: id -> `hb_language_t` (HarfBuzz interns them for the process' life).
    /// 0 is none ("").
    private struct LanguageTable: @unchecked Sendable {
        var ids: [String: Int] = ["": 0]
        var languages: [hb_language_t?] = [nil]
    }
    private let languageTable = Locked(LanguageTable())

    deinit {
        idleBuffers.withLock { $0.forEach { hb_buffer_destroy($0.pointer) } }
    }

    /// A small integer standing for `features`; 0 is the empty set (HarfBuzz's defaults).
    func featureSetID(_ features: [FontFeature]) -> Int {
        if features.isEmpty { return 0 }
        return featureTable.withLock { table in
            if let id = table.ids[features] { return id }
            let id = table.features.count
            table.ids[features] = id
            table.features.append(features.map { feature in
                hb_feature_t(tag: feature.packedTag, value: feature.value, start: 0, end: UInt32.max)
            })
            return id
        }
    }

    /// A small integer standing for `language` (a BCP 47 tag; "" for none).
    func languageID(_ language: String) -> Int {
        // No language, most text: without hashing the empty string under the lock.
        if language.isEmpty { return 0 }
        return languageTable.withLock { table in
            if let id = table.ids[language] { return id }
            let id = table.languages.count
            table.ids[language] = id
            table.languages.append(language.isEmpty ? nil : hb_language_from_string(language, -1))
            return id
        }
    }

    /// Shapes `text` as described by `key` (whose text is ignored in favour of `text`).
    func shape(_ text: UnsafeBufferPointer<UInt16>, face: FontFace, key: ShapeKey) -> ShapedSegment {
        let buffer = idleBuffers.withLock { $0.popLast() } ?? Buffer(pointer: hb_buffer_create())
        defer { idleBuffers.withLock { $0.append(buffer) } }
        let pointer = buffer.pointer
        hb_buffer_clear_contents(pointer)
        hb_buffer_add_utf16(pointer, text.baseAddress, Int32(text.count), 0, Int32(text.count))
        hb_buffer_set_direction(pointer, key.isRightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_script(pointer, hb_script_t(rawValue: key.script))
        if let language = languageTable.withLock({ $0.languages[key.languageID] }) {
            hb_buffer_set_language(pointer, language)
        }
        let features = featureTable.withLock { $0.features[key.featureSetID] }
        features.withUnsafeBufferPointer { features in
            hb_shape(face.harfBuzz.pointer, pointer, features.baseAddress, UInt32(features.count))
        }
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(pointer, &count)!
        let positions = hb_buffer_get_glyph_positions(pointer, &count)!
        let glyphs = (0..<Int(count)).map { index in
            ShapedGlyph(
                id: infos[index].codepoint, advance: positions[index].x_advance, xOffset: positions[index].x_offset,
                yOffset: positions[index].y_offset, cluster: infos[index].cluster,
                isUnsafeToBreak: hb_glyph_info_get_glyph_flags(infos + index).rawValue & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0)
        }
        return ShapedSegment(glyphs: glyphs, length: text.count)
    }
}

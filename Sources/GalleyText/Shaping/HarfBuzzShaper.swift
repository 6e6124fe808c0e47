// Shapes segments with HarfBuzz, reusing buffers; interns feature sets; picks each face's
// language systems; shapes long runs of combining marks a piece at a time.

internal import CGalleyShims
internal import CHarfBuzz
import GalleyLocks

/// Turns a segment of text in one face, script and direction into glyphs, with HarfBuzz.
///
/// HarfBuzz buffers are pooled, so shaping allocates no buffer per call. Feature sets are
/// interned to small integers so cache keys stay cheap to hash.
///
/// Everything a request's values can add to is bounded: a language reaches HarfBuzz only where
/// a face's OpenType tables have a language system for it, and then as one of a few tags the
/// face's own language systems name (see ``language(for:in:script:)``), so HarfBuzz's interned
/// languages and per-face shape plans grow with the fonts, not with the tags requests bring.
final class HarfBuzzShaper: Sendable {
    /// An `hb_buffer_t`. `@unchecked Sendable`: it moves between threads only through the
    /// pool's lock and is used by one caller at a time.
    private struct Buffer: @unchecked Sendable { let pointer: OpaquePointer }
    private let idleBuffers = Locked<[Buffer]>([])

    /// Interned feature settings: id -> HarfBuzz features. Append-only (ids are in cache keys),
    /// and so capped: see ``maximumFeatureSets``.
    private struct FeatureTable: @unchecked Sendable {
        var ids: [[FontFeature]: Int] = [:]
        var features: [[hb_feature_t]] = []
    }
    private let featureTable = Locked(FeatureTable(ids: [[]: 0], features: [[]]))

    /// The most distinct non-empty feature settings one engine shapes with: each costs HarfBuzz
    /// a shape plan per face and script, kept as long as the face.
    static let maximumFeatureSets = 4096

    /// A face's language systems for a script and language: what ``languageSystems(for:in:script:)`` found.
    private struct SystemsKey: Hashable {
        var faceID: Int
        var script: UInt32
        var tag: String
    }
    private let systems = Locked(RecentlyUsed<SystemsKey, LanguageSystems>(capacity: 1024))

    /// The language HarfBuzz shapes with for a face, script and language systems: see ``language(for:in:script:)``.
    private struct RepresentativeKey: Hashable {
        var faceID: Int
        var script: UInt32
        var systems: LanguageSystems
    }
    /// `@unchecked Sendable`: an interned `hb_language_t` is immutable and lives as long as the process.
    private struct InternedLanguage: @unchecked Sendable { let pointer: hb_language_t? }
    private let representatives = Locked(RecentlyUsed<RepresentativeKey, InternedLanguage>(capacity: 1024))

    /// The most combining marks (and format characters among them) in a row shaped in one
    /// HarfBuzz call, as Unicode's Stream-Safe Text Format bounds marks (UAX #15): HarfBuzz 6.0
    /// looks back over every earlier mark, and every invisible format character, to find each
    /// mark's base (CVE-2023-25193), so one letter with a million marks would never end.
    static let maximumMarksPerShaping = 30
    /// The longest piece of text shaped in one HarfBuzz call, in UTF-16 units: a longer run
    /// with no break in it (a font may count any glyph as a mark) is cut before a base
    /// character once this long. Kerning and ligatures across such a cut are lost; HarfBuzz is
    /// given the text around each piece, so that joining scripts still join there.
    static let longestShaping = 1024

    deinit {
        idleBuffers.withLock { buffers in for buffer in buffers { hb_buffer_destroy(buffer.pointer) } }
    }

    /// A small integer standing for `features`; 0 is the empty set (HarfBuzz's defaults). Nil
    /// once ``maximumFeatureSets`` distinct sets are interned and `features` is not one of them.
    func featureSetID(_ features: [FontFeature]) -> Int? {
        if features.isEmpty { return 0 }
        return featureTable.withLock { table in
            if let id = table.ids[features] { return id }
            // The empty set, id 0, is not one of them.
            guard table.features.count <= Self.maximumFeatureSets else { return nil }
            let id = table.features.count
            table.ids[features] = id
            table.features.append(
                features.map { feature in
                    hb_feature_t(tag: feature.packedTag, value: feature.value, start: 0, end: UInt32.max)
                })
            return id
        }
    }

    /// The language systems `face`'s tables give text in `script` and `language` (the default
    /// ones for no language), found once for each face, script and tag.
    func languageSystems(for language: HarfBuzzLanguage?, in face: FontFace, script: UInt32) -> LanguageSystems {
        guard let language else { return .defaultSystems }
        let key = SystemsKey(faceID: face.uniqueID, script: script, tag: language.tag)
        if let found = systems.withLock({ $0.value(for: key) }) { return found }
        let found = language.systems(in: face, script: hb_script_t(rawValue: script))
        systems.withLock { $0.insert(found, for: key) }
        return found
    }

    /// The language HarfBuzz shapes text in `script` and `language` with in `face`: none when
    /// the face gives the language its default systems; else a tag HarfBuzz interns that
    /// gets the same systems, named by one of them (`hb_ot_tag_to_language`), so that however
    /// many distinct tags requests bring, HarfBuzz sees only as many as the face has systems.
    func language(for language: HarfBuzzLanguage?, in face: FontFace, script: UInt32) -> hb_language_t? {
        let wanted = languageSystems(for: language, in: face, script: script)
        if wanted == .defaultSystems { return nil }
        let key = RepresentativeKey(faceID: face.uniqueID, script: script, systems: wanted)
        if let found = representatives.withLock({ $0.value(for: key) }) { return found.pointer }
        let found = Self.representative(of: wanted, in: face, script: hb_script_t(rawValue: script))
        representatives.withLock { $0.insert(InternedLanguage(pointer: found), for: key) }
        return found
    }

    /// The language named by the GSUB or the GPOS system of `systems` that gets both again (the
    /// GSUB one's when neither does: a face whose tables pick different systems for one
    /// language, each missing the other's, which no font made for use has).
    private static func representative(of systems: LanguageSystems, in face: FontFace, script: hb_script_t) -> hb_language_t? {
        let hbFace = hb_font_get_face(face.harfBuzz.pointer)
        var candidates: [hb_language_t] = []
        for (table, index) in [(hb_tag_t(0x4753_5542), systems.substitution), (hb_tag_t(0x4750_4F53), systems.positioning)]
        where index != HB_OT_LAYOUT_DEFAULT_LANGUAGE_INDEX {
            var scriptTags = [hb_tag_t](repeating: 0, count: Int(HB_OT_MAX_TAGS_PER_SCRIPT))
            var scriptCount = UInt32(scriptTags.count)
            var languageCount: UInt32 = 0
            hb_ot_tags_from_script_and_language(script, nil, &scriptCount, &scriptTags, &languageCount, nil)
            var scriptIndex: UInt32 = 0
            var chosen: hb_tag_t = 0
            _ = hb_ot_layout_table_select_script(hbFace, table, scriptCount, &scriptTags, &scriptIndex, &chosen)
            var tag: hb_tag_t = 0
            var count: UInt32 = 1
            _ = hb_ot_layout_script_get_language_tags(hbFace, table, scriptIndex, index, &count, &tag)
            if count == 1, let language = hb_ot_tag_to_language(tag) { candidates.append(language) }
        }
        return candidates.first { LanguageSystems(face: face, script: script, language: $0) == systems } ?? candidates.first
    }

    /// Shapes `text` as described by `key` (whose text is ignored in favour of `text`), in
    /// `language` (the paragraph's; ``language(for:in:script:)`` says what HarfBuzz gets).
    func shape(_ text: UnsafeBufferPointer<UInt16>, face: FontFace, key: ShapeKey, language: HarfBuzzLanguage?) -> ShapedSegment {
        let buffer = idleBuffers.withLock { $0.popLast() } ?? Buffer(pointer: hb_buffer_create())
        defer { idleBuffers.withLock { $0.append(buffer) } }
        let hbLanguage =
            key.languageSystems == LanguageSystems.defaultSystems.packed
            ? nil : self.language(for: language, in: face, script: key.script)
        // The empty set, most text's, without the table's lock.
        let features = key.featureSetID == 0 ? [] : featureTable.withLock { $0.features[key.featureSetID] }
        let pieces = Self.pieces(of: text)
        var shaped: [[ShapedGlyph]] = []
        shaped.reserveCapacity(pieces.count)
        for piece in pieces {
            let pointer = buffer.pointer
            hb_buffer_clear_contents(pointer)
            hb_buffer_add_utf16(pointer, text.baseAddress, Int32(text.count), UInt32(piece.range.lowerBound), Int32(piece.range.count))
            hb_buffer_set_direction(pointer, key.isRightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
            hb_buffer_set_script(pointer, hb_script_t(rawValue: key.script))
            if let hbLanguage { hb_buffer_set_language(pointer, hbLanguage) }
            // Set for every piece (clearing a buffer keeps its flags): one that starts inside a
            // cluster starts with marks, whose base needs no dotted circle.
            hb_buffer_set_flags(pointer, piece.continuesCluster ? HB_BUFFER_FLAG_DO_NOT_INSERT_DOTTED_CIRCLE : HB_BUFFER_FLAG_DEFAULT)
            features.withUnsafeBufferPointer { features in
                hb_shape(face.harfBuzz.pointer, pointer, features.baseAddress, UInt32(features.count))
            }
            shaped.append(Self.glyphs(of: pointer))
        }
        guard shaped.count > 1 else { return ShapedSegment(glyphs: shaped.first ?? [], length: text.count) }
        Self.mergeClusters(of: &shaped, pieces: pieces)
        // Right to left, each piece came out reversed: the pieces go in reverse order too.
        return ShapedSegment(glyphs: (key.isRightToLeft ? shaped.reversed() : shaped).flatMap { $0 }, length: text.count)
    }

    /// The glyphs HarfBuzz left in `buffer` (none when shaping failed, which only running out
    /// of memory does).
    private static func glyphs(of buffer: OpaquePointer) -> [ShapedGlyph] {
        var count: UInt32 = 0
        guard hb_buffer_get_content_type(buffer) == HB_BUFFER_CONTENT_TYPE_GLYPHS,
            let infos = hb_buffer_get_glyph_infos(buffer, &count), let positions = hb_buffer_get_glyph_positions(buffer, &count)
        else { return [] }
        return (0..<Int(count)).map { index in
            ShapedGlyph(
                id: infos[index].codepoint, advance: positions[index].x_advance, xOffset: positions[index].x_offset,
                yOffset: positions[index].y_offset, cluster: infos[index].cluster,
                isUnsafeToBreak: hb_glyph_info_get_glyph_flags(infos + index).rawValue & HB_GLYPH_FLAG_UNSAFE_TO_BREAK.rawValue != 0)
        }
    }

    /// Gives the leading marks of each piece that continues a cluster the cluster of the text
    /// before them (their base's), as one shaping would have merged them into it. Such a piece
    /// starts at a mark, and HarfBuzz gives its leading marks the piece's start; its first
    /// cluster past that is the next base's.
    private static func mergeClusters(of shaped: inout [[ShapedGlyph]], pieces: [Piece]) {
        for index in 1..<shaped.count where pieces[index].continuesCluster {
            let start = UInt32(pieces[index].range.lowerBound)
            let base = shaped[index - 1].lazy.map(\.cluster).filter { $0 < start }.max() ?? start
            let nextBase = shaped[index].lazy.map(\.cluster).filter { $0 > start }.min() ?? UInt32.max
            for glyph in shaped[index].indices where shaped[index][glyph].cluster < nextBase {
                shaped[index][glyph].cluster = base
            }
        }
    }

    /// How many entries the language tables hold, for the tests of their bounds.
    var languageTableCounts: (systems: Int, representatives: Int) {
        (systems.withLock { $0.count }, representatives.withLock { $0.count })
    }

    /// `text` in the pieces it is shaped in: the whole of it, or, where more than
    /// ``maximumMarksPerShaping`` combining marks and format characters follow one another,
    /// pieces that each hold at most that many of them (the first with their base), and no
    /// piece much longer than ``longestShaping``.
    static func pieces(of text: UnsafeBufferPointer<UInt16>) -> [Piece] {
        // Marks are all at U+0300 or above, and format characters other than the soft hyphen
        // (U+00AD, a break opportunity, which a segment ends at): most text is decided by one scan.
        guard text.count > longestShaping || text.contains(where: { $0 >= 0x300 }) else { return [Piece(range: 0..<text.count)] }
        var pieces: [Piece] = []
        var continues = false
        var start = 0
        var marks = 0
        var index = 0
        while index < text.count {
            var scalar = UInt32(text[index])
            var width = 1
            if UTF16.isLeadSurrogate(text[index]), index + 1 < text.count, UTF16.isTrailSurrogate(text[index + 1]) {
                scalar = 0x10000 + (scalar - 0xD800) << 10 + (UInt32(text[index + 1]) - 0xDC00)
                width = 2
            }
            if scalar >= 0xAD && CGalley_isMarkOrFormat(scalar) != 0 {
                marks += 1
                if marks > maximumMarksPerShaping {
                    pieces.append(Piece(range: start..<index, continuesCluster: continues))
                    (start, marks, continues) = (index, 1, true)
                }
            } else {
                marks = 0
                if index - start >= longestShaping {
                    pieces.append(Piece(range: start..<index, continuesCluster: continues))
                    (start, continues) = (index, false)
                }
            }
            index += width
        }
        pieces.append(Piece(range: start..<text.count, continuesCluster: continues))
        return pieces
    }

    /// A piece of a segment shaped in one HarfBuzz call.
    struct Piece: Equatable {
        var range: Range<Int>
        /// Whether it starts inside a cluster (after the thirtieth mark of a run), rather than at
        /// the segment's start or before a base character.
        var continuesCluster = false
    }
}

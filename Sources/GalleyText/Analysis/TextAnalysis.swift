// Font-independent analysis of a paragraph: graphemes, break opportunities, bidi, scripts.

internal import CGalleyShims
internal import CHarfBuzz

/// What ICU and HarfBuzz's Unicode data say about each UTF-16 unit of a paragraph.
struct TextAnalysis {
    /// Per UTF-16 offset (count + 1 entries): ``Boundary`` flags for the position before it.
    var boundaries: [Boundary]
    /// Bidi embedding level of each UTF-16 unit; empty when the whole text is left-to-right.
    var levels: [UInt8]
    /// Starts of bidi paragraphs and their resolved base levels, in order.
    var paragraphLevels: [(start: Int, level: UInt8)]
    /// The resolved script of each UTF-16 unit (Common and Inherited take their neighbours').
    var scripts: [UInt32]
    /// Whether every unit starts a grapheme cluster of its own (no marks, joiners, surrogates,
    /// CR LF...): the text's graphemes are its units.
    var unitsAreGraphemes: Bool

    struct Boundary: OptionSet {
        let rawValue: UInt8
        /// A grapheme cluster starts here.
        static let grapheme = Boundary(rawValue: 1)
        /// A line may break here.
        static let lineBreak = Boundary(rawValue: 2)
        /// A line must break here (after LF, CR, CRLF, NEL, VT, FF, U+2028, U+2029).
        static let mandatoryBreak = Boundary(rawValue: 4)
    }

    /// The paragraph levels of text left to right throughout: one paragraph at level 0. (One
    /// array for all such text: a new one would be an allocation for every new paragraph.)
    static let leftToRight: [(start: Int, level: UInt8)] = [(0, 0)]

    /// The level of the paragraph holding `index`, of paragraphs starting and resolved as
    /// `paragraphLevels` says.
    static func baseLevel(at index: Int, in paragraphLevels: [(start: Int, level: UInt8)]) -> UInt8 {
        var level = paragraphLevels.first?.level ?? 0
        for paragraph in paragraphLevels {
            if paragraph.start > index { break }
            level = paragraph.level
        }
        return level
    }

    @inline(__always)
    func level(at index: Int) -> UInt8 { levels.isEmpty ? 0 : levels[index] }

    // MARK: - Analysis

    /// What ICU and HarfBuzz's data say about `text`. `knownLeftToRight`: the caller has found
    /// ``isLeftToRightThroughout(_:direction:)`` true for it (or for a text it starts), so it is
    /// not scanned for that again.
    static func analyze(
        _ text: UnsafeBufferPointer<UInt16>, locale: String, lineBreakMode: LineBreakMode,
        direction: WritingDirection, knownLeftToRight: Bool = false, iterators: BreakIteratorPool
    ) throws(TextError) -> TextAnalysis {
        // Most text starts a cluster at every unit (see `isAlwaysClusterStart`): start from that.
        let simpleClusters = text.allSatisfyPastASCII(Self.isAlwaysClusterStart)
        var boundaries = [Boundary](filling: simpleClusters ? .grapheme : [], count: text.count + 1)
        let unitsAreGraphemes = try markGraphemes(text, simpleClusters: simpleClusters, into: &boundaries, iterators: iterators)
        try markLineBreaks(text, locale: locale, charWrap: lineBreakMode == .charWrap, into: &boundaries, iterators: iterators)
        let (levels, paragraphLevels) = try resolveBidi(text, direction: direction, knownLeftToRight: knownLeftToRight)
        return TextAnalysis(
            boundaries: boundaries, levels: levels, paragraphLevels: paragraphLevels,
            scripts: resolveScripts(text), unitsAreGraphemes: unitsAreGraphemes)
    }

    /// Marks where grapheme clusters start, and says whether every unit starts one.
    /// `simpleClusters` says every unit is one that always starts a cluster, and that
    /// `boundaries` already marks every position.
    private static func markGraphemes(
        _ text: UnsafeBufferPointer<UInt16>, simpleClusters: Bool, into boundaries: inout [Boundary],
        iterators: BreakIteratorPool
    ) throws(TextError) -> Bool {
        guard !text.isEmpty else { return true }
        if simpleClusters {
            // Text without combining marks, joiners, selectors, jamo or complex scripts: every
            // position but LF after CR starts a cluster.
            var unitsAreGraphemes = true
            var index = 0
            while index < text.count, let offset = text[index...].firstIndex(of: 0x0D) {
                if offset + 1 < text.count && text[offset + 1] == 0x0A {
                    boundaries[offset + 1] = []
                    unitsAreGraphemes = false
                }
                index = offset + 1
            }
            return unitsAreGraphemes
        }
        boundaries[0].insert(.grapheme)
        try iterators.withIterator(.character, locale: "") { iterator throws(TextError) in
            iterator.setText(text)
            while let boundary = iterator.next() { boundaries[boundary].insert(.grapheme) }
        }
        return boundaries.allSatisfy { $0.contains(.grapheme) }
    }

    /// Units that always start a grapheme cluster of their own: Latin below the combining marks,
    /// Greek, Cyrillic and Armenian letters, precomposed Latin (Vietnamese) and Greek (polytonic)
    /// letters, dashes, quotes and other punctuation (not the joiners, marks and format
    /// characters around them), currency, letterlike symbols and arrows, CJK ideographs, kana
    /// (not the voicing marks), Hangul syllables, fullwidth forms.
    @inline(__always)
    static func isAlwaysClusterStart(_ unit: UInt16) -> Bool {
        switch unit {
        case 0..<0x300, 0x370..<0x483, 0x48A..<0x591, 0x1E00..<0x2000, 0x2010..<0x2028, 0x2030..<0x205F, 0x20A0..<0x20C1,
            0x2100..<0x2200, 0x3000..<0x3099, 0x309B..<0x3100,
            0x3400..<0x4DC0, 0x4E00..<0xA000, 0xAC00..<0xD7A4, 0xFF01..<0xFF9E:
            true
        default: false
        }
    }

    private static func markLineBreaks(
        _ text: UnsafeBufferPointer<UInt16>, locale: String, charWrap: Bool,
        into boundaries: inout [Boundary], iterators: BreakIteratorPool
    ) throws(TextError) {
        guard !text.isEmpty else { return }
        let marked =
            SimpleLineBreaks.applies(toLocale: locale)
            && boundaries.withUnsafeMutableBufferPointer { SimpleLineBreaks.mark(text, into: $0) }
        if !marked {
            try iterators.withIterator(.line, locale: locale) { iterator throws(TextError) in
                iterator.setText(text)
                while let boundary = iterator.next() {
                    boundaries[boundary].insert(iterator.isMandatoryBreak ? [.lineBreak, .mandatoryBreak] : .lineBreak)
                }
            }
        }
        if charWrap {
            for index in 1..<text.count where boundaries[index].contains(.grapheme) {
                boundaries[index].insert(.lineBreak)
            }
        }
    }

    // MARK: - Bidi

    private static func resolveBidi(
        _ text: UnsafeBufferPointer<UInt16>, direction: WritingDirection, knownLeftToRight: Bool
    ) throws(TextError) -> ([UInt8], [(start: Int, level: UInt8)]) {
        if knownLeftToRight || isLeftToRightThroughout(text, direction: direction) { return ([], leftToRight) }
        guard let bidi = CGalley_bidiOpen(Int32(text.count)) else { throw .icu("cannot open a bidi object") }
        defer { CGalley_bidiClose(bidi) }
        let requested: UInt8 =
            switch direction {
            case .auto: 0xFE  // UBIDI_DEFAULT_LTR
            case .leftToRight: 0
            case .rightToLeft: 1
            }
        guard CGalley_bidiSetParagraph(bidi, text.baseAddress, Int32(text.count), requested) == 0 else {
            throw .icu("the bidi algorithm failed")
        }
        var levels = [UInt8](filling: 0, count: text.count)
        if !text.isEmpty { _ = CGalley_bidiCopyLevels(bidi, &levels, Int32(text.count)) }
        var paragraphs: [(start: Int, level: UInt8)] = []
        var start = 0
        while start < text.count {
            paragraphs.append((start, CGalley_bidiParagraphLevelAt(bidi, Int32(start))))
            var end = start
            while end < text.count && !isParagraphSeparator(text, at: end) { end += 1 }
            start = end + 1
        }
        if paragraphs.isEmpty { paragraphs.append((0, direction == .rightToLeft ? 1 : 0)) }
        return (levels, paragraphs)
    }

    /// Whether every bidi level of `text` is 0, without running the bidi algorithm: no unit can
    /// make text right-to-left and the direction does not force it. Such text, and every part of
    /// it, is analysed with all levels 0.
    static func isLeftToRightThroughout(_ text: UnsafeBufferPointer<UInt16>, direction: WritingDirection) -> Bool {
        direction != .rightToLeft && text.allSatisfy(pastUnitsBelow: 0x0590) { !isPossiblyRightToLeft($0) }
    }

    /// Units that can make text right-to-left: Hebrew to NKo and other RTL blocks, their
    /// presentation forms, RTL marks and embeddings, and surrogates of supplementary RTL blocks.
    static func isPossiblyRightToLeft(_ unit: UInt16) -> Bool {
        switch unit {
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x200F, 0x202B, 0x202E, 0x2067,
            0xD802, 0xD803, 0xD83A, 0xD83B:
            true
        default: false
        }
    }

    /// Whether the unit at `index` ends a bidi paragraph (Bidi_Class B; CR only when not before LF).
    private static func isParagraphSeparator(_ text: UnsafeBufferPointer<UInt16>, at index: Int) -> Bool {
        switch text[index] {
        case 0x0A, 0x1C, 0x1D, 0x1E, 0x85, 0x2029: true
        case 0x0D: index + 1 >= text.count || text[index + 1] != 0x0A
        default: false
        }
    }

    // MARK: - Scripts

    private static func resolveScripts(_ text: UnsafeBufferPointer<UInt16>) -> [UInt32] {
        let unicode = hb_unicode_funcs_get_default()
        var scripts = [UInt32](filling: 0, count: text.count)
        // Through raw buffers: this runs over every unit of every new paragraph.
        scripts.withUnsafeMutableBufferPointer { scripts in
            commonScripts.units.withUnsafeBufferPointer { units in
                commonScripts.scripts.withUnsafeBufferPointer { table in
                    resolveScripts(text, unicode: unicode, units: units, table: table, into: scripts)
                }
            }
        }
        return scripts
    }

    /// The script of every unit from U+0080 to U+206F (the alphabets of Europe, the Middle
    /// East and India, and general punctuation), read from HarfBuzz once: a call per unit would
    /// be most of the cost of text in Greek or Cyrillic. Per unit an index into `scripts`.
    static let commonScripts: (units: [UInt8], scripts: [UInt32]) = {
        let unicode = hb_unicode_funcs_get_default()
        var scripts: [UInt32] = []
        var units: [UInt8] = []
        for unit in UInt32(0)..<commonScriptLimit {
            let script = hb_unicode_script(unicode, unit).rawValue
            if let known = scripts.firstIndex(of: script) {
                units.append(UInt8(known))
            } else {
                units.append(UInt8(scripts.count))
                scripts.append(script)
            }
        }
        return (units, scripts)
    }()

    static let commonScriptLimit: UInt32 = 0x2070

    private static func resolveScripts(
        _ text: UnsafeBufferPointer<UInt16>, unicode: OpaquePointer?, units: UnsafeBufferPointer<UInt8>,
        table: UnsafeBufferPointer<UInt32>, into scripts: UnsafeMutableBufferPointer<UInt32>
    ) {
        let latin = HB_SCRIPT_LATIN.rawValue
        let common = HB_SCRIPT_COMMON.rawValue
        let inherited = HB_SCRIPT_INHERITED.rawValue
        let unknown = HB_SCRIPT_UNKNOWN.rawValue
        // Neutral units (Common, Inherited, Unknown) take the script before them; those before
        // the first real script take that one, and all take Common when there is none.
        var current: UInt32 = 0
        let count = text.count
        var index = 0
        while index < count {
            let unit = text[index]
            let script: UInt32
            var length = 1
            if unit < 0x80 {
                // ASCII letters are Latin and the rest of ASCII is Common, without asking HarfBuzz.
                script = (unit | 0x20) &- 0x61 < 26 ? latin : common
            } else if UInt32(unit) < commonScriptLimit {
                script = table[Int(units[Int(unit)])]
            } else {
                let decoded = decodeScalar(text, at: index)
                length = decoded.1
                script = hb_unicode_script(unicode, decoded.0).rawValue
            }
            if script != common && script != inherited && script != unknown {
                if current == 0 {
                    for earlier in 0..<index { scripts[earlier] = script }
                }
                current = script
            }
            scripts[index] = current
            if length == 2 { scripts[index + 1] = current }
            index += length
            // In Latin text every ASCII unit is Latin (letters) or takes it (the rest): most
            // units, in a loop of their own.
            if current == latin {
                while index < count && text[index] < 0x80 {
                    scripts[index] = latin
                    index += 1
                }
            }
        }
        if current == 0 {
            for index in scripts.indices { scripts[index] = common }
        }
    }
}

/// The scalar starting at `index` and its length in UTF-16 units (a lone surrogate reads as U+FFFD).
@inline(__always)
func decodeScalar(_ text: UnsafeBufferPointer<UInt16>, at index: Int) -> (UInt32, Int) {
    let unit = text[index]
    if unit & 0xFC00 == 0xD800, index + 1 < text.count, text[index + 1] & 0xFC00 == 0xDC00 {
        return (0x10000 + (UInt32(unit & 0x3FF) << 10) + UInt32(text[index + 1] & 0x3FF), 2)
    }
    if unit & 0xF800 == 0xD800 { return (0xFFFD, 1) }
    return (UInt32(unit), 1)
}

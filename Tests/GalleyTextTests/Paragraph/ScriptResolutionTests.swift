// Each unit's script, as itemization splits runs by it.

import CHarfBuzz
import Testing

@testable import GalleyText

@Suite("Script resolution")
struct ScriptResolutionTests {
    static let texts = [
        "", "123 ...", "Hello, world", "  Ελληνικά και English", "«Привет», мир!", "😀 smile 😀", "a\u{301}b c\u{308}",
        "𝐀𝐁 x", "שלום, world", "日本語のテキスト。", "1. ok", "abcΔεζf", "\u{301}\u{301}Ω", "𝓍𝓎 Ελ 😀 ab",
        "Latin, then 12 (ASCII) «Ελληνικά», then ascii: end.", "Кириллица and Latin; 3 * 4 = 12 — ok\u{2070}\u{206F}x",
    ]

    /// Each UTF-16 unit's script by the rule, from HarfBuzz's data for each scalar: Common,
    /// Inherited and Unknown scalars take the script before them, those before any other
    /// script the first one, and all are Common when there is none.
    static func expected(_ text: String) -> [UInt32] {
        let unicode = hb_unicode_funcs_get_default()
        let neutral: Set<UInt32> = [HB_SCRIPT_COMMON.rawValue, HB_SCRIPT_INHERITED.rawValue, HB_SCRIPT_UNKNOWN.rawValue]
        var own: [UInt32?] = []
        for scalar in text.unicodeScalars {
            let script = hb_unicode_script(unicode, scalar.value).rawValue
            own += Array(repeating: neutral.contains(script) ? nil : script, count: UTF16.width(scalar))
        }
        var current = own.compactMap { $0 }.first ?? HB_SCRIPT_COMMON.rawValue
        return own.map { script in
            if let script { current = script }
            return current
        }
    }

    static func analysis(_ text: String, knownLeftToRight: Bool = false) throws -> TextAnalysis {
        let units = Array(text.utf16)
        return try units.withUnsafeBufferPointer { buffer in
            try TextAnalysis.analyze(
                buffer, locale: "", lineBreakMode: .wordWrap, direction: .auto, knownLeftToRight: knownLeftToRight,
                iterators: BreakIteratorPool())
        }
    }

    @Test("Neutral characters take their neighbours' script, each unit of a surrogate pair alike", arguments: texts)
    func scripts(_ text: String) throws {
        #expect(try Self.analysis(text).scripts == Self.expected(text))
    }

    @Test("Every unit from U+0080 to U+2070 resolves as HarfBuzz says, alone and between Latin and ASCII")
    func everyCommonUnit() throws {
        // The units below U+2070 come from a table read once; ASCII after Latin takes a fast path.
        for unit in 0x80...0x2070 {
            let character = String(UnicodeScalar(UInt16(unit))!)
            for text in [character, "ab" + character + ", cd", "1 " + character + "x.y"] {
                #expect(try Self.analysis(text).scripts == Self.expected(text), "U+\(String(unit, radix: 16))")
            }
        }
    }

    @Test("Left-to-right text told it is so analyses as when it is found so", arguments: texts.filter { !$0.contains("ש") })
    func knownLeftToRight(_ text: String) throws {
        let found = try Self.analysis(text)
        let told = try Self.analysis(text, knownLeftToRight: true)
        #expect(found.levels.isEmpty && told.levels.isEmpty)
        #expect(found.paragraphLevels.map(\.level) == told.paragraphLevels.map(\.level))
        #expect(found.paragraphLevels.map(\.start) == told.paragraphLevels.map(\.start))
        #expect(found.scripts == told.scripts && found.boundaries.map(\.rawValue) == told.boundaries.map(\.rawValue))
    }
}

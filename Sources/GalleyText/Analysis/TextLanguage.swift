// A paragraph's language, resolved once into what each part of the engine reads of it.

internal import CGalleyShims
import GalleyLocks

/// A language tag (BCP 47, or an ICU locale ID) reduced to what measuring reads of it: the
/// locale ICU breaks lines by, and the tag font fallback and HarfBuzz read.
///
/// Each is only the part of the tag that can change what it does, so that the tags of
/// requests, however many and however made, come down to a few of each. ICU keeps a cache
/// entry for every locale name it is asked to open, for good (about a kilobyte each); Galley's
/// own tables are bounded (see ``RecentlyUsed``).
struct TextLanguage: Sendable {
    /// The ICU locale the line breaker opens: `ja`, `ko`, `zh`, `zh_Hant` or the root (""), with
    /// ICU's `lb` keyword (`loose`, `normal`, `strict`) and, for Japanese and Korean, `lw=phrase`.
    /// ICU 72 has line rules of their own for Japanese and Chinese only, reads `lw` for Japanese
    /// and Korean only, and breaks every other language by the root's rules.
    let breakLocale: String
    /// The language, script, region and variants, lowercase, hyphenated ("zh-hant-tw"); "" for
    /// none. Font fallback's language preference reads it (Japanese text prefers the Japanese
    /// CJK face).
    let tag: String
    /// ``tag`` for HarfBuzz; nil for none.
    let harfBuzz: HarfBuzzLanguage?

    /// No language: the root's line rules, no preference, HarfBuzz's defaults.
    static let none = TextLanguage(breakLocale: "", tag: "", harfBuzz: nil)

    /// `tag` resolved (nil or empty for none).
    ///
    /// - Throws: ``TextError/invalidLanguage(_:)`` for a tag ICU cannot parse.
    static func resolve(_ tag: String?) throws(TextError) -> TextLanguage {
        guard let tag, !tag.isEmpty else { return .none }
        // Refused before the table: a tag of megabytes would otherwise be kept there.
        guard tag.utf8.count <= longestLocale else { throw .invalidLanguage(String(tag.prefix(longestLocale)) + "…") }
        if let known = resolved.withLock({ $0.value(for: tag) }) { return try known.get() }
        let result = Result { () throws(TextError) in try make(tag) }
        resolved.withLock { $0.insert(result, for: tag) }
        return try result.get()
    }

    /// How many tags are held resolved, for the tests of the bound.
    static var resolvedCount: Int { resolved.withLock { $0.count } }

    /// Tags resolved lately, the bad ones with their error.
    private static let resolved = Locked(RecentlyUsed<String, Result<TextLanguage, TextError>>(capacity: 256))

    /// The longest ICU locale ID Galley reads (ICU's own limit for a full name).
    private static let longestLocale = 156

    private static func make(_ tag: String) throws(TextError) -> TextLanguage {
        // An ICU locale ID as it is ("ja_JP@lb=strict"); a BCP 47 tag converted.
        let locale = tag.utf8.contains(UInt8(ascii: "@")) || tag.utf8.contains(UInt8(ascii: "_")) ? tag : try convert(tag)
        guard let language = part(CGalley_LocaleLanguage, of: locale)?.lowercased(),
            let script = part(CGalley_LocaleScript, of: locale), let region = part(CGalley_LocaleCountry, of: locale),
            let variant = part(CGalley_LocaleVariant, of: locale), let lineBreak = keyword("lb", of: locale),
            let lineWord = keyword("lw", of: locale)
        else { throw .invalidLanguage(tag) }

        var base = ""
        switch language {
        case "ja", "ko": base = language
        // zh_TW, zh_HK and zh_MO stand for zh_Hant_…, as ICU's data has it.
        case "zh": base = script == "Hant" || (script.isEmpty && ["TW", "HK", "MO"].contains(region)) ? "zh_Hant" : "zh"
        default: break
        }
        var keywords: [String] = []
        if ["loose", "normal", "strict"].contains(lineBreak) { keywords.append("lb=" + lineBreak) }
        if lineWord == "phrase" && (language == "ja" || language == "ko") { keywords.append("lw=phrase") }
        let breakLocale = keywords.isEmpty ? base : base + "@" + keywords.joined(separator: ";")

        // No language ("und-CA" is "_CA" to ICU): none, rather than a region taken for one.
        let parts = language.isEmpty ? [] : [language, script, region] + variant.split(separator: "_").map(String.init)
        let canonical = parts.filter { !$0.isEmpty }.joined(separator: "-").lowercased()
        return TextLanguage(breakLocale: breakLocale, tag: canonical, harfBuzz: HarfBuzzLanguage(canonical))
    }

    private static func convert(_ tag: String) throws(TextError) -> String {
        var buffer = [CChar](repeating: 0, count: longestLocale + 4)
        let length = CGalley_localeFromLanguageTag(tag, &buffer, Int32(buffer.count))
        guard length >= 0 else { throw .invalidLanguage(tag) }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func part(_ part: Int, of locale: String) -> String? {
        var buffer = [CChar](repeating: 0, count: longestLocale + 4)
        let length = CGalley_localePart(locale, Int32(part), &buffer, Int32(buffer.count))
        guard length >= 0 else { return nil }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func keyword(_ name: String, of locale: String) -> String? {
        var buffer = [CChar](repeating: 0, count: longestLocale + 4)
        let length = CGalley_localeKeyword(locale, name, &buffer, Int32(buffer.count))
        guard length >= 0 else { return nil }
        // As written: ICU compares keyword values case by case ("lb=STRICT" is not strict to it).
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

// Turns a BCP 47 tag or ICU locale ID into the ICU locale ID the break iterators want.

internal import CGalleyShims

enum LocaleIdentifier {
    /// "ja-JP-u-lb-strict" -> "ja_JP@lb=strict"; ICU IDs ("ja_JP@lb=strict") pass through;
    /// nil or empty -> "" (ICU's root rules).
    ///
    /// - Throws: ``TextError/invalidLanguage(_:)`` for a tag ICU cannot parse.
    static func icu(from tag: String?) throws(TextError) -> String {
        guard let tag, !tag.isEmpty else { return "" }
        if tag.contains("@") || tag.contains("_") { return tag }
        var buffer = [CChar](repeating: 0, count: 160)
        let length = CGalley_localeFromLanguageTag(tag, &buffer, Int32(buffer.count))
        guard length >= 0 else { throw .invalidLanguage(tag) }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

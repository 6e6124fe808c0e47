// Turns a BCP 47 tag or ICU locale ID into the ICU locale ID the break iterators want.

internal import CGalleyShims
import GalleyLocks

enum LocaleIdentifier {
    /// "ja-JP-u-lb-strict" -> "ja_JP@lb=strict"; ICU IDs ("ja_JP@lb=strict") pass through;
    /// nil or empty -> "" (ICU's root rules).
    ///
    /// - Throws: ``TextError/invalidLanguage(_:)`` for a tag ICU cannot parse.
    static func icu(from tag: String?) throws(TextError) -> String {
        guard let tag, !tag.isEmpty else { return "" }
        if tag.utf8.contains(UInt8(ascii: "@")) || tag.utf8.contains(UInt8(ascii: "_")) { return tag }
        if let known = converted.withLock({ $0[tag] }) { return known }
        let identifier = try convert(tag)
        converted.withLock { $0[tag] = identifier }
        return identifier
    }

    /// The language part of a tag, for fonts and HarfBuzz: "ja-JP-u-lb-strict" -> "ja-JP".
    static func bareTag(_ tag: String) -> String {
        if let known = bare.withLock({ $0[tag] }) { return known }
        let result = FontCollection.bareLanguageTag(tag)
        bare.withLock { $0[tag] = result }
        return result
    }

    private static let bare = Locked<[String: String]>([:])

    /// Tags already converted; a process sees few distinct languages.
    private static let converted = Locked<[String: String]>([:])

    private static func convert(_ tag: String) throws(TextError) -> String {
        var buffer = [CChar](repeating: 0, count: 160)
        let length = CGalley_localeFromLanguageTag(tag, &buffer, Int32(buffer.count))
        guard length >= 0 else { throw .invalidLanguage(tag) }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

// ICU's own line-break boundaries, read straight from a break iterator.

import CGalleyShims

enum ICUReference {
    /// UTF-16 offsets where ICU allows a line break in `text` (the end included).
    static func lineBreaks(_ text: String, locale: String = "") -> Set<Int> {
        boundaries(of: text, kind: CGalley_BreakLine, locale: locale)
    }

    /// UTF-16 offsets where ICU's character iterator starts a grapheme cluster (the end
    /// included, the start not).
    static func graphemeBoundaries(_ text: String) -> Set<Int> {
        boundaries(of: text, kind: CGalley_BreakCharacter, locale: "")
    }

    private static func boundaries(of text: String, kind: Int, locale: String) -> Set<Int> {
        let utf16 = Array(text.utf16)
        var error: UnsafePointer<CChar>?
        guard let iterator = CGalley_breakIteratorOpen(Int32(kind), locale, &error) else { return [] }
        defer { CGalley_breakIteratorClose(iterator) }
        var boundaries = Set<Int>()
        utf16.withUnsafeBufferPointer { buffer in
            _ = CGalley_breakIteratorSetText(iterator, buffer.baseAddress, Int32(buffer.count))
            while true {
                let boundary = CGalley_breakIteratorNext(iterator)
                if boundary < 0 { break }
                boundaries.insert(Int(boundary))
            }
        }
        return boundaries
    }
}

extension String {
    /// The substring between two UTF-16 offsets.
    func utf16Slice(_ range: Range<Int>) -> String {
        let view = utf16
        let lower = view.index(view.startIndex, offsetBy: range.lowerBound)
        let upper = view.index(view.startIndex, offsetBy: range.upperBound)
        return String(self[lower..<upper])
    }
}

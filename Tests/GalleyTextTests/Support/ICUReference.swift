// ICU's own line-break boundaries, read straight from a break iterator.

import CGalleyShims

enum ICUReference {
    /// UTF-16 offsets where ICU allows a line break in `text` (the end included).
    static func lineBreaks(_ text: String, locale: String = "") -> Set<Int> {
        guard let iterator = try? ICUBreakIterator(kind: CGalley_BreakLine, locale: locale) else { return [] }
        return iterator.boundaries(of: Array(text.utf16))
    }

    /// UTF-16 offsets where ICU's character iterator starts a grapheme cluster (the end
    /// included, the start not).
    static func graphemeBoundaries(_ text: String) -> Set<Int> {
        guard let iterator = try? ICUBreakIterator(kind: CGalley_BreakCharacter, locale: "") else { return [] }
        return iterator.boundaries(of: Array(text.utf16))
    }
}

/// One ICU break iterator, for as many texts as a test gives it (opening one per text made
/// tests of many short strings take minutes).
struct ICUBreakIterator: ~Copyable {
    private let pointer: OpaquePointer

    struct OpenError: Error { let locale: String }

    init(kind: Int, locale: String) throws {
        var error: UnsafePointer<CChar>?
        guard let opened = CGalley_breakIteratorOpen(Int32(kind), locale, &error) else { throw OpenError(locale: locale) }
        pointer = opened
    }

    /// The boundaries ICU finds in `text` (the end included, the start not).
    func boundaries(of text: [UInt16]) -> Set<Int> { Set(ruleStatuses(of: text).keys) }

    /// Each boundary in `text` with the status of the rule that made it.
    func ruleStatuses(of text: [UInt16]) -> [Int: Int32] {
        var found: [Int: Int32] = [:]
        text.withUnsafeBufferPointer { buffer in
            _ = CGalley_breakIteratorSetText(pointer, buffer.baseAddress, Int32(buffer.count))
            while true {
                let boundary = CGalley_breakIteratorNext(pointer)
                if boundary < 0 { break }
                found[Int(boundary)] = CGalley_breakIteratorRuleStatus(pointer)
            }
        }
        return found
    }

    deinit { CGalley_breakIteratorClose(pointer) }
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

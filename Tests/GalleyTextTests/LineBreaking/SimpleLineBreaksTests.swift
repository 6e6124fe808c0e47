// The pair-table line breaker against ICU's own iterator, on every short string of its classes.

import CGalleyShims
import Testing

@testable import GalleyText

@Suite("Line breaking without ICU")
struct SimpleLineBreaksTests {
    /// One character of each class the table handles (letters in and past ASCII, a digit, the
    /// space, quotation marks in and past ASCII, infix, exclamation, opening, closing
    /// parenthesis, closing bracket, hyphen, ellipsis), and a slash, which it must leave to ICU.
    static let alphabet: [UInt16] = Array("aé7 ’\".!()}-…/".utf16)

    @Test("Every string of up to five characters breaks where ICU's root rules break it, or goes to ICU")
    func rootRules() throws {
        let checked = try compareAll(locale: "", length: 5)
        #expect(checked.handled > 100_000)
    }

    @Test("Longer strings (random, seeded) break where ICU breaks them: no rule looks further back than five characters")
    func longerStrings() throws {
        let iterator = try ICUBreakIterator(kind: CGalley_BreakLine, locale: "")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var handled = 0
        for _ in 0..<30_000 {
            var text: [UInt16] = []
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for _ in 0..<(6 + Int(state >> 60)) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text.append(Self.alphabet[Int(state >> 33) % Self.alphabet.count])
            }
            guard let marked = Self.mark(text) else { continue }
            handled += 1
            #expect(marked == Self.softBreaks(text, iterator), "'\(String(decoding: text, as: UTF16.self))'")
        }
        #expect(handled > 3_000)
    }

    @Test("Each language it is used for breaks these classes as its own ICU iterator does")
    func languages() throws {
        for language in SimpleLineBreaks.verifiedLanguages.sorted() {
            #expect(SimpleLineBreaks.applies(toLocale: language))
            #expect(SimpleLineBreaks.applies(toLocale: language + "_XX"))
            let checked = try compareAll(locale: language, length: 4)
            #expect(checked.handled > 10_000, "\(language)")
        }
    }

    @Test("Other languages and ICU keywords go to ICU; the table is used with the ICU it was checked against")
    func otherLocales() {
        // A different ICU fails this, and the tests above say whether the table still holds.
        #expect(CGalley_icuMajorVersion() == SimpleLineBreaks.verifiedICUVersion)
        #expect(SimpleLineBreaks.applies(toLocale: ""))
        for locale in ["ja", "zh_Hans", "th", "ko", "en@lb=strict", "de_DE@lb=loose", "xx"] {
            #expect(!SimpleLineBreaks.applies(toLocale: locale), "\(locale)")
        }
    }

    @Test("Real sentences break as ICU breaks them")
    func sentences() throws {
        var handled = 0
        let iterator = try ICUBreakIterator(kind: CGalley_BreakLine, locale: "")
        for entry in CorpusEntry.all {
            let text = Array(entry.text.utf16)
            guard let marked = Self.mark(text) else { continue }
            #expect(marked == Self.softBreaks(text, iterator), "\(entry.text)")
            handled += 1
        }
        // Sentences with hyphens, dashes, slashes, marks or ideographs go to ICU; most others do not.
        #expect(handled > 20)
    }

    /// Compares every string over ``alphabet`` up to `length` characters; returns how many
    /// the table handled.
    private func compareAll(locale: String, length: Int) throws -> (handled: Int, total: Int) {
        let iterator = try ICUBreakIterator(kind: CGalley_BreakLine, locale: locale)
        let slash = UInt16(UInt8(ascii: "/"))
        let infix = UInt16(UInt8(ascii: "."))
        let digit = UInt16(UInt8(ascii: "7"))
        var handled = 0
        var total = 0
        var text: [UInt16] = []
        func visit() {
            total += 1
            let marked = Self.mark(text)
            // The table declines exactly the strings with a class it lacks or an infix before a digit.
            let expectsDecline = text.contains(slash) || zip(text, text.dropFirst()).contains { $0 == (infix, digit) }
            #expect((marked == nil) == expectsDecline, "\(String(decoding: text, as: UTF16.self)) [\(locale)]")
            guard let marked else { return }
            handled += 1
            let expected = Self.softBreaks(text, iterator)
            #expect(marked == expected, "'\(String(decoding: text, as: UTF16.self))' [\(locale)]: \(marked.sorted()) vs ICU \(expected.sorted())")
        }
        func extend(_ remaining: Int) {
            guard remaining > 0 else { return }
            for unit in Self.alphabet {
                text.append(unit)
                visit()
                extend(remaining - 1)
                text.removeLast()
            }
        }
        extend(length)
        return (handled, total)
    }

    /// ICU's break opportunities in `text` (the end included), each expected to be a soft break:
    /// the table marks none as mandatory.
    static func softBreaks(_ text: [UInt16], _ iterator: borrowing ICUBreakIterator) -> Set<Int> {
        let statuses = iterator.ruleStatuses(of: text)
        #expect(statuses.values.allSatisfy { $0 < CGalley_LineHard || $0 >= CGalley_LineHardLimit })
        return Set(statuses.keys)
    }

    /// The offsets the table marks in `text`, or nil when it declines it; on declining, the
    /// boundaries must be left as they were.
    static func mark(_ text: [UInt16]) -> Set<Int>? {
        var boundaries = [TextAnalysis.Boundary](repeating: .grapheme, count: text.count + 1)
        let handled = text.withUnsafeBufferPointer { text in
            boundaries.withUnsafeMutableBufferPointer { SimpleLineBreaks.mark(text, into: $0) }
        }
        guard handled else {
            #expect(boundaries.allSatisfy { $0 == .grapheme })
            return nil
        }
        return Set(boundaries.indices.filter { boundaries[$0].contains(.lineBreak) })
    }
}

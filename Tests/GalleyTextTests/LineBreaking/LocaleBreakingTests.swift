// Language-dependent breaking: Thai dictionary words, CJK strictness through the lb keyword.

import GalleyText
import Testing

@Suite("Locale-dependent line breaking")
struct LocaleBreakingTests {
    @Test("Thai breaks only between dictionary words")
    func thaiDictionary() throws {
        let text = "พิพิธภัณฑ์แห่งใหม่ของเมืองจะเปิดให้ประชาชนเข้าชมในสัปดาห์หน้า"
        let words = ICUReference.lineBreaks(text, locale: "th")
        #expect(words.count > 5)  // a dictionary found words in text without spaces
        for width in [60.0, 90, 140] {
            let layout = try Shared.engine.layout(text, style: Shared.style(15), width: width, paragraph: ParagraphStyle(language: "th"))
            #expect(layout.lines.count > 1)
            for line in layout.lines.dropFirst() where !words.contains(line.utf16Range.lowerBound) {
                // Only a word wider than the line may break inside.
                let start = words.filter { $0 < line.utf16Range.lowerBound }.max() ?? 0
                let end = words.filter { $0 > line.utf16Range.lowerBound }.min()!
                let word = try Shared.engine.measure(text.utf16Slice(start..<end), style: Shared.style(15), width: .infinity)
                #expect(word.size.width > width)
            }
        }
    }

    @Test("Japanese small kana: strict never starts a line with one; normal (ICU's Japanese default) and loose may")
    func japaneseStrictness() throws {
        let text = String(repeating: "ちょっとまってください", count: 4)
        let smallKana: Set<Character> = ["ょ", "っ"]
        let characters = Array(text)
        func lineStartsOnSmallKana(_ language: String) throws -> Bool {
            // From 50 px up, "ちょっ" (three ems at 15 px) always fits: no word is over-long.
            for width in stride(from: 50.0, through: 160, by: 5) {
                let measurement = try Shared.engine.measure(text, style: Shared.style(15), width: width, paragraph: ParagraphStyle(language: language))
                if measurement.lineStarts.contains(where: { smallKana.contains(characters[$0]) }) { return true }
            }
            return false
        }
        #expect(try !lineStartsOnSmallKana("ja-u-lb-strict"))
        #expect(try !lineStartsOnSmallKana("ja@lb=strict"))
        #expect(try lineStartsOnSmallKana("ja"))
        #expect(try lineStartsOnSmallKana("ja-u-lb-loose"))
        #expect(try lineStartsOnSmallKana("ja@lb=normal"))
    }
}

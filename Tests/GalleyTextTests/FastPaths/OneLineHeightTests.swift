// A one-line label's height found without shaping must be the height its shaped text gives.

import Testing

@testable import GalleyText

@Suite("One-line heights without shaping")
struct OneLineHeightTests {
    /// Plain text in Latin, Greek and Cyrillic, and ASCII names.
    static let plain = [
        "Joe Hewitt", "Re: rows and cells", "Παρακαλούμε περιμένετε", "Сохранить изменения", "x",
        "A rather long subject line that no row is wide enough to show on one line of any width",
    ]
    /// Text with characters only a fallback face has, that can make it right to left, that
    /// combine, or that break lines: shaped to know.
    static let shapedToKnow = ["東京 station", "Party 🎉", "שלום world", "e\u{301}te\u{301}", "two\nlines", "tab\there"]

    /// One-line paragraph styles that change the line's height or stop it short.
    static let oneLine: [ParagraphStyle] = [
        ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 1),
        ParagraphStyle(lineBreakMode: .clip, maximumLines: 1),
        ParagraphStyle(maximumLines: 1),
        ParagraphStyle(lineHeightMultiple: 1.3, lineBreakMode: .truncateTail, maximumLines: 1),
        ParagraphStyle(minimumLineHeight: 30, maximumLines: 1),
        ParagraphStyle(maximumLineHeight: 10, maximumLines: 1),
        ParagraphStyle(lineBreakMode: .truncateMiddle, maximumLines: 1, maximumHeight: 5),
    ]

    /// Text styles in faces whose line boxes differ (the CJK face has Latin too, in a taller box).
    static let styles: [TextStyle] = [
        Shared.style(11), Shared.style(17, weight: 700), Shared.style(30, italic: true),
        TextStyle(font: .family("Noto Sans CJK JP"), size: 17),
    ]

    @Test("Found for plain text in every one-line style and face, and equal to the shaped text's height at every width")
    func equalsShapedHeight() throws {
        let engine = try TextEngine()
        var found = 0
        var expected = 0
        for style in Self.styles {
            // Plain text its own face has every character of (the CJK face lacks some Greek).
            let primary = try engine.fonts.fallbackChain(for: style.font, fallbacks: style.fallbacks, language: "").primary
            let inPrimary = Self.plain.filter { $0.unicodeScalars.allSatisfy { primary.covers($0.value) } }
            #expect(inPrimary.count >= Self.plain.count - 1)
            for paragraph in Self.oneLine {
                let prepared = PreparedTextStyle(style: style, paragraph: paragraph)
                expected += inPrimary.count
                for string in Self.plain + Self.shapedToKnow {
                    let shaped = try engine.shape(string, style: style, paragraph: paragraph)
                    guard let height = engine.oneLineHeight(of: string, prepared: prepared) else {
                        #expect(!inPrimary.contains(string), "\(string) in \(style.font) \(paragraph)")
                        continue
                    }
                    found += 1
                    #expect(inPrimary.contains(string), "\(string)")
                    #expect(!shaped.isRightToLeft)
                    for width in [0.0, 10, 100, 1000] {
                        #expect(height == shaped.measureHeight(width: width), "\(string) in \(style.font) \(paragraph) at \(width)")
                    }
                }
            }
        }
        #expect(found == expected)
        #expect(expected >= 150)
    }

    @Test("Not found for more lines than one, forced right to left, or styles that cannot shape")
    func onlyForOneLine() throws {
        let engine = try TextEngine()
        let style = Shared.style(15)
        let cases: [(TextStyle, ParagraphStyle)] = [
            (style, ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 2)),
            (style, ParagraphStyle()),
            (style, ParagraphStyle(maximumLines: 1, direction: .rightToLeft)),
            (TextStyle(font: .family("No Such Family"), size: 15), ParagraphStyle(maximumLines: 1)),
            (Shared.style(-3), ParagraphStyle(maximumLines: 1)),
            (style, ParagraphStyle(lineSpacing: .nan, maximumLines: 1)),
            (style, ParagraphStyle(maximumLines: 1, language: "not a language!")),
        ]
        for (style, paragraph) in cases {
            #expect(
                engine.oneLineHeight(of: "Joe Hewitt", prepared: PreparedTextStyle(style: style, paragraph: paragraph)) == nil,
                "\(style.font) \(paragraph)")
        }
    }

    @Test("Each of more prepared styles than the engine holds chains for gets its own face's height")
    func manyPreparedStyles() throws {
        let engine = try TextEngine()
        let paragraph = ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 1)
        // Twice as many as are held, in faces with different boxes, asked for in turn twice.
        let prepared = (0..<(2 * PreparedChains.capacity)).map { index in
            let style = index % 2 == 0 ? Shared.style(Double(10 + index)) : TextStyle(font: .family("Noto Sans CJK JP"), size: Double(10 + index))
            return PreparedTextStyle(style: style, paragraph: paragraph)
        }
        for _ in 0..<2 {
            for styles in prepared {
                let expected = try engine.shape("Joe Hewitt", style: styles.style, paragraph: paragraph).measureHeight(width: 100)
                #expect(engine.oneLineHeight(of: "Joe Hewitt", prepared: styles) == expected, "\(styles.style.font) \(styles.style.size)")
            }
        }
    }
}

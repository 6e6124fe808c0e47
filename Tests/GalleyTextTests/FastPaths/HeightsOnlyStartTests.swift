// A start shaped for heights only stops a line sooner: its heights must still be the whole text's.

import Testing

@testable import GalleyText

@Suite("Heights-only starts: the last line allowed need only begin in the start")
struct HeightsOnlyStartTests {
    static let style = VisiblePrefixTests.style

    /// The test sentences of three scripts, and the Latin ones again a sentence to a paragraph
    /// (mandatory breaks, for paragraph spacing).
    static let texts: [String] = {
        var texts = VisiblePrefixTests.texts
        if let latin = texts.first { texts.append(latin.replacingOccurrences(of: ". ", with: ".\n")) }
        return texts
    }()

    /// Paragraph styles that change line heights, the space between lines, or stop lines early.
    static func paragraphs(_ mode: LineBreakMode, lines: Int) -> [ParagraphStyle] {
        [
            ParagraphStyle(lineBreakMode: mode, maximumLines: lines),
            ParagraphStyle(lineHeightMultiple: 1.4, lineSpacing: 3, lineBreakMode: mode, maximumLines: lines),
            ParagraphStyle(minimumLineHeight: 26, lineBreakMode: mode, maximumLines: lines),
            ParagraphStyle(paragraphSpacing: 7, lineBreakMode: mode, maximumLines: lines),
            ParagraphStyle(lineBreakMode: mode, maximumLines: lines, maximumHeight: 45),
        ]
    }

    /// `text` shaped whole, by an engine that caches no paragraph.
    static func whole(_ text: AttributedText, _ paragraph: ParagraphStyle) throws -> ShapedParagraph {
        let shaped = try TextEngine(paragraphCacheByteLimit: 0).shape(text, paragraph: paragraph)
        #expect(shaped.visiblePrefix == nil)
        return shaped
    }

    @Test(
        "Heights at the width shaped for, and at others, are the whole text's; lines asked for too",
        arguments: [LineBreakMode.wordWrap, .charWrap, .clip, .truncateTail])
    func wholeHeights(mode: LineBreakMode) throws {
        #expect(Self.texts.count == 4)
        // Starts shorter than those shaped for lines, and those of them that answered the width
        // they were shaped for without shaping more.
        var shorter = 0
        var answeredAlone = 0
        for string in Self.texts {
            let text = AttributedText(string, style: Self.style)
            for lines in 1...4 {
                for paragraph in Self.paragraphs(mode, lines: lines) {
                    let whole = try Self.whole(text, paragraph)
                    for width in [40.0, 150, 320, 600] {
                        let engine = try TextEngine()
                        let start = try engine.shape(text, paragraph: paragraph, showing: width, heightsOnly: true)
                        let forLines = try TextEngine().shape(text, paragraph: paragraph, showing: width)
                        let label = "\(mode), \(lines) lines, \(paragraph) at \(width): \(string.prefix(30))"
                        #expect(start.measureHeight(width: width) == whole.measureHeight(width: width), "\(label)")
                        if start.utf16.count < forLines.utf16.count {
                            shorter += 1
                            if engine.counters.paragraphsShaped == 1 { answeredAlone += 1 }
                        }
                        for other in [width * 0.5, width * 0.8, width + 0.5, width * 2, width * 8] {
                            #expect(start.measureHeight(width: other) == whole.measureHeight(width: other), "\(label), then \(other)")
                        }
                        #expect(start.measure(width: width) == whole.measure(width: width), "\(label)")
                        #expect(start.layout(width: width) == whole.layout(width: width), "\(label)")
                    }
                }
            }
        }
        // Every limit above one line shortens most starts, and most of those answer alone.
        print("shorter", shorter, answeredAlone)
        #expect(shorter >= 100, "\(shorter)")
        #expect(answeredAlone >= shorter * 3 / 4, "\(answeredAlone) of \(shorter)")
    }

    @Test("Text past the start in another line box is never answered for by the start")
    func restInAnotherBox() throws {
        let latin = try #require(VisiblePrefixTests.texts.first)
        // Not truncating: an ellipsis in the rest's style would change the box by itself.
        let paragraph = ParagraphStyle(maximumLines: 2)
        // Twenty short words, then the rest of the text larger: at 150 points a heights-only
        // start is the short words (cut where the larger text starts), while the whole text's
        // second line goes on into the larger text's first word. In a bold face of the same
        // size the rest keeps the line box.
        let words = String(repeating: "a ", count: 20)
        let regularWords = try Self.whole(AttributedText(words + words, style: Self.style), paragraph).measureHeight(width: 150)
        for (restStyle, sharesBox) in [(Shared.style(26), false), (Shared.style(15, weight: 700), true)] {
            var text = AttributedText(words, style: Self.style)
            text.append("I " + latin, style: restStyle)
            let wholeText = try Self.whole(text, paragraph)
            let whole = wholeText.measureHeight(width: 150)
            #expect(try #require(wholeText.layout(width: 150).lines.last).utf16Range.upperBound > words.utf16.count)
            #expect((whole.height > regularWords.height) == !sharesBox)
            let engine = try TextEngine()
            let start = try engine.shape(text, paragraph: paragraph, showing: 150, heightsOnly: true)
            let prefix = try #require(start.visiblePrefix)
            #expect(start.utf16.count == words.utf16.count)
            #expect(prefix.restBox != nil)
            #expect(start.measureHeight(width: 150) == whole, "rest in \(restStyle.font) at \(restStyle.size)")
            // A second, longer start answered only when the rest is in another box.
            #expect(engine.counters.paragraphsShaped == (sharesBox ? 1 : 2), "rest at \(restStyle.size)")
        }
    }

    @Test("A character past the start that asks for emoji presentation keeps the start from answering for the rest")
    func emojiPastTheStart() throws {
        // DejaVu Sans (fonts-dejavu-core, which scripts/install-dependencies.sh installs) has
        // U+2614, as no bundled face with Latin has; text in it still takes the colour face,
        // whose box is deeper.
        let style = TextStyle(font: .named("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), size: 15)
        let primary = try TextEngine().fonts.fallbackChain(for: style.font, fallbacks: [], language: "").primary
        #expect(primary.covers(0x2614))
        let latin = try #require(VisiblePrefixTests.texts.first)
        let paragraph = ParagraphStyle(maximumLines: 2)
        let words = String(repeating: "a ", count: 20)
        let umbrella = words.utf16.count + 2
        var found = 0
        for width in stride(from: 100.0, through: 300, by: 5) {
            let text = AttributedText(words + "I \u{2614} " + latin, style: style)
            let wholeText = try Self.whole(text, paragraph)
            // Widths whose second line holds the umbrella, and whose start ends before it.
            let lines = wholeText.layout(width: width).lines
            guard lines.count == 2, lines[1].utf16Range.contains(umbrella) else { continue }
            let engine = try TextEngine()
            let start = try engine.shape(text, paragraph: paragraph, showing: width, heightsOnly: true)
            guard let prefix = start.visiblePrefix, start.utf16.count <= umbrella else { continue }
            found += 1
            let without = try Self.whole(AttributedText(words + "I x " + latin, style: style), paragraph)
            #expect(wholeText.measureHeight(width: width).height > without.measureHeight(width: width).height)
            #expect(prefix.restBox == nil)
            #expect(start.measureHeight(width: width) == wholeText.measureHeight(width: width), "at \(width)")
        }
        #expect(found > 0)
    }

    @Test("Texts assembled at random give the whole text's heights from a heights-only start")
    func randomTexts() throws {
        // The pieces `VisiblePrefixTests.randomTexts` stresses the cut with, in every text.
        var random = VisiblePrefixTests.RandomSequence(state: 20_261_124)
        let pieces = VisiblePrefixTests.pieces + VisiblePrefixTests.fallbackPieces
        let modes: [LineBreakMode] = [.wordWrap, .charWrap, .clip, .truncateTail]
        let widths = [30.0, 90, 200, 450]
        var answeredAlone = 0
        for _ in 0..<300 {
            var string = ""
            for _ in 0..<(40 + random(80)) {
                string += pieces[random(pieces.count)]
                if random(2) == 0 { string += " " }
            }
            let text = AttributedText(string, style: Self.style)
            let paragraph = Self.paragraphs(modes[random(modes.count)], lines: 1 + random(4))[random(5)]
            let width = widths[random(widths.count)]
            let engine = try TextEngine()
            let start = try engine.shape(text, paragraph: paragraph, showing: width, heightsOnly: true)
            let whole = try Self.whole(text, paragraph)
            for other in [width, width * 0.6, width * 3] {
                #expect(start.measureHeight(width: other) == whole.measureHeight(width: other), "\(paragraph) at \(other): \(string)")
                if other == width && start.visiblePrefix != nil && engine.counters.paragraphsShaped == 1 { answeredAlone += 1 }
            }
        }
        #expect(answeredAlone >= 15, "\(answeredAlone)")
    }
}

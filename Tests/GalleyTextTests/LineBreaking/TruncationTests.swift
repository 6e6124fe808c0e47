// Truncation at the head, middle and tail; maximum lines and maximum height.

import GalleyText
import Testing

@Suite("Truncation and limits")
struct TruncationTests {
    static let text = "Truncate this rather long line of text, please, at the width given"
    static let style = Shared.style(17)
    static let width = 150.0
    static let ellipsisWidth = HarfBuzzReference.notoSans.width(of: "\u{2026}", size: 17)

    static func layout(_ mode: LineBreakMode, maximumLines: Int = 1, text: String = text) throws -> TextLayout {
        try Shared.engine.layout(text, style: style, width: width, paragraph: ParagraphStyle(lineBreakMode: mode, maximumLines: maximumLines))
    }

    /// The text drawn by a line's non-ellipsis runs, in logical order of their clusters.
    static func keptClusters(_ layout: TextLayout) -> [Int] {
        Array(Set(layout.glyphRuns.filter { !$0.isEllipsis }.flatMap(\.clusters))).sorted()
    }

    @Test("Tail: the longest fitting start, then an ellipsis")
    func tail() throws {
        let layout = try Self.layout(.truncateTail)
        #expect(layout.lines.count == 1 && layout.lines[0].isTruncated)
        #expect(layout.glyphRuns.last?.isEllipsis == true)
        let kept = Self.keptClusters(layout)
        let prefixEnd = kept.last! + 1
        let prefix = Self.text.utf16Slice(0..<prefixEnd)
        let reference = HarfBuzzReference.notoSans
        #expect(abs(layout.lines[0].width - (reference.width(of: prefix, size: 17) + Self.ellipsisWidth)) < 0.5)
        #expect(layout.lines[0].width <= Self.width)
        // One more grapheme would not fit (the prefix may end before a space, which is dropped).
        let longer = Self.text.utf16Slice(0..<(prefixEnd + 1)).trimmingTrailingWhitespace
        let nextFits = longer != prefix && reference.width(of: longer, size: 17) + Self.ellipsisWidth <= Self.width
        #expect(!nextFits)
    }

    @Test("Head: an ellipsis, then the longest fitting end")
    func head() throws {
        let layout = try Self.layout(.truncateHead)
        #expect(layout.glyphRuns.first?.isEllipsis == true)
        let kept = Self.keptClusters(layout)
        let suffix = Self.text.utf16Slice(kept.first!..<Self.text.utf16.count)
        #expect(Self.text.hasSuffix(suffix))
        #expect(abs(layout.lines[0].width - (HarfBuzzReference.notoSans.width(of: suffix, size: 17) + Self.ellipsisWidth)) < 0.5)
        #expect(layout.lines[0].width <= Self.width)
    }

    @Test("Middle: the start and the end around an ellipsis")
    func middle() throws {
        let layout = try Self.layout(.truncateMiddle)
        let runs = layout.glyphRuns
        let ellipsisIndex = try #require(runs.firstIndex(where: { $0.isEllipsis }))
        #expect(ellipsisIndex > 0 && ellipsisIndex < runs.count - 1)
        let before = runs[..<ellipsisIndex].flatMap(\.clusters)
        let after = runs[(ellipsisIndex + 1)...].flatMap(\.clusters)
        #expect(before.min() == 0)
        #expect(after.max() == Self.text.utf16.count - 1)
        #expect(layout.lines[0].width <= Self.width)
        #expect(layout.lines[0].width > Self.width - 20)
    }

    @Test("Text that fits is not truncated", arguments: [LineBreakMode.truncateHead, .truncateMiddle, .truncateTail])
    func fittingText(_ mode: LineBreakMode) throws {
        let layout = try Self.layout(mode, text: "Short")
        #expect(!layout.isTruncated)
        #expect(!layout.glyphRuns.contains(where: { $0.isEllipsis }))
    }

    @Test("Maximum lines keeps the first lines as they were and truncates the last")
    func maximumLines() throws {
        let free = try Self.layout(.truncateTail, maximumLines: 0)
        let limited = try Self.layout(.truncateTail, maximumLines: 2)
        #expect(free.lines.count > 2)
        #expect(limited.lines.count == 2)
        #expect(limited.lines[0] == free.lines[0])
        #expect(limited.lines[1].isTruncated)
        #expect(limited.lines[1].utf16Range.upperBound == Self.text.utf16.count)
        let clipped = try Self.layout(.wordWrap, maximumLines: 2)
        #expect(clipped.lines.count == 2 && !clipped.isTruncated)
        #expect(clipped.lines[1] == free.lines[1])
    }

    @Test("Maximum height drops the lines that would end below it")
    func maximumHeight() throws {
        let lineHeight = try Shared.engine.fonts.face(for: .family("Noto Sans")).metrics.scaled(to: 17).lineHeight
        let paragraph = ParagraphStyle(lineBreakMode: .truncateTail, maximumHeight: lineHeight * 2.5)
        let layout = try Shared.engine.layout(Self.text, style: Self.style, width: Self.width, paragraph: paragraph)
        #expect(layout.lines.count == 2)
        #expect(layout.lines[1].isTruncated)
        #expect(abs(layout.size.height - 2 * lineHeight) < 1e-9)
    }

    @Test("A truncated line with more paragraphs after it still gets its ellipsis")
    func laterParagraphs() throws {
        let layout = try Self.layout(.truncateTail, maximumLines: 1, text: "First\nSecond")
        #expect(layout.isTruncated)
        #expect(Self.keptClusters(layout) == [0, 1, 2, 3, 4])
    }

    @Test("Over several paragraphs, the head keeps the end of the last, the middle the start of the first and the end of the last")
    func severalParagraphs() throws {
        let text = "One\nTwo two two two two two two two two two two\nThree three"
        let units = Array(text.utf16)
        let lastStart = units.lastIndex(of: 0x0A)! + 1
        let head = try Self.layout(.truncateHead, maximumLines: 1, text: text)
        #expect(head.isTruncated && head.lines.count == 1)
        let headKept = Self.keptClusters(head)
        // A suffix of the last paragraph, as wide as fits beside the ellipsis.
        #expect(headKept.first! >= lastStart && headKept.last! == units.count - 1)
        let suffix = text.utf16Slice(headKept.first!..<units.count)
        #expect(abs(head.lines[0].width - (HarfBuzzReference.notoSans.width(of: suffix, size: 17) + Self.ellipsisWidth)) < 0.5)
        let middle = try Self.layout(.truncateMiddle, maximumLines: 1, text: text)
        let runs = middle.glyphRuns
        let ellipsisIndex = try #require(runs.firstIndex(where: { $0.isEllipsis }))
        let before = runs[..<ellipsisIndex].flatMap(\.clusters)
        let after = runs[(ellipsisIndex + 1)...].flatMap(\.clusters)
        // The front from the first paragraph ("One"), the back from the last.
        #expect(Set(before) == [0, 1, 2])
        #expect(after.min()! >= lastStart && after.max()! == units.count - 1)
        #expect(middle.lines[0].width <= Self.width)
    }

    @Test("A width narrower than the ellipsis still makes one line with the ellipsis")
    func tinyWidth() throws {
        let layout = try Shared.engine.layout(Self.text, style: Self.style, width: 2, paragraph: ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 1))
        #expect(layout.lines.count == 1)
        #expect(layout.glyphRuns.contains(where: { $0.isEllipsis }))
    }

    @Test("Heights at a label's width equal full measurements, also where truncating changes a line's height")
    func heightsWithoutTruncatedWidths() throws {
        // Plain text (the ellipsis cannot change a line's height, so it is not worked out), and
        // text whose emoji and CJK come from taller fallback faces at the start or the end:
        // head truncation shows the end on the first line, tail truncation drops what does not fit.
        let tall = "你好世界 😀 🎉"
        let texts = [
            Self.text, "Ein ziemlich langer Satz, Ελληνικά και кириллица, to wrap and to cut short at last",
            "Start plain, then end on tall characters: \(tall)", "\(tall) first, then plain words that run past the width",
            "One\nTwo two two two two two two two two two two\nThree \(tall)",
        ]
        let small = Shared.style(11)
        for text in texts {
            var attributed = AttributedText(text, style: Self.style)
            attributed.append(" and a smaller end", style: small)
            for mode in [LineBreakMode.truncateHead, .truncateMiddle, .truncateTail, .wordWrap, .clip] {
                for maximumLines in 0...3 {
                    var paragraph = ParagraphStyle(lineBreakMode: mode, maximumLines: maximumLines)
                    // Line height rules and a height limit shorter than a line: one-line heights
                    // skip breaking lines, and must still apply them as the stacked line would.
                    if maximumLines == 1 {
                        (paragraph.lineHeightMultiple, paragraph.minimumLineHeight, paragraph.maximumHeight) = (1.3, 30, 5)
                    }
                    for width in [2.0, 60, 150, 260, 1000] {
                        let shapedWhole = try Shared.engine.shape(text, style: Self.style, paragraph: paragraph)
                        let shapedStart = try Shared.uncachedEngine.shape(text, style: Self.style, paragraph: paragraph, showing: width)
                        let shapedRuns = try Shared.engine.shape(attributed, paragraph: paragraph)
                        for shaped in [shapedWhole, shapedStart, shapedRuns] + (try ownScriptShapes(paragraph, width)) {
                            let full = shaped.measure(width: width)
                            let expected = TextHeight(
                                height: full.size.height, lineCount: full.lineCount,
                                firstBaseline: full.firstBaseline, lastBaseline: full.lastBaseline)
                            #expect(shaped.measureHeight(width: width) == expected, "\(shaped.utf16Count) units \(mode) \(maximumLines) lines at \(width)")
                        }
                    }
                }
            }
        }
    }

    @Test("A height said to depend only on fitting on one line is the same at every width of each kind")
    func heightsThatDependOnlyOnFitting() throws {
        // Plain text, one visible unit, one long word, a mandatory break a wide first line
        // reaches, taller fallback faces, and Thai and Hebrew (whose ellipsis comes from another face).
        let texts = [
            Self.text, "W", "W    ", "Supercalifragilisticexpialidocious", "Supercalifragilistic expialidocious",
            "Words before a break\nand after it, then more words to wrap", "Plain words, then tall ones: 你好世界 😀",
            // A break past the start shaped for 200 pt, which a wide line reaches.
            String(repeating: "word ", count: 16) + "\nand after the break more words to wrap",
        ]
        let widths: [Double] = [2, 10, 25, 40, 60, 100, 150, 200, 260, 400, 1000]
        var qualifying = 0
        var variesOtherwise = false
        for mode in [LineBreakMode.truncateHead, .truncateMiddle, .truncateTail, .wordWrap, .clip] {
            for maximumLines in 1...3 {
                for (paragraphSpacing, maximumHeight) in [(0.0, nil), (7, nil), (7, 30.0)] as [(Double, Double?)] {
                    var paragraph = ParagraphStyle(lineBreakMode: mode, maximumLines: maximumLines)
                    (paragraph.lineSpacing, paragraph.paragraphSpacing, paragraph.maximumHeight) = (3, paragraphSpacing, maximumHeight)
                    var shapes = try texts.map { try Shared.engine.shape($0, style: Self.style, paragraph: paragraph) }
                    shapes += try texts.map { try Shared.uncachedEngine.shape($0, style: Self.style, paragraph: paragraph, showing: 200) }
                    shapes += try ownScriptShapes(paragraph, 200)
                    for shaped in shapes {
                        // Heights at the widths the text fits on one line at, and at the others.
                        let heights = Dictionary(grouping: widths) { shaped.fitsOnOneLine(width: $0) }
                            .mapValues { $0.map { shaped.measureHeight(width: $0) } }
                        if shaped.heightDependsOnlyOnFitting {
                            qualifying += 1
                            #expect(heights.values.allSatisfy(allEqual), "\(shaped.utf16Count) units \(mode) \(maximumLines) lines")
                        } else if !heights.values.allSatisfy(allEqual) {
                            variesOtherwise = true
                        }
                    }
                }
            }
        }
        // The texts and styles tell the two apart: many qualify, and heights of others vary.
        #expect(qualifying > 100 && variesOtherwise)
    }

    private func allEqual(_ heights: [TextHeight]) -> Bool { heights.allSatisfy { $0 == heights[0] } }

    /// Thai and Hebrew in their own faces, which have no U+2026: the ellipsis that can end
    /// their lines comes from another face, with another line box.
    private func ownScriptShapes(_ paragraph: ParagraphStyle, _ width: Double) throws -> [ShapedParagraph] {
        let texts = [
            ("ภาษาไทยเป็นภาษาที่มีระดับเสียงของคำแน่นอนหรือวรรณยุกต์เช่นเดียวกับภาษาจีน", "Noto Sans Thai"),
            ("עברית היא שפה שמית ממשפחת השפות האפרו־אסיאתיות הידועה כשפתם של היהודים", "Noto Sans Hebrew"),
        ]
        return try texts.flatMap { text, family in
            let style = TextStyle(font: .family(family), size: 17)
            return [
                try Shared.engine.shape(text, style: style, paragraph: paragraph),
                try Shared.uncachedEngine.shape(text, style: style, paragraph: paragraph, showing: width),
            ]
        }
    }
}

// Long texts measured a window at a time: every number the whole text's, to the bit.

import Foundation
import Testing

@testable import GalleyText

@Suite("Long texts in windows")
struct WindowedMeasurementTests {
    /// Left-to-right sentences of the corpus (Latin, Greek, Cyrillic, CJK, Thai, Devanagari,
    /// emoji), so that windows cut among many scripts, fonts and break rules.
    static let leftToRight = CorpusEntry.all.map(\.text).filter { text in
        Array(text.utf16).withUnsafeBufferPointer { TextAnalysis.isLeftToRightThroughout($0, direction: .auto) }
    }
    /// Every sentence of the corpus, Arabic and Hebrew too.
    static let all = CorpusEntry.all.map(\.text)

    /// A long text of `count` sentences in a random order, with paragraph breaks, over-long
    /// words and runs of spaces among them.
    static func text(sentences count: Int, seed: UInt64, from sentences: [String] = leftToRight) -> String {
        var random = VisiblePrefixTests.RandomSequence(state: seed)
        let pieces = VisiblePrefixTests.pieces + VisiblePrefixTests.fallbackPieces
        var text = ""
        for index in 0..<count {
            text += sentences[random(sentences.count)]
            if random(3) == 0 { text += " " + pieces[random(pieces.count)] }
            if index % 97 == 0 { text += " \u{10FFFD}\u{E000}" }  // characters no font has
            switch random(23) {
            case 0: text += "\n"
            case 1: text += " " + String(repeating: "Supercalifragilistic", count: 6) + " "
            case 2: text += "   "
            case 3: text += "\n\n"
            default: text += random(8) == 0 ? "\n" : " "
            }
        }
        return text
    }

    static func expectSame(_ windowed: TextMeasurement, _ whole: TextMeasurement, _ context: String) {
        #expect(windowed.size == whole.size, "\(context)")
        #expect(windowed.lineCount == whole.lineCount, "\(context)")
        #expect(windowed.firstBaseline == whole.firstBaseline && windowed.lastBaseline == whole.lastBaseline, "\(context)")
        let startsMatch = windowed.lineStartsUTF16 == whole.lineStartsUTF16 && windowed.lineStarts == whole.lineStarts
        #expect(startsMatch, "\(context)")
        #expect(windowed.missingCharacters == whole.missingCharacters, "\(context)")
        #expect(!windowed.isTruncated)
    }

    @Test("Windows of many sizes give the whole text's measurement: sizes, baselines, line starts, missing characters", arguments: [0, 1, 2, 3])
    func sameAsWhole(seed: Int) throws {
        let engine = try TextEngine(paragraphCacheByteLimit: 0)
        // The last text has right-to-left sentences among the others: its windows cut at line feeds only.
        let string = Self.text(sentences: 200, seed: UInt64(seed), from: seed == 3 ? Self.all : Self.leftToRight)
        let paragraphs = [
            ParagraphStyle(), ParagraphStyle(lineHeightMultiple: 1.3, lineSpacing: 2.5, paragraphSpacing: 7.25),
            ParagraphStyle(minimumLineHeight: 30, alignment: .justified), ParagraphStyle(lineBreakMode: .charWrap),
            ParagraphStyle(lineBreakMode: .clip), ParagraphStyle(language: "ja"),
        ]
        var text = AttributedText(string, style: TextStyle(font: .family("Noto Sans"), size: 15))
        if seed == 2 {
            // Runs of other sizes and faces, cut by windows too.
            text = AttributedText()
            for (index, piece) in string.split(separator: "\n").enumerated() {
                let style = TextStyle(
                    font: .family("Noto Sans", weight: index % 3 == 0 ? 700 : 400), size: index % 2 == 0 ? 13 : 21, letterSpacing: index % 5 == 0 ? 0.5 : 0)
                text.append(String(piece) + "\n", style: style)
            }
        }
        let utf16 = text.string.utf16Units
        for paragraph in paragraphs {
            for width in [320.0, 75, 12] {
                let whole = try engine.shape(text, paragraph: paragraph).measure(width: width)
                for window in [64, 1500] {
                    let windowed = try #require(
                        try WindowedMeasurement.measure(
                            text, utf16: utf16, paragraph: paragraph, width: width, shaper: engine.paragraphShaper,
                            threshold: 0, windowLength: window))
                    Self.expectSame(windowed.measurement, whole, "window \(window), width \(width), \(paragraph)")
                    #expect(windowed.windows > (window < 100 ? 20 : 2), "\(windowed.windows) windows")
                }
            }
        }
    }

    @Test("The engine measures long texts in windows, and texts it cannot cut whole")
    func engineChooses() throws {
        let engine = try TextEngine(paragraphCacheByteLimit: 0)
        let style = TextStyle(font: .family("Noto Sans"), size: 15)
        // Paragraphs of one line each, as many as make the text long enough: each line's height is
        // the face's line height, and each line starts where a paragraph does.
        let line = "Lines of a long text measured in windows\n"
        let count = WindowedMeasurement.threshold / line.utf16.count + 1
        let string = String(repeating: line, count: count)
        let before = engine.counters.paragraphsShaped
        let measured = try engine.measure(string, style: style, width: 320)
        // Windows are shaped by the paragraph shaper itself, outside the engine's paragraph cache.
        #expect(engine.counters.paragraphsShaped == before)
        let face = try engine.fonts.face(for: style.font)
        let lineHeight = face.metrics.scaled(to: 15).lineHeight
        #expect(measured.lineCount == count)
        #expect(abs(measured.size.height - Double(count) * lineHeight) < 1e-6 * measured.size.height)
        let startsMatch = measured.lineStartsUTF16 == (1..<count).map { $0 * line.utf16.count }
        #expect(startsMatch)
        // A line limit: measured whole (a start shaped), as before.
        #expect(
            try WindowedMeasurement.measure(
                AttributedText(string, style: style), utf16: string.utf16Units, paragraph: ParagraphStyle(maximumLines: 3), width: 320,
                shaper: engine.paragraphShaper) == nil)
        #expect(try engine.measure(string, style: style, width: 320, paragraph: ParagraphStyle(maximumLines: 3)).lineCount == 3)
    }
}

// A line limit shapes only the start of a long text: every answer must still be the whole text's.

import Dispatch
import Foundation
import GalleyLocks
import GalleyTestSupport
import Testing

@testable import GalleyText

@Suite("Visible prefix: a line limit shapes only what it shows")
struct VisiblePrefixTests {
    static let style = Shared.style(15)

    /// Long texts of the test sentences, one per script: several sentences each, so that a few
    /// lines show a small start of them.
    static let texts: [String] = {
        let url = PackagePaths.fixtures.appendingPathComponent("sentences.txt")
        guard let lines = try? String(contentsOf: url, encoding: .utf8).split(separator: "\n") else { return [] }
        var byScript: [String: [String]] = [:]
        var script = ""
        for line in lines {
            if line.hasPrefix("# ") {
                script = String(line.dropFirst(2).split(separator: " ").first ?? "")
            } else if !line.hasPrefix("#") {
                byScript[script, default: []].append(String(line))
            }
        }
        return ["Latn", "Grek", "Cyrl"].compactMap { byScript[$0]?.prefix(8).joined(separator: " ") }
    }()

    /// The whole text shaped and broken at `width`, by an engine that caches no paragraph (the
    /// public `shape` always shapes the whole text).
    static func whole(_ text: String, _ paragraph: ParagraphStyle, width: Double) throws -> (TextMeasurement, TextLayout) {
        let engine = try TextEngine(paragraphCacheByteLimit: 0)
        let shaped = try engine.shape(text, style: style, paragraph: paragraph)
        #expect(shaped.visiblePrefix == nil)
        return (shaped.measure(width: width), shaped.layout(width: width))
    }

    @Test(
        "Measuring and laying out at a width match the whole text's, in every limiting mode",
        arguments: [LineBreakMode.wordWrap, .charWrap, .clip, .truncateTail])
    func matchesWholeText(mode: LineBreakMode) throws {
        #expect(Self.texts.count == 3)
        var prefixes = 0
        for text in Self.texts {
            for lines in [1, 2, 3] {
                let paragraph = ParagraphStyle(lineBreakMode: mode, maximumLines: lines)
                for width in [40.0, 150, 320, 600] {
                    let engine = try TextEngine()
                    let shaped = try engine.shape(text, style: Self.style, paragraph: paragraph, showing: width)
                    if let prefix = shaped.visiblePrefix {
                        prefixes += 1
                        #expect(shaped.utf16.count < prefix.wholeLength)
                        #expect(shaped.utf16Count == text.utf16.count)
                    }
                    let (measurement, layout) = try Self.whole(text, paragraph, width: width)
                    #expect(
                        try engine.measure(text, style: Self.style, width: width, paragraph: paragraph) == measurement,
                        "\(mode) \(lines) lines at \(width): \(text.prefix(30))")
                    #expect(
                        try engine.layout(text, style: Self.style, width: width, paragraph: paragraph) == layout,
                        "\(mode) \(lines) lines at \(width): \(text.prefix(30))")
                }
            }
        }
        // Most of these texts are far longer than a few lines show: the start must have been used.
        #expect(prefixes >= 24)
    }

    /// Pieces of text that stress the cut: runs of spaces, punctuation before and after spaces,
    /// opening brackets, numbers, hyphens, line breaks, combining marks.
    static let pieces = [
        "word", "Wörter", "λέξη", "слово", "naïve", "(aside)", "«quote»", "3.14", "A-B", "x",
        "supercalifragilisticexpialidocious", "—", ",", ".", "!", "?", "«", "(", "\n", "  ", " ", " ", " ",
        "e\u{301}", "ﬁ",
    ]
    /// Pieces only a fallback face has.
    static let fallbackPieces = ["東京", "🎉"]

    /// A fixed sequence of numbers (a linear congruential generator), so that texts assembled at
    /// random are the same every run.
    struct RandomSequence {
        var state: UInt64

        /// The next number, below `count`.
        mutating func callAsFunction(_ count: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % count
        }
    }

    @Test("Texts assembled at random from words, punctuation, spaces and breaks measure and lay out as the whole text")
    func randomTexts() throws {
        // Characters only a fallback face has in every third text.
        var random = RandomSequence(state: 20_261_123)
        let pieces = Self.pieces
        let fallbackPieces = Self.fallbackPieces
        let modes: [LineBreakMode] = [.wordWrap, .charWrap, .clip, .truncateTail]
        let widths = [30.0, 90, 200, 450]
        var prefixes = 0
        for index in 0..<200 {
            let choices = index % 3 == 0 ? pieces + fallbackPieces : pieces
            var text = ""
            for _ in 0..<(40 + random(80)) {
                text += choices[random(choices.count)]
                if random(2) == 0 { text += " " }
            }
            let paragraph = ParagraphStyle(lineBreakMode: modes[random(modes.count)], maximumLines: 1 + random(4))
            let width = widths[random(widths.count)]
            let engine = try TextEngine()
            if try engine.shape(text, style: Self.style, paragraph: paragraph, showing: width).visiblePrefix != nil { prefixes += 1 }
            let (measurement, layout) = try Self.whole(text, paragraph, width: width)
            #expect(try engine.measure(text, style: Self.style, width: width, paragraph: paragraph) == measurement, "\(text)")
            #expect(try engine.layout(text, style: Self.style, width: width, paragraph: paragraph) == layout, "\(text)")
        }
        #expect(prefixes >= 100)
    }

    @Test("The cut is a line break ICU allows, and ICU breaks the start as it breaks the whole text")
    func cutIsASafeBreak() throws {
        for text in Self.texts {
            let paragraph = ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 2)
            let shaped = try Shared.engine.shape(text, style: Self.style, paragraph: paragraph, showing: 200)
            #expect(shaped.visiblePrefix != nil)
            let cut = shaped.utf16.count
            let start = text.utf16Slice(0..<cut)
            let wholeBreaks = ICUReference.lineBreaks(text)
            #expect(wholeBreaks.contains(cut))
            #expect(ICUReference.lineBreaks(start) == wholeBreaks.filter { $0 <= cut })
            #expect(ICUReference.graphemeBoundaries(start) == ICUReference.graphemeBoundaries(text).filter { $0 <= cut })
        }
    }

    @Test("Wider widths go to a longer start, then to the whole text")
    func widerWidths() throws {
        let text = try #require(Self.texts.first)
        let paragraph = ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 2)
        let engine = try TextEngine()
        let shaped = try engine.shape(text, style: Self.style, paragraph: paragraph, showing: 60)
        let prefix = try #require(shaped.visiblePrefix)
        for width in [60.0, 300, 1200, 5000, .infinity] {
            let (measurement, layout) = try Self.whole(text, paragraph, width: width)
            #expect(shaped.measure(width: width) == measurement, "at \(width)")
            #expect(shaped.layout(width: width) == layout, "at \(width)")
        }
        // Made once: the next wide measurement reuses the longer start.
        let longer = prefix.longer(than: shaped, toShow: 5000)
        #expect(prefix.longer(than: shaped, toShow: 5000) === longer)
        // A start that fits one line may hide text that does not: asked, the whole text answers.
        let wholeText = try TextEngine(paragraphCacheByteLimit: 0).shape(text, style: Self.style, paragraph: paragraph)
        for width in [60.0, 1200, 100_000] {
            #expect(shaped.fitsOnOneLine(width: width) == wholeText.fitsOnOneLine(width: width), "at \(width)")
        }
    }

    @Test("Threads measuring one start at widths that need longer ones all get the whole text's answers")
    func concurrentLongerStarts() throws {
        let paragraph = ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 2)
        let widths = [60.0, 150, 300, 600, 1200, 2400]
        let expected = try Self.texts.map { text in try widths.map { try Self.whole(text, paragraph, width: $0).1 } }
        let engine = try TextEngine()
        // Every text shaped for the narrowest width first, so that wider ones need longer starts.
        let starts = try Self.texts.map { try engine.shape($0, style: Self.style, paragraph: paragraph, showing: widths[0]) }
        #expect(starts.allSatisfy { $0.visiblePrefix != nil })
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for index in Self.texts.indices {
                for offset in widths.indices {
                    let widthIndex = (offset + worker) % widths.count
                    if starts[index].layout(width: widths[widthIndex]) != expected[index][widthIndex] {
                        failures.withLock { $0 += 1 }
                    }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }

    @Test("Text a start cannot stand for is shaped whole")
    func shapedWhole() throws {
        let text = try #require(Self.texts.first)
        let limited = ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 2)
        let cases: [(String, String, ParagraphStyle)] = [
            ("no line limit", text, ParagraphStyle(lineBreakMode: .truncateTail)),
            ("head truncation shows the end", text, ParagraphStyle(lineBreakMode: .truncateHead, maximumLines: 2)),
            ("middle truncation shows the end", text, ParagraphStyle(lineBreakMode: .truncateMiddle, maximumLines: 2)),
            ("right-to-left text at the end", text + " שלום עולם", limited),
            ("forced right-to-left", text, ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 2, direction: .rightToLeft)),
            ("a character only a fallback face has at the end", text + " 東京", limited),
            ("a character no face has at the end", text + " ሀሁ", limited),
            ("an emoji at the end", text + " 🎉", limited),
            ("too short to cut", "A short line of text", limited),
        ]
        for (name, string, paragraph) in cases {
            let shaped = try TextEngine().shape(string, style: Self.style, paragraph: paragraph, showing: 200)
            #expect(shaped.visiblePrefix == nil, "\(name)")
        }
        // Shaped whole, the characters past the lines shown are still reported missing.
        let missing = try TextEngine().measure(text + " ሀሁ", style: Self.style, width: 200, paragraph: limited)
        #expect(missing.missingCharacters.map(\.value) == [0x1200, 0x1201])
    }
}

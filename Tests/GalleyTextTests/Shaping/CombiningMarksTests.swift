// Long runs of combining marks: shaped a piece at a time, in linear time, as one cluster.

import Foundation
import Testing

@testable import GalleyText

@Suite("Combining marks")
struct CombiningMarksTests {
    /// Whether `scalar` is a combining mark or a format character, by the standard library's
    /// reading of the Unicode data (an independent source from the ICU call the shaper makes).
    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format: true
        default: false
        }
    }

    @Test("Pieces cover the text, start only inside runs of marks, and hold at most thirty marks in a row")
    func pieces() {
        var generator = SystemRandomNumberGenerator()
        let marks: [Unicode.Scalar] = [
            "\u{301}", "\u{323}", "\u{E48}", "\u{64B}", "\u{903}", "\u{20DD}", "\u{1D167}", "\u{FE0F}", "\u{2060}", "\u{200D}", "\u{E0061}",
        ]
        let bases: [Unicode.Scalar] = ["a", "\u{E01}", "\u{627}", "\u{915}", " ", "\u{1F600}"]
        for _ in 0..<300 {
            var scalars: [Unicode.Scalar] = []
            for _ in 0..<Int.random(in: 1...12, using: &generator) {
                scalars.append(bases.randomElement(using: &generator)!)
                let run = [0, 1, 29, 30, 31, 60, 61, 200].randomElement(using: &generator)!
                for _ in 0..<run { scalars.append(marks.randomElement(using: &generator)!) }
            }
            let text = Array(String(String.UnicodeScalarView(scalars)).utf16)
            let pieces = text.withUnsafeBufferPointer { HarfBuzzShaper.pieces(of: $0) }.map(\.range)
            #expect(pieces.first?.lowerBound == 0 && pieces.last?.upperBound == text.count)
            for (earlier, later) in zip(pieces, pieces.dropFirst()) { #expect(earlier.upperBound == later.lowerBound && !later.isEmpty) }
            for piece in pieces {
                let scalars = String(decoding: text[piece], as: UTF16.self).unicodeScalars
                var longest = 0
                var current = 0
                for scalar in scalars {
                    current = Self.isMark(scalar) ? current + 1 : 0
                    longest = max(longest, current)
                }
                #expect(longest <= HarfBuzzShaper.maximumMarksPerShaping)
                // Longer than the longest shaped only by the marks that end it.
                #expect(piece.count <= HarfBuzzShaper.longestShaping + 2 * HarfBuzzShaper.maximumMarksPerShaping + 2)
            }
            // No run of thirty or fewer marks is split: such text is shaped whole, as before.
            if !scalars.split(whereSeparator: { !Self.isMark($0) }).contains(where: { $0.count > HarfBuzzShaper.maximumMarksPerShaping }) {
                #expect(pieces.count == 1)
            }
        }
    }

    @Test(
        "A letter with a million marks measures as one cluster as wide as the letter; every mark is laid out",
        arguments: [
            ("a", "\u{301}", "Noto Sans"), ("\u{E01}", "\u{E48}", "Noto Sans Thai"), ("\u{627}", "\u{64B}", "Noto Sans Arabic"),
            // A word joiner between the marks: HarfBuzz looks back across it too.
            ("a", "\u{301}\u{2060}", "Noto Sans"),
        ])
    func millionMarks(base: String, mark: String, family: String) throws {
        let engine = try TextEngine()
        let style = TextStyle(font: .family(family), size: 17)
        let count = 1_000_000 / mark.unicodeScalars.count
        let text = base + String(repeating: mark, count: count)
        let measured = try engine.measure(text, style: style, width: 100)
        // The marks take no room (HarfBuzz zeroes marks' advances): as wide as the letter with thirty.
        let reference = try engine.measure(base + String(repeating: mark, count: 30), style: style, width: .infinity)
        #expect(measured.lineCount == 1 && measured.lineStarts.isEmpty)
        #expect(abs(measured.size.width - reference.size.width) < 1e-9)
        let layout = try engine.layout(text, style: style, width: 100)
        let glyphs = layout.glyphRuns.flatMap(\.glyphs)
        // A letter and its first mark may compose into one glyph (a and U+0301 into á).
        #expect(glyphs.count >= count * mark.unicodeScalars.count)
        // One grapheme cluster (a word joiner, a format character, starts clusters of its own).
        if mark.unicodeScalars.count == 1 { #expect(layout.glyphRuns.allSatisfy { $0.clusters.allSatisfy { $0 == 0 } }) }
    }

    @Test("A word of thousands of letters is shaped in pieces, and measures as wide as its letters shaped apart")
    func longWords() throws {
        let engine = try TextEngine()
        let style = TextStyle(font: .family("Noto Sans"), size: 17)
        // Letters without pair kerning or ligatures between them in Noto Sans: the cuts cost nothing.
        let word = String(repeating: "x", count: 5000)
        let measured = try engine.measure(word, style: style, width: .infinity)
        let one = try engine.measure("x", style: style, width: .infinity)
        #expect(abs(measured.size.width - 5000 * one.size.width) < 1e-6)
        let pieces = Array(word.utf16).withUnsafeBufferPointer { HarfBuzzShaper.pieces(of: $0) }
        #expect(pieces.map(\.range.count) == [1024, 1024, 1024, 1024, 904] && pieces.allSatisfy { !$0.continuesCluster })
    }

    @Test("Marks past the thirtieth stay with their letter: breaking never separates them, and the next word starts its own cluster")
    func clustersAcrossPieces() throws {
        let engine = try TextEngine()
        let style = TextStyle(font: .family("Noto Sans"), size: 17)
        let word = "b" + String(repeating: "\u{301}", count: 95) + "c"
        let text = Array(repeating: word, count: 40).joined(separator: " ")
        let layout = try engine.layout(text, style: style, width: 60)
        let units = Array(text.utf16)
        for line in layout.lines.dropFirst() {
            // Every line starts at a word's first letter, never at a mark.
            #expect(units[line.utf16Range.lowerBound] == 0x62)  // "b"
        }
        let plain = try engine.layout(Array(repeating: "bc", count: 40).joined(separator: " "), style: style, width: 60)
        #expect(layout.lines.count == plain.lines.count)
    }
}

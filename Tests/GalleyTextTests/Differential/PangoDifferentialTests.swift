// Galley against Pango (pangoft2) on the same font files: line counts and heights.

import Foundation
import GalleyText
import PangoComparison
import Testing

@Suite("Differential tests against Pango")
struct PangoDifferentialTests {
    static let widths: [Double] = [120, 200, 320, 480]
    static let size = 15.0

    struct Comparison {
        var entry: CorpusEntry
        var width: Double
        var galley: TextMeasurement
        var pango: PangoMeasurer.Result
        var linesAgree: Bool { galley.lineCount == pango.lineCount }
        var heightDifference: Double { abs(galley.size.height - pango.height) }
    }

    static func compare(_ entries: [CorpusEntry], paragraph: (CorpusEntry) -> ParagraphStyle = { ParagraphStyle(language: $0.lang) }) throws -> [Comparison] {
        var comparisons: [Comparison] = []
        for entry in entries {
            for width in widths {
                let galley = try Shared.engine.measure(entry.text, style: Shared.style(size), width: width, paragraph: paragraph(entry))
                let pango = PangoMeasurer.shared.measure(entry.text, size: size, width: width, language: entry.lang)
                comparisons.append(Comparison(entry: entry, width: width, galley: galley, pango: pango))
            }
        }
        return comparisons
    }

    static func report(_ comparisons: [Comparison]) -> String {
        comparisons.filter { !$0.linesAgree || $0.heightDifference > 0.5 }.prefix(20).map {
            "[\($0.entry.script) w=\($0.width)] galley \($0.galley.lineCount) lines \($0.galley.lineStarts) h=\($0.galley.size.height), pango \($0.pango.lineCount) lines \($0.pango.lineStarts) h=\($0.pango.height): \($0.entry.text)"
        }.joined(separator: "\n")
    }

    @Test("Latin, Greek and Cyrillic: line counts agree for ≥ 99%, heights within 0.5 px")
    func alphabeticScripts() throws {
        let entries = CorpusEntry.all.filter { ["Latn", "Grek", "Cyrl"].contains($0.script) }
        let comparisons = try Self.compare(entries)
        let agreeing = comparisons.filter(\.linesAgree)
        let share = Double(agreeing.count) / Double(comparisons.count)
        #expect(comparisons.count >= 1000)
        #expect(share >= 0.99, "line counts agree for \(agreeing.count) of \(comparisons.count)\n\(Self.report(comparisons))")
        let heightMismatches = agreeing.filter { $0.heightDifference > 0.5 }
        #expect(heightMismatches.isEmpty, "\(Self.report(heightMismatches))")
    }

    @Test("Long texts limited to a few lines, the last truncated: heights agree with Pango's ellipsized layout")
    func lineLimitedLongTexts() throws {
        // Eight sentences of one script run together: many lines at every width, so both
        // engines stop at the limit (Galley shaping only the start those lines show).
        var texts: [String] = []
        for script in ["Latn", "Grek", "Cyrl"] {
            let sentences = CorpusEntry.all.filter { $0.script == script }.map(\.text)
            for start in stride(from: 0, to: sentences.count - 8, by: 8) {
                texts.append(sentences[start..<(start + 8)].joined(separator: " "))
            }
        }
        #expect(texts.count >= 20)
        for text in texts {
            for width in Self.widths {
                for lines in [1, 2, 3] {
                    let paragraph = ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: lines)
                    let galley = try Shared.engine.measure(text, style: Shared.style(Self.size), width: width, paragraph: paragraph)
                    let pango = PangoMeasurer.shared.height(of: text, size: Self.size, width: width, language: nil, maximumLines: lines)
                    #expect(galley.lineCount == lines && galley.isTruncated, "\(lines) lines at \(width): \(text.prefix(40))")
                    #expect(abs(galley.size.height - pango) <= 0.5, "\(lines) lines at \(width): galley \(galley.size.height), pango \(pango)")
                }
            }
        }
    }

    @Test("Arabic, Hebrew, Devanagari, Thai, Han, kana, Hangul and mixed text agree with Pango")
    func otherScripts() throws {
        let scripts = ["Arab", "Hebr", "Deva", "Thai", "Hani", "Jpan", "Hang", "Mixed"]
        let entries = CorpusEntry.all.filter { scripts.contains($0.script) }
        #expect(Set(entries.map(\.script)) == Set(scripts))
        let comparisons = try Self.compare(entries)
        for comparison in comparisons where !comparison.linesAgree {
            // Legitimate differences, each checked to be what it claims to be.
            switch comparison.entry.script {
            case "Thai":
                // Pango breaks Thai with libthai's dictionary, Galley with ICU's: where they
                // disagree, Pango broke somewhere ICU's dictionary finds no word boundary.
                let icu = ICUReference.lineBreaks(comparison.entry.text, locale: "th")
                let scalars = Array(comparison.entry.text.unicodeScalars)
                let pangoOnly = Set(comparison.pango.lineStarts).subtracting(comparison.galley.lineStarts)
                for start in pangoOnly {
                    let utf16 = String(String.UnicodeScalarView(scalars[..<start])).utf16.count
                    #expect(!icu.contains(utf16), "Pango and ICU agree on a break at \(start) yet lines differ: \(comparison.entry.text)")
                }
            case "Jpan":
                // Pango breaks Japanese strictly; with ICU's strict rules the two must agree.
                let strict = try Shared.engine.measure(
                    comparison.entry.text, style: Shared.style(Self.size), width: comparison.width,
                    paragraph: ParagraphStyle(language: "ja@lb=strict"))
                #expect(strict.lineStarts == comparison.pango.lineStarts, "\(comparison.entry.text)")
            default:
                Issue.record("lines differ: \(Self.report([comparison]))")
            }
        }
        let heightMismatches = comparisons.filter { $0.linesAgree && $0.heightDifference > 0.5 }
        #expect(heightMismatches.isEmpty, "\(Self.report(heightMismatches))")
    }

    @Test("Colour emoji: Pango's FT2 backend does not scale bitmap strikes; the rest agrees")
    func emoji() throws {
        let entries = CorpusEntry.all.filter { $0.script == "Zsye" }
        #expect(!entries.isEmpty)
        for entry in entries {
            // Noto Color Emoji has only 109 px bitmaps (CBDT). pangoft2 measures them unscaled, so
            // its emoji are about 109 px wide whatever the size. With the emoji taken out, the
            // two engines must agree again.
            let pango = PangoMeasurer.shared.measure(entry.text, size: Self.size, width: 480, language: nil)
            let galley = try Shared.engine.measure(entry.text, style: Shared.style(Self.size), width: 480)
            #expect(pango.height > galley.size.height * 3, "\(entry.text): Pango \(pango.height), Galley \(galley.size.height)")
            let stripped = String(
                entry.text.filter { character in
                    !character.unicodeScalars.contains { $0.properties.isEmojiPresentation || $0.value == 0xFE0F || $0.value == 0x20E3 }
                })
            for width in Self.widths {
                let pangoStripped = PangoMeasurer.shared.measure(stripped, size: Self.size, width: width, language: nil)
                let galleyStripped = try Shared.engine.measure(stripped, style: Shared.style(Self.size), width: width)
                #expect(galleyStripped.lineCount == pangoStripped.lineCount, "\(stripped) at \(width)")
                #expect(abs(galleyStripped.size.height - pangoStripped.height) <= 0.5, "\(stripped) at \(width)")
            }
        }
    }

    @Test("Bold and italic faces agree with Pango's choice of the same faces")
    func weightsAndSlants() throws {
        let entries = CorpusEntry.all.filter { $0.script == "Latn" }.prefix(60)
        for entry in entries {
            for (weight, italic) in [(700, false), (400, true), (700, true)] {
                let galley = try Shared.engine.measure(entry.text, style: Shared.style(Self.size, weight: weight, italic: italic), width: 200)
                let pango = PangoMeasurer.shared.measure(entry.text, size: Self.size, weight: weight, italic: italic, width: 200, language: nil)
                #expect(galley.lineCount == pango.lineCount, "\(weight) \(italic): \(entry.text)")
                if galley.lineCount == pango.lineCount { #expect(abs(galley.size.height - pango.height) <= 0.5) }
            }
        }
    }
}

// Galley against Pango (pangoft2) on the same font files: line counts and heights.

import Foundation
import GalleyText
import Testing

@Suite("Differential tests against Pango")
struct PangoDifferentialTests {
    static let widths: [Double] = [120, 200, 320, 480]
    static let size = 15.0

    struct Comparison {
        var entry: CorpusEntry
        var width: Double
        var galley: TextMeasurement
        var pango: PangoReferenceEngine.Result
        var linesAgree: Bool { galley.lineCount == pango.lineCount }
        var heightDifference: Double { abs(galley.size.height - pango.height) }
    }

    static func compare(_ entries: [CorpusEntry], paragraph: (CorpusEntry) -> ParagraphStyle = { ParagraphStyle(language: $0.lang) }) throws -> [Comparison] {
        var comparisons: [Comparison] = []
        for entry in entries {
            for width in widths {
                let galley = try Shared.engine.measure(entry.text, style: Shared.style(size), width: width, paragraph: paragraph(entry))
                let pango = PangoReferenceEngine.shared.measure(entry.text, size: size, width: width, language: entry.lang)
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
}

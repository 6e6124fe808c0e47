// Glyph runs against HarfBuzz: the ids, advances and positions a renderer draws.

import GalleyText
import Testing

@Suite("Glyph runs")
struct GlyphRunTests {
    @Test("Each line's glyphs are HarfBuzz's for its words and spaces, placed by their advances", arguments: [Double.infinity, 160])
    func glyphsMatchHarfBuzz(width: Double) throws {
        let reference = HarfBuzzReference.notoSans
        let size = 15.0
        let scale = size / reference.unitsPerEm
        let entries = CorpusEntry.all.filter { $0.script == "Latn" && $0.lang == "en" && reference.covers($0.text) }
        #expect(entries.count > 20)
        for entry in entries {
            let layout = try Shared.engine.layout(
                entry.text, style: Shared.style(size), width: width, paragraph: ParagraphStyle(language: "en"))
            let utf16 = Array(entry.text.utf16)
            for (index, line) in layout.lines.enumerated() {
                // The line's text without the spaces it ends with (they hang, undrawn), in words
                // and single spaces shaped apart, as Galley shapes them.
                var units = Array(utf16[line.utf16Range])
                while units.last == 0x20 { units.removeLast() }
                let text = String(decoding: units, as: UTF16.self)
                let pieces = text.split(separator: " ", omittingEmptySubsequences: false)
                    .map(String.init).enumerated().flatMap { position, word in position == 0 ? [word] : [" ", word] }
                let expected = pieces.filter { !$0.isEmpty }.flatMap { reference.glyphs(of: $0, script: "Latn", language: "en") }
                let runs = layout.glyphRuns.filter { $0.lineIndex == index }
                #expect(runs.flatMap(\.glyphs) == expected.map(\.id), "\(entry.text), line \(index)")
                let drawn = runs.flatMap { run in run.positions.indices.map { (run.positions[$0], run.advances[$0]) } }
                guard drawn.count == expected.count else { continue }
                var x = line.x
                for (glyph, (position, advance)) in zip(expected, drawn) {
                    #expect(abs(advance - Double(glyph.advance) * scale) < 1e-9, "\(entry.text)")
                    #expect(abs(position.x - (x + Double(glyph.xOffset) * scale)) < 1e-9, "\(entry.text)")
                    #expect(abs(position.y - (line.baseline - Double(glyph.yOffset) * scale)) < 1e-9, "\(entry.text)")
                    x += Double(glyph.advance) * scale
                }
            }
        }
    }

    @Test("Each glyph run names the styled run its text is in, an ellipsis the run where the text is cut")
    func runsNameTheirStyle() throws {
        let bold = TextStyle(font: .family("Noto Sans", weight: 700), size: 15)
        let body = Shared.style(15)
        var text = AttributedText("Ada ", style: bold)
        text.append("replied to your post about \u{05E9}\u{05DC}\u{05D5}\u{05DD} rows, ", style: body)
        text.append("9:41 PM", style: TextStyle(font: .family("Noto Sans"), size: 12))
        for width in [Double.infinity, 120, 60] {
            let layout = try Shared.engine.layout(text, width: width, paragraph: ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 2))
            #expect(Set(layout.glyphRuns.map(\.styleIndex)).isSubset(of: Set(text.runs.indices)))
            for run in layout.glyphRuns where !run.isEllipsis {
                for cluster in run.clusters { #expect(text.runs[run.styleIndex].range.contains(cluster), "cluster \(cluster) at \(width)") }
                #expect(run.size == text.runs[run.styleIndex].style.size)
            }
            for run in layout.glyphRuns where run.isEllipsis {
                let cut = try #require(run.clusters.first)
                #expect(text.runs[run.styleIndex].range.contains(max(0, cut - 1)) || text.runs[run.styleIndex].range.contains(cut), "ellipsis at \(cut)")
            }
        }
        #expect(try Shared.engine.layout(text, width: .infinity).glyphRuns.map(\.styleIndex).contains(2))
    }
}

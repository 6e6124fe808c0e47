// Measured = rendered, against Pango: the differential corpus drawn by Galley and cairo and by
// Pango and pangocairo, on the same font files, unhinted; each line's ink compared.

import Foundation
import GalleyRender
import GalleyText
import PangoComparison
import Testing

@Suite("Measured = rendered: the corpus, line by line, against the fonts and against Pango")
struct PangoInkTests {
    typealias F = RenderFixture

    struct CorpusEntry: Decodable {
        var script: String
        var lang: String?
        var text: String
    }

    /// The differential tests' corpus (Tests/GalleyTextTests/Fixtures/corpus.json).
    static let corpus: [CorpusEntry] = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("GalleyTextTests/Fixtures/corpus.json")
        do { return try JSONDecoder().decode([CorpusEntry].self, from: Data(contentsOf: url)) } catch { fatalError("cannot read \(url.path): \(error)") }
    }()

    static let pango: PangoMeasurer = {
        do { return try PangoMeasurer.bundled(forDrawing: true) } catch { fatalError("\(error)") }
    }()

    @Test(
        "Each line of the corpus draws inside its fonts' head boxes; where the engines break alike, within a device pixel of Pango's (all but one line in 500: three)",
        arguments: [120.0, 320])
    func inkAgreesWithPango(width: Double) throws {
        let (size, scale, margin) = (15.0, 2.0, 16.0)
        let style = TextStyle(font: .family("Noto Sans"), size: size)
        var headBoxes: [String: F.HeadBox] = [:]
        var (linesDrawn, linesCompared) = (0, 0)
        var disagreements: [String] = []
        for entry in Self.corpus {
            let layout = try F.engine.layout(entry.text, style: style, width: width, paragraph: ParagraphStyle(language: entry.lang))
            let breaks = Self.pango.measure(entry.text, size: size, width: width, language: entry.lang)
            let breakAlike = breaks.lineStarts == layout.lines.dropFirst().map(\.scalarRange.lowerBound)
            let pangoInk =
                breakAlike ? Self.pango.inkBoxes(of: entry.text, size: size, width: width, language: entry.lang, scale: scale, margin: margin) : []
            if breakAlike && pangoInk.count != layout.lines.count {
                disagreements.append("\(entry.script): \(pangoInk.count) lines drawn by Pango, \(layout.lines.count) by Galley")
            }
            for index in layout.lines.indices {
                var alone = layout
                alone.glyphRuns = layout.glyphRuns.filter { $0.lineIndex == index && !$0.glyphs.isEmpty }
                let image = try RenderedImage.text(alone, size: LayoutSize(width: width, height: layout.size.height), margin: margin, scale: scale)
                let ink = image.inkBox
                if let ink {
                    linesDrawn += 1
                    let bound = F.inkBound(of: alone.glyphRuns, headBoxes: &headBoxes)
                    #expect(
                        bound.contains(ink, scale: scale, margin: margin),
                        "\(entry.script) line \(index): ink \(ink) outside \(bound) in \(Set(alone.glyphRuns.map(\.face.description)).sorted())")
                }
                guard breakAlike, index < pangoInk.count else { continue }
                let galleyLine = ink.map { PangoMeasurer.InkBox(left: $0.minX, top: $0.minY, right: $0.maxX, bottom: $0.maxY) }
                guard let galleyLine, let pangoLine = pangoInk[index] else {
                    if (galleyLine == nil) != (pangoInk[index] == nil) { disagreements.append("\(entry.script) line \(index): ink in one drawing only") }
                    continue
                }
                linesCompared += 1
                let edges = [
                    galleyLine.left - pangoLine.left, galleyLine.top - pangoLine.top, galleyLine.right - pangoLine.right,
                    galleyLine.bottom - pangoLine.bottom,
                ]
                if edges.contains(where: { abs($0) > 1 }) {
                    disagreements.append("\(entry.script) line \(index) at \(width): galley \(galleyLine), pango \(pangoLine): \(entry.text.prefix(60))")
                    #expect(!edges.contains { abs($0) > 3 }, "\(disagreements.last!)")
                }
            }
        }
        #expect(linesDrawn > linesCompared && linesCompared > 500, "\(linesDrawn) lines drawn, \(linesCompared) compared")
        // A line of Hangul or kanji with Latin text may end a pixel or two lower in Galley's
        // drawing than in Pango's: rarely, and never by more.
        #expect(
            disagreements.count * 500 <= linesCompared,
            "\(disagreements.count) of \(linesCompared) lines:\n\(disagreements.prefix(15).joined(separator: "\n"))")
    }
}

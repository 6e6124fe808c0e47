// Measured = rendered, against Pango: the differential corpus drawn by Galley and cairo and by
// Pango and pangocairo, on the same font files, unhinted; each line's ink compared.

import Foundation
import GalleyRender
import GalleyTestSupport
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
        let url = PackagePaths.root.appendingPathComponent("Tests/GalleyTextTests/Fixtures/corpus.json")
        do { return try JSONDecoder().decode([CorpusEntry].self, from: Data(contentsOf: url)) } catch { fatalError("cannot read \(url.path): \(error)") }
    }()

    static let pango: PangoMeasurer = {
        do { return try PangoMeasurer.bundled(forDrawing: true) } catch { fatalError("\(error)") }
    }()

    @Test(
        "Each line of the corpus draws inside its fonts' head boxes and, where the engines break alike, within a device pixel of Pango's",
        arguments: [120.0, 200, 320, 480])
    func inkAgreesWithPango(width: Double) throws {
        let (size, scale, margin) = (15.0, 2.0, 16.0)
        let style = TextStyle(font: .family("Noto Sans"), size: size)
        var headBoxes: [String: F.HeadBox] = [:]
        var (linesDrawn, linesCompared, linesMoved) = (0, 0, 0)
        var disagreements: [String] = []
        for entry in Self.corpus {
            let layout = try F.engine.layout(entry.text, style: style, width: width, paragraph: ParagraphStyle(language: entry.lang))
            let breaks = Self.pango.measure(entry.text, size: size, width: width, language: entry.lang)
            let breakAlike = breaks.lineStarts == layout.lines.dropFirst().map(\.scalarRange.lowerBound)
            let pangoLines =
                breakAlike ? Self.pango.drawnLines(of: entry.text, size: size, width: width, language: entry.lang, scale: scale, margin: margin) : []
            if breakAlike && pangoLines.count != layout.lines.count {
                disagreements.append("\(entry.script): \(pangoLines.count) lines drawn by Pango, \(layout.lines.count) by Galley")
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
                guard breakAlike, index < pangoLines.count else { continue }
                let galleyLine = ink.map { PangoMeasurer.InkBox(left: $0.minX, top: $0.minY, right: $0.maxX, bottom: $0.maxY) }
                guard let galleyLine, let pangoLine = pangoLines[index].ink else {
                    if (galleyLine == nil) != (pangoLines[index].ink == nil) { disagreements.append("\(entry.script) line \(index): ink in one drawing only") }
                    continue
                }
                linesCompared += 1
                // Where Pango moved a run off the line's baseline (which UIKit never does), only
                // the line's left and right edges can agree.
                if pangoLines[index].movesRuns { linesMoved += 1 }
                let edges =
                    [galleyLine.left - pangoLine.left, galleyLine.right - pangoLine.right]
                    + (pangoLines[index].movesRuns ? [] : [galleyLine.top - pangoLine.top, galleyLine.bottom - pangoLine.bottom])
                if edges.contains(where: { abs($0) > 1 }) {
                    disagreements.append("\(entry.script) line \(index): galley \(galleyLine), pango \(pangoLine): \(entry.text.prefix(60))")
                }
            }
        }
        #expect(
            linesDrawn > linesCompared && linesCompared > 500 && linesMoved * 20 < linesCompared,
            "\(linesDrawn) lines drawn, \(linesCompared) compared, \(linesMoved) with runs Pango moved")
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(linesCompared) lines:\n\(disagreements.prefix(15).joined(separator: "\n"))")
    }
}

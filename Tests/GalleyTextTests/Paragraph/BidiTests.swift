// Right-to-left and mixed-direction text: levels, visual order, natural alignment.

import GalleyTestSupport
import GalleyText
import Testing

@Suite("Bidirectional text")
struct BidiTests {
    @Test("Hebrew paragraphs are right-to-left and align right by default")
    func rightToLeftParagraph() throws {
        let text = "שמירת שינויים"
        let layout = try Shared.engine.layout(text, style: Shared.style(17), width: 300)
        let line = try #require(layout.lines.first)
        #expect(line.baseLevel == 1)
        #expect(abs(line.x - (300 - line.width)) < 1e-9)
        let run = try #require(layout.glyphRuns.first)
        #expect(run.bidiLevel == 1)
        #expect(run.face.familyName == "Noto Sans Hebrew")
        // Visual order is the reverse of logical order.
        #expect(run.clusters == run.clusters.sorted(by: >))
    }

    @Test("Mixed text: runs are in visual order, each in its own direction")
    func mixedDirections() throws {
        let text = "The word שלום means peace"
        let layout = try Shared.engine.layout(text, style: Shared.style(17), width: 1000)
        let runs = layout.glyphRuns.filter { !$0.glyphs.isEmpty }
        // "The word " and " means peace" are left-to-right around the one right-to-left run.
        let rightToLeft = runs.indices.filter { runs[$0].bidiLevel == 1 }
        #expect(rightToLeft.count == 1)
        let hebrew = try #require(rightToLeft.first)
        #expect(hebrew > 0 && hebrew < runs.count - 1)
        #expect(runs[hebrew].clusters == [12, 11, 10, 9])
        let xs = runs.flatMap(\.positions).map(\.x)
        #expect(xs == xs.sorted())
        #expect(layout.lines[0].baseLevel == 0 && layout.lines[0].x == 0)
    }

    @Test("In a right-to-left paragraph, runs come in visual order: the last Hebrew word leftmost")
    func rightToLeftRunOrder() throws {
        // Logically: שלום (0–3), space, world (5–9), space, עולם (11–14). Visually, from the
        // left: עולם, world (left to right inside), שלום.
        let text = "שלום world עולם"
        let layout = try Shared.engine.layout(text, style: Shared.style(17), width: 1000)
        let runs = layout.glyphRuns.filter { !$0.glyphs.isEmpty }
        let xs = runs.flatMap(\.positions).map(\.x)
        #expect(xs == xs.sorted())
        #expect(try #require(runs.first).clusters.allSatisfy { $0 >= 10 })
        #expect(try #require(runs.last).clusters.allSatisfy { $0 <= 4 })
        #expect(runs.contains { $0.clusters == [5, 6, 7, 8, 9] && $0.bidiLevel == 2 })
    }

    @Test("A forced right-to-left direction flips English text's base level")
    func forcedDirection() throws {
        let layout = try Shared.engine.layout("Hello", style: Shared.style(17), width: 200, paragraph: ParagraphStyle(direction: .rightToLeft))
        #expect(layout.lines[0].baseLevel == 1)
        #expect(abs(layout.lines[0].x + layout.lines[0].width - 200) < 1e-9)
    }

    @Test("Each paragraph finds its own direction")
    func paragraphsFindTheirDirection() throws {
        let layout = try Shared.engine.layout("Hello\nשלום", style: Shared.style(17), width: 200)
        #expect(layout.lines.map(\.baseLevel) == [0, 1])
    }

    @Test("Arabic is shaped with joining forms and measured like HarfBuzz shapes it")
    func arabicWidth() throws {
        let word = "مرحبا"
        let reference = HarfBuzzReference(path: PackagePaths.font("NotoSansArabic-Regular.ttf"))
        let measurement = try Shared.engine.measure(word, style: Shared.style(17), width: 500)
        #expect(abs(measurement.size.width - reference.width(of: word, size: 17)) < 1e-6)
    }
}

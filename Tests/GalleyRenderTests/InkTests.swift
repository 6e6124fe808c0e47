// Measured = rendered: every label's ink lies where its measured lines and frame say, beyond
// them only by the overhangs each font's head box allows; nothing is measured to draw.

import GalleyLayout
import GalleyRender
import GalleyText
import Testing

@Suite("Measured = rendered: ink stays inside")
struct InkTests {
    typealias F = RenderFixture

    @Test("Every built-in template's labels draw inside their line boxes and frames, and frames inside rows", arguments: [320.0, 375, 768])
    func builtInRows(width: Double) throws {
        let scale = 2.0
        let pixel = 1 / scale
        let margin = 24.0
        var headBoxes: [String: F.HeadBox] = [:]
        var linesWithInk = 0
        for row in try F.rows(width: width, scale: scale) {
            for node in row.nodes {
                guard let label = node.label, label.frame != .zero else { continue }
                let place = "\(row.itemID).\(node.name ?? "unnamed label") at \(width)"
                let layout = try #require(label.layout, "\(place): no text layout")
                let frame = label.frame
                #expect(
                    frame.minX >= -1e-9 && frame.maxX <= row.width + 1e-9 && frame.minY >= -1e-9 && frame.maxY <= row.height + 1e-9,
                    "\(place): frame \(frame) outside the row")
                for (index, line) in layout.lines.enumerated() {
                    // The measured line box inside the label's frame. Frames snap each edge to the
                    // nearest pixel while text keeps its measured place, so a line may cross a
                    // snapped side by less than half a pixel (a right-aligned line, its right side).
                    #expect(
                        line.x >= -pixel / 2 && line.x + line.width <= frame.width + pixel / 2,
                        "\(place) line \(index): \(line.x) + \(line.width) > \(frame.width)")
                    #expect(line.top >= -1e-9 && line.top + line.height <= frame.height + pixel, "\(place) line \(index): below the frame")
                    var alone = layout
                    alone.glyphRuns = layout.glyphRuns.filter { $0.lineIndex == index && !$0.glyphs.isEmpty }
                    guard !alone.glyphRuns.isEmpty else { continue }
                    // The glyph origins on the line, from its start to its measured end; the ink
                    // where the fonts' head boxes let it go around them.
                    for position in alone.glyphRuns.flatMap(\.positions) {
                        #expect(
                            position.x >= line.x - 1e-6 && position.x <= line.x + line.width + 1e-6,
                            "\(place) line \(index): a glyph at \(position.x) off the line")
                    }
                    let bound = F.inkBound(of: alone.glyphRuns, headBoxes: &headBoxes)
                    let image = try RenderedImage.text(
                        alone, size: LayoutSize(width: frame.width, height: frame.height), margin: margin, scale: scale)
                    guard let ink = image.inkBox else { continue }
                    linesWithInk += 1
                    #expect(bound.contains(ink, scale: scale, margin: margin), "\(place) line \(index): ink \(ink) outside the head boxes \(bound)")
                    // Nothing below the row but a descender's overhang past the line box.
                    let overhang = max(0, bound.bottom - (line.top + line.height))
                    #expect(
                        frame.y + Double(ink.maxY) / scale - margin <= row.height + overhang + pixel, "\(place) line \(index): ink below the row")
                }
            }
        }
        #expect(linesWithInk > 100)
    }

    @Test("Drawing a sheet shapes and breaks nothing: the engine's counters stay as they were")
    func drawingMeasuresNothing() throws {
        // An engine of its own: other tests measure with the shared one meanwhile.
        let engine = try TextEngine()
        let environment = LayoutEnvironment(textEngine: engine, scale: 2)
        let rows = try BuiltInTemplates.all.keys.sorted().map { kind in
            try F.registry.template(forKind: kind)!.measure(F.item(for: kind, 0), width: 375, environment: environment).arranged()
        }
        let before = engine.counters
        for format in RenderFormat.allCases { _ = try RowSheet(columns: [rows], scale: 2, showsFrames: true).data(as: format) }
        _ = try RowSheet(columns: [rows], scale: 2).image()
        #expect(engine.counters == before && before.paragraphsShaped > 0)
    }
}

@Suite("Accessories")
struct AccessoryTests {
    typealias F = RenderFixture

    @Test("Each accessory the item names is arranged with its kind and drawn inside its frame, each kind differently")
    func accessoriesDrawInTheirFrames() throws {
        let template = try #require(F.registry.template(forKind: "uikit.default"))
        var drawn: [[UInt32]] = []
        for kind in Node.Accessory.Kind.allCases where kind != .none {
            // No text: the accessory is all the row draws.
            let item = ItemDescriptor(id: kind.rawValue, kind: "uikit.default", fields: ["accessory": .string(kind.rawValue)])
            let row = try template.measure(item, width: 320, environment: F.environment(scale: 2)).arranged()
            let node = try #require(row.nodes.first { $0.type == "accessory" })
            #expect(node.accessory == kind && !node.isCollapsed)
            let image = try RowSheet(columns: [[row]], scale: 2, background: nil, drawsSeparators: false).image()
            let ink = try #require(image.inkBox, "\(kind) drew nothing")
            let frame = node.frame
            #expect(
                Double(ink.minX) / 2 >= frame.minX - 0.5 && Double(ink.maxX) / 2 <= frame.maxX + 0.5 && Double(ink.minY) / 2 >= frame.minY - 0.5
                    && Double(ink.maxY) / 2 <= frame.maxY + 0.5, "\(kind): ink \(ink) outside \(frame)")
            drawn.append(image.pixels)
        }
        #expect(Set(drawn).count == drawn.count)
        // A template's own kind when the item names none.
        let linked = try F.registry.template(forKind: "text")!.measure(F.item(for: "text", 0), width: 320, environment: F.environment(scale: 2))
        #expect(linked.arranged().nodes.first { $0.type == "accessory" }?.accessory == .disclosureIndicator)
    }
}

@Suite("Colours")
struct ColorTests {
    typealias F = RenderFixture

    @Test("A label's styled runs draw in their own colours: a black name, then a blue time")
    func styledRunsTakeTheirColours() throws {
        let template = try #require(F.registry.template(forKind: "styledText"))
        let item = ItemDescriptor(
            id: "runs", kind: "styledText",
            fields: ["runs": [["text": "Ada replied ", "style": "tableFont"], ["text": "at 9:41", "style": "tableTimestampFont"]]])
        let row = try template.measure(item, width: 320, environment: F.environment(scale: 2)).arranged()
        let label = try #require(row.labels["text"])
        #expect(label.colorRuns.map(\.color) == ["#000000", "#2470D8"])
        let layout = try #require(label.layout)
        // Where the second run's glyphs start, in pixels.
        let secondRun = label.colorRuns[1].range
        let boundary = layout.glyphRuns.flatMap { run in run.glyphs.indices.filter { secondRun.contains(run.clusters[$0]) }.map { run.positions[$0].x } }.min()!
        let split = Int(((label.frame.x + boundary) * 2).rounded())
        let image = try RowSheet(columns: [[row]], scale: 2, background: nil, drawsSeparators: false).image()
        var solid = (black: 0, blue: 0)
        for y in 0..<image.height {
            for x in 0..<image.width where image.alpha(x: x, y: y) == 255 {
                let pixel = image.pixels[y * image.width + x]
                let (red, green, blue) = (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
                if x < split {
                    #expect(red < 40 && green < 40 && blue < 40, "(\(x), \(y)) is not black")
                    solid.black += 1
                } else if x > split + 1 {
                    #expect(abs(red - 0x24) < 8 && abs(green - 0x70) < 8 && abs(blue - 0xD8) < 8, "(\(x), \(y)) is not #2470D8")
                    solid.blue += 1
                }
            }
        }
        #expect(solid.black > 50 && solid.blue > 50)
    }

    @Test(
        "Colour emoji draw in colour, from the bundled colour font's bitmaps, inside their line box, in either direction",
        arguments: ["😀🎉", "A 😀 B", "مرحبا 😀 x", "مرحبا 😀"])
    func colorEmoji(_ text: String) throws {
        let layout = try F.engine.layout(text, style: TextStyle(font: .family("Noto Sans"), size: 24), width: 320)
        #expect(layout.glyphRuns.contains { $0.face.hasColorGlyphs })
        // As wide as the width laid out at: right-to-left lines sit at its right.
        let image = try RenderedImage.text(layout, size: LayoutSize(width: 320, height: layout.size.height), margin: 8, scale: 2)
        let colored = image.pixels.filter { pixel in
            let (red, green, blue) = (Int(pixel >> 16 & 0xFF), Int(pixel >> 8 & 0xFF), Int(pixel & 0xFF))
            return pixel >> 24 == 0xFF && (abs(red - green) > 60 || abs(green - blue) > 60)
        }
        #expect(colored.count > 200, "\(colored.count) coloured pixels")
        let box = image.inkBox
        let ink = try #require(box)
        let line = try #require(layout.lines.first)
        // Bitmap glyphs are scaled to the line: their ink stays within its box, give or take a pixel.
        #expect(Double(ink.minY) / 2 - 8 >= line.top - 1 && Double(ink.maxY) / 2 - 8 <= line.top + line.height + 1, "\(ink) against \(line)")
    }
}

// The files a sheet is written as: PNG of the size width × scale, SVG that parses, PDF that
// opens; the same bytes for the same rows; clear errors for what cannot be drawn.

import Foundation
import GalleyLayout
import GalleyRender
import GalleyText
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

@Suite("Sheets as PNG, SVG and PDF")
struct OutputTests {
    typealias F = RenderFixture

    /// A sheet of two widths' rows of three kinds.
    static func sheet(scale: Double, widths: [Double] = [320, 375]) throws -> RowSheet {
        let columns = try widths.map { width in
            try ["message", "subtitle", "text"].flatMap { kind in
                try (0..<2).map {
                    try F.registry.template(forKind: kind)!.measure(F.item(for: kind, $0), width: width, environment: F.environment(scale: scale)).arranged()
                }
            }
        }
        return RowSheet(columns: columns, scale: scale)
    }

    @Test("A PNG is the sheet's size in points times the scale, in pixels", arguments: [1.0, 2, 3])
    func pngSize(scale: Double) throws {
        let sheet = try Self.sheet(scale: scale)
        let png = try sheet.data(as: .png)
        #expect(Array(png.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        func bigEndian(_ offset: Int) -> Int { png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        let expectedWidth = Int((sheet.size.width * scale).rounded(.up))
        let expectedHeight = Int((sheet.size.height * scale).rounded(.up))
        #expect(bigEndian(16) == expectedWidth && bigEndian(20) == expectedHeight)
        #expect(sheet.size.width == 320 + RowSheet.gutter + 375)
        let image = try sheet.image()
        #expect(image.width == expectedWidth && image.height == expectedHeight)
    }

    @Test("SVG parses as XML: an svg element the sheet's size in points, a group for each row, every id once")
    func svgParses() throws {
        let sheet = try Self.sheet(scale: 2)
        let svg = try sheet.data(as: .svg)
        let delegate = RootElement()
        let parser = XMLParser(data: Data(svg))
        parser.delegate = delegate
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(delegate.name == "svg")
        #expect(delegate.attributes["width"] == "\(Self.points(sheet.size.width))pt")
        #expect(delegate.attributes["height"] == "\(Self.points(sheet.size.height))pt")
        #expect(delegate.rowGroups == sheet.columns.reduce(0) { $0 + $1.count })
        #expect(!delegate.ids.isEmpty && Set(delegate.ids).count == delegate.ids.count)
        // Every reference names an id of the document.
        #expect(Set(delegate.references).isSubset(of: Set(delegate.ids)) && !delegate.references.isEmpty)
    }

    /// `value` as cairo writes a length: without a fraction when it has none.
    static func points(_ value: Double) -> String { value == value.rounded() ? "\(Int(value))" : "\(value)" }

    @Test("PDF opens: pdftoppm makes an image of it the sheet's size")
    func pdfOpens() throws {
        let sheet = try Self.sheet(scale: 2, widths: [375])
        let pdf = try sheet.data(as: .pdf)
        #expect(String(decoding: pdf.prefix(5), as: UTF8.self) == "%PDF-")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("galley-pdf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("sheet.pdf")
        try Data(pdf).write(to: file)
        // At 144 dots an inch, two pixels a point. Through the shell, not Foundation's Process,
        // which on Linux keeps objects of every process it ran (the sanitizer reports them).
        let status = system("pdftoppm -png -r 144 -singlefile '\(file.path)' '\(folder.appendingPathComponent("page").path)'")
        #expect(status == 0)
        let page = try Data(contentsOf: folder.appendingPathComponent("page.png"))
        func bigEndian(_ offset: Int) -> Int { page[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        #expect(abs(bigEndian(16) - Int(sheet.size.width * 2)) <= 1 && abs(bigEndian(20) - Int(sheet.size.height * 2)) <= 1)
    }

    @Test("The same rows make the same bytes, in every format")
    func deterministic() throws {
        for format in RenderFormat.allCases {
            let first = try Self.sheet(scale: 2).data(as: format)
            let second = try Self.sheet(scale: 2).data(as: format)
            let same = first == second  // compared apart: a failure would print every byte
            #expect(same, "\(format)")
        }
    }

    @Test("Formats by file extension")
    func formatsByExtension() {
        #expect(RenderFormat(path: "out/sheet.PNG") == .png && RenderFormat(path: "a.svg") == .svg && RenderFormat(path: "b.pdf") == .pdf)
        #expect(RenderFormat(path: "sheet") == nil && RenderFormat(path: "a.jpg") == nil && RenderFormat(path: "dir.png/sheet") == nil)
    }

    @Test("What cannot be drawn is a clear error: a bad scale, a sheet too large, rows without text layouts")
    func errors() throws {
        let rows = try Self.sheet(scale: 2).columns
        for scale in [0, -1, Double.nan, .infinity] {
            do {
                _ = try RowSheet(columns: rows, scale: scale).data(as: .png)
                Issue.record("scale \(scale) drew")
            } catch { #expect("\(error)".contains("is not a finite number > 0")) }
        }
        let tall = Array(repeating: rows[0][0], count: 20_000)
        #expect(throws: RenderError.tooLarge(width: 320, height: tall.reduce(0) { $0 + $1.height }, scale: 2)) {
            try RowSheet(columns: [tall], scale: 2).image()
        }
        let item = F.item(for: "message", 0)
        let bare = try F.registry.template(forKind: "message")!.measure(item, width: 320, environment: F.environment(scale: 2, keepsTextLayouts: false))
        let first = try #require(bare.arranged().nodes.first { $0.label != nil && $0.frame != .zero }?.name)
        #expect(throws: RenderError.missingTextLayout(itemID: item.id, label: first)) { try RowSheet(columns: [[bare.arranged()]], scale: 2).image() }
    }

    @Test("A column is as wide as its widest row; an unnamed label is drawn too")
    func columnsAndUnnamedLabels() throws {
        let item = F.item(for: "text", 0)
        let template = try CompiledTemplate(Template(name: "plain", root: Node(.label(Node.Label(.field("text"), style: "font")), name: nil)))
        let narrow = try template.measure(item, width: 200, environment: F.environment(scale: 2)).arranged()
        let wide = try template.measure(item, width: 375, environment: F.environment(scale: 2)).arranged()
        let sheet = RowSheet(columns: [[narrow, wide], [narrow]], scale: 2, background: nil, drawsSeparators: false)
        #expect(sheet.size.width == 375 + RowSheet.gutter + 200)
        let ink = try #require(RowSheet(columns: [[narrow]], scale: 2, background: nil, drawsSeparators: false).image().inkBox)
        #expect(ink.maxX > ink.minX && narrow.labels.isEmpty)
    }

    @Test("Drawings past the bounds are refused before any memory is taken: a side, or the pixels in all")
    func bounds() throws {
        let row = try F.registry.template(forKind: "text")!.measure(F.item(for: "text", 0), width: 8_000, environment: F.environment(scale: 2))
            .arranged()
        let tall = Array(repeating: row, count: Int(8_000 / row.height) + 1)  // 16,000 pixels a side: 256 Mi pixels
        #expect(throws: RenderError.self) { try RowSheet(columns: [tall], scale: 2).image() }
        #expect(throws: RenderError.self) { try RowSheet(columns: [[row], [row], [row], [row], [row]], scale: 1).data(as: .svg) }
        #expect(try RowSheet(columns: [[row]], scale: 1).data(as: .svg).count > 0)
    }
    @Test("Rows tallied one at a time: the check fails at the first row that takes the sheet past a bound, with drawing's error")
    func tallyStopsAtTheFirstRowPast() throws {
        let row = try F.registry.template(forKind: "text")!.measure(F.item(for: "text", 0), width: 320, environment: F.environment(scale: 2))
            .arranged()
        var tally = RowSheet.Tally(columns: 2)
        var rows: [RowArrangement] = []
        var height = 0.0
        while true {
            tally.add(row, toColumn: 1)
            rows.append(row)
            height += row.height
            do {
                try tally.check(for: .png, scale: 2, maximumGlyphs: .max)
            } catch {
                // The first row whose height passes 32,767 pixels at two a point, and the error
                // drawing the rows gives.
                #expect(((height - row.height) * 2).rounded(.up) <= 32_767 && (height * 2).rounded(.up) > 32_767)
                #expect(error == .tooLarge(width: 16 + 320, height: height, scale: 2))
                #expect(throws: error) { try RowSheet(columns: [[], rows], scale: 2).image() }
                break
            }
            // In points for SVG and PDF: the same rows fit.
            try tally.check(for: .svg, scale: 2, maximumGlyphs: .max)
        }
        #expect(tally.size == RowSheet(columns: [[], rows], scale: 2).size)
    }

    @Test("A drawing of more glyphs than the sheet's bound is refused in every format; at the bound it is drawn, every glyph counted")
    func glyphsBounded() throws {
        let sheet = try Self.sheet(scale: 2)
        let glyphs = sheet.tally.glyphs
        // Each glyph cairo draws in SVG is a `use` of a glyph's symbol (`#row3-glyph0-12`): the
        // glyphs counted are those drawn.
        let svg = String(decoding: try sheet.data(as: .svg), as: UTF8.self)
        let uses = svg.components(separatedBy: "xlink:href=\"#row").dropFirst().filter { $0.drop { $0.isNumber }.hasPrefix("-glyph") }
        #expect(glyphs > 100 && uses.count == glyphs)
        var bounded = sheet
        bounded.maximumGlyphs = glyphs - 1
        for format in RenderFormat.allCases {
            #expect(throws: RenderError.tooManyGlyphs(limit: glyphs - 1)) { try bounded.data(as: format) }
        }
        #expect(throws: RenderError.tooManyGlyphs(limit: glyphs - 1)) { try bounded.image() }
        #expect("\(RenderError.tooManyGlyphs(limit: 7))" == "a drawing of more than 7 glyphs")
        bounded.maximumGlyphs = glyphs
        for format in RenderFormat.allCases { #expect(try !bounded.data(as: format).isEmpty) }
    }

}

/// The root element's name and attributes, and the ids and references below it.
final class RootElement: NSObject, XMLParserDelegate {
    var name: String?
    var attributes: [String: String] = [:]
    /// The `g` elements with a row's id, every id, and every `#id` an href names.
    var rowGroups = 0
    var ids: [String] = []
    var references: [String] = []

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String]
    ) {
        if let id = attributes["id"] {
            ids.append(id)
            if elementName == "g", id.hasPrefix("row"), !id.contains("-") { rowGroups += 1 }
        }
        if let reference = attributes["xlink:href"] ?? attributes["href"], reference.hasPrefix("#") { references.append(String(reference.dropFirst())) }
        guard name == nil else { return }
        name = elementName
        self.attributes = attributes
    }
}

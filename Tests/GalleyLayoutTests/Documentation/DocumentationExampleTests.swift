// swift-format-ignore-file
// The Swift examples of the README and the DocC articles, as they are written there: each must
// build and run, so every line of them is a line of a test here. (Not formatted: its lines are
// the documents' lines, laid out for reading.)

import Foundation
import GalleyLayout
import GalleyJSON
import GalleyTable
import GalleyTestSupport
import GalleyText
import Testing

@Suite("The documentation's examples")
struct DocumentationExampleTests {
    @Test("The README: measures text, lays out an attributed text, and measures and arranges a row")
    func readmeExample() throws {
        let engine = try TextEngine()                       // bundled fonts; share one per thread or process
        let body = TextStyle(font: .family("Noto Sans"), size: 15)
        let height = try engine.measure("Hello, world", style: body, width: 320).size.height

        var message = AttributedText("Ada ", style: TextStyle(font: .family("Noto Sans", weight: 700), size: 15))
        message.append("replied to your post", style: body)
        let layout = try engine.layout(message, width: 280,
                                       paragraph: ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 2))
        let glyphs = layout.glyphRuns.reduce(0) { $0 + $1.glyphs.count }  // each run: its face, glyphs and positions

        let item = try ItemDescriptor(json: #"{"id": 7, "kind": "message", "title": "Ada", "text": "See you at noon", "timestamp": "9:41"}"#)
        let template = try CompiledTemplate(BuiltInTemplates.message)
        let row = try template.measure(item, width: 375, environment: LayoutEnvironment(textEngine: engine, scale: 2))
        let frames = row.arranged().frames                    // ["title": LayoutRect, "message": LayoutRect, …]

        #expect(height > 0 && glyphs > 0)
        #expect(frames["title"] != nil && frames["message"] != nil && row.height > 0)
    }

    @Test("GalleyLayout's overview and getting-started article: measure, arrange, heights at several widths")
    func gettingStartedExample() throws {
        let engine = try TextEngine()
        let template = try CompiledTemplate(BuiltInTemplates.message)
        let environment = LayoutEnvironment(textEngine: engine, scale: 2)

        let item = try ItemDescriptor(json: #"{"id": 7, "kind": "message", "title": "Ada", "text": "See you at noon", "timestamp": "9:41"}"#)
        let row = try template.measure(item, width: 375, environment: environment)
        let height = row.height                    // for the table's height cache
        let arrangement = row.arranged()           // when the row comes on screen
        let titleFrame = arrangement.frames["title"]
        let frames = row.arranged().frames  // every named subview's frame
        let heights = try template.heights(item, widths: [320, 375, 768], environment: environment)

        #expect(titleFrame == frames["title"] && titleFrame != nil)
        #expect(heights[1] == height && heights.count == 3)
        do {
            let height = row.height             // the row's height, rounded up to device pixels
            #expect(height == heights[1])
        }
    }

    @Test("GalleyLayout's templates article: a template built in Swift compiles and lays out its named nodes")
    func buildingTemplatesExample() throws {
        let video = Template(name: "video", root: .hstack(spacing: 10, [
            .image("thumbnail", source: "thumbnail.url", size: .fixed(SizeSpec(width: 120, height: 68))),
            .vstack(spacing: 4, [
                .label("title", .field("title"), style: "tableFont", lines: 2, lineBreakMode: .truncateTail),
                .label("meta", .format("{author.name} · {duration|duration}"), style: "tableSubTextFont", lines: 1),
            ], flex: .fillsRow),
            .when("url", .accessory(.disclosureIndicator)),
        ]), minimumHeight: "cellMinimumHeight")
        let compiled = try CompiledTemplate(video)

        let item = try ItemDescriptor(json: #"{"id": 1, "kind": "video", "title": "Tables on Linux", "thumbnail": {"url": "t.png"}, "author": {"name": "Ada"}, "duration": 754, "url": "x"}"#)
        let frames = try compiled.measure(item, width: 375, environment: LayoutEnvironment(textEngine: TextEngine())).arranged().frames
        #expect(Set(frames.keys) == ["thumbnail", "title", "meta", "accessory"])
        #expect(frames["thumbnail"]?.width == 120 && frames["accessory"]!.maxX <= 375)
    }

    @Test("GalleyText's overview measures a string")
    func textOverviewExample() throws {
        let engine = try TextEngine()
        let body = TextStyle(font: .family("Noto Sans"), size: 15)
        let height = try engine.measure("Hello, world", style: body, width: 320).size.height
        #expect(height > 15)
    }

    @Test("GalleyTable's overview lays out a viewport and keeps the first row in place through an insert")
    func tableOverviewExample() throws {
        let engine = try TextEngine()
        let registry = try BuiltInTemplates.registry()
        let environment = LayoutEnvironment(textEngine: engine, scale: 2)
        let messages = (0..<100).map { ItemDescriptor(id: "\($0)", kind: "message", fields: ["title": "Ada", "text": .string("Message \($0)")]) }
        let newMessage = ItemDescriptor(id: "new", kind: "message", fields: ["title": "Grace", "text": "Just in"])
        var table = try TableModel(sections: [TableSection(id: "inbox", items: messages)],
                                   registry: registry, width: 375, environment: environment)
        let shown = table.layOut(viewport: 0..<812)         // measures what shows, estimates the rest
        let contentHeight = table.contentHeight              // for the scroll view
        let anchor = table.anchor(at: 0)                     // the first row on screen, to keep in place
        try table.apply([.insertRow(newMessage, at: RowIndex(section: 0, row: 0))])
        let newOffset = anchor.flatMap { table.contentOffset(keeping: $0) }

        #expect(shown.allSatisfy(\.isMeasured) && contentHeight > 812)
        #expect(newOffset == table.frame(of: .row(RowIndex(section: 0, row: 0)))?.height)
    }

    @Test("Every line of every Swift example in the README and the DocC articles is a line of a test above")
    func documentationMatches() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = PackagePaths.root
        let source = try String(contentsOf: here, encoding: .utf8)
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        let manifest = try String(contentsOf: root.appendingPathComponent("Examples/consumer/Package.swift"), encoding: .utf8)
        // A manifest's lines compared without a trailing comma, which its formatting may leave out.
        func unfinished(_ line: some StringProtocol) -> String {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            return trimmed.hasSuffix(",") ? String(trimmed.dropLast()) : trimmed
        }
        let manifestLines = Set(manifest.split(separator: "\n").map(unfinished))
        var documents = [root.appendingPathComponent("README.md")]
        for module in ["GalleyText", "GalleyLayout", "GalleyTable"] {
            let catalog = root.appendingPathComponent("Sources/\(module)/\(module).docc")
            documents += try FileManager.default.contentsOfDirectory(at: catalog, includingPropertiesForKeys: nil).filter { $0.pathExtension == "md" }
        }
        var checked = 0
        for document in documents {
            let text = try String(contentsOf: document, encoding: .utf8)
            for block in text.components(separatedBy: "```swift\n").dropFirst() {
                let code = block.components(separatedBy: "```")[0]
                // A manifest's lines are those of the package scripts/test.sh builds with Galley.
                let lines = code.contains(".package(") ? manifestLines : sourceLines
                let codeLines = code.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                for line in codeLines where !line.isEmpty && !line.hasPrefix("import ") {
                    let tested = lines == manifestLines ? lines.contains(unfinished(line)) : lines.contains(line)
                    #expect(tested, "\(document.lastPathComponent): a line not in the tested examples: \(line)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 40)
    }
}

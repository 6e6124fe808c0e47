// The README's Swift example, as it is written there: it must build and run.

import Foundation
import GalleyLayout
import GalleyText
import Testing

@Suite("The README's example")
struct ReadmeExampleTests {
    @Test("Measures text, lays out an attributed text, and measures and arranges a row")
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

    @Test("Every line of the README's Swift example is a line of the example above, so that it is compiled and run")
    func readmeMatches() throws {
        let here = URL(fileURLWithPath: #filePath)
        let readme = try String(contentsOf: here.deletingLastPathComponent().appendingPathComponent("../../../README.md").standardized, encoding: .utf8)
        let source = try String(contentsOf: here, encoding: .utf8)
        let sourceLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        // The README's first Swift block, without its imports (this file has its own).
        let block = try #require(readme.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
        let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("import ") }
        #expect(lines.count >= 10)
        for line in lines { #expect(sourceLines.contains(line), "README line not in the tested example: \(line)") }
    }
}

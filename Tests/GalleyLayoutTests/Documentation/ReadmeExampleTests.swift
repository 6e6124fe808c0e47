// The README's Swift example, as it is written there: it must build and run.

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

        let item = try Item(json: #"{"id": 7, "kind": "message", "title": "Ada", "text": "See you at noon", "timestamp": "9:41"}"#)
        let template = try CompiledTemplate(BuiltInTemplates.message)
        let row = try measure(item, template: template, width: 375, environment: LayoutEnvironment(textEngine: engine, scale: 2))
        let frames = arrange(row).frames                    // ["title": Rect, "message": Rect, …]

        #expect(height > 0 && !layout.glyphRuns.isEmpty)
        #expect(frames["title"] != nil && frames["message"] != nil && row.height > 0)
    }
}

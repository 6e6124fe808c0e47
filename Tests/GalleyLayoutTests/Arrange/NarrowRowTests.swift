// Rows narrower than their templates' insets, spacing and fixed sizes: every frame stays inside the row.

import Foundation
import GalleyJSON
import GalleyLayout
import Testing

@Suite("Rows narrower than their insets")
struct NarrowRowTests {
    /// Every built-in template and every example template, with items that have their fields.
    static func rows() throws -> [(ItemDescriptor, CompiledTemplate)] {
        var registry = try BuiltInTemplates.registry()
        let examples = SampleDataTests.root.appendingPathComponent("Examples")
        try registry.register(templatesJSON: try String(contentsOf: examples.appendingPathComponent("templates.json"), encoding: .utf8))
        var items = try String(contentsOf: examples.appendingPathComponent("items.jsonl"), encoding: .utf8)
            .split(separator: "\n").prefix(12).map { try ItemDescriptor(json: String($0)) }
        for kind in BuiltInTemplates.all.keys.sorted() {
            items.append(
                Fixture.item(
                    kind,
                    [
                        "title": "A title", "caption": "Caption", "subtitle": "Sub", "text": "Some words that wrap", "imageURL": "http://a/b.png",
                        "timestamp": "9:41 AM", "url": "galley://a",
                    ]))
        }
        return try items.map { ($0, try registry.template(for: $0)) }
    }

    @Test("At widths down to zero, every frame lies within the row, left to right and right to left", arguments: [1.0, 2.0, 3.0])
    func framesInsideRow(scale: Double) throws {
        for (item, template) in try Self.rows() {
            for direction in [LayoutEnvironment.Direction.leftToRight, .rightToLeft] {
                for width in [0, 0.5, 1, 5, 12, 19.5, 33, 90] as [Double] {
                    let environment = Fixture.environment(scale: scale, direction: direction)
                    let arrangement = try template.measure(item, width: width, environment: environment).arranged()
                    for (name, frame) in arrangement.frames {
                        let context = "\(template.template.name) \(name) at width \(width), scale \(scale), \(direction): \(frame)"
                        #expect(frame.minX >= 0 && frame.maxX <= width && frame.width >= 0, "\(context)")
                        #expect(frame.minY >= 0 && frame.maxY <= arrangement.height && frame.height >= 0, "\(context)")
                    }
                }
            }
        }
    }

    @Test("An inset wider than the row leaves its child an empty frame at the row's edge, not past it")
    func insetWiderThanRow() throws {
        let template = try CompiledTemplate(
            Template(
                name: "t",
                root: Node(
                    .inset(
                        Node.Inset(
                            Insets(all: 10), child: Node(.label(Node.Label(.field("title"), style: "font")), name: "title"))))))
        let item = Fixture.item("t", ["title": "Hello"])
        let zero = try template.measure(item, width: 0, environment: Fixture.environment(scale: 1)).arranged()
        #expect(zero.frames["title"]?.minX == 0 && zero.frames["title"]?.width == 0)
        let narrow = try template.measure(item, width: 15, environment: Fixture.environment(scale: 1)).arranged()
        #expect(narrow.frames["title"]?.minX == 10 && narrow.frames["title"]?.width == 0)
        // Where the row is wide enough, the inset is kept exactly.
        let wide = try template.measure(item, width: 320, environment: Fixture.environment(scale: 1)).arranged()
        #expect(wide.frames["title"]?.minX == 10 && wide.frames["title"]?.maxX == 310)
    }
}

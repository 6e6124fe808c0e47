// A row's heights at several widths reuse measurements across widths (see WidthSpan): they
// must equal the heights measured one width at a time, right up to the widths where a
// row's height changes.

import Foundation
import GalleyJSON
import GalleyLayout
import GalleyText
import Testing

@Suite("Heights across widths")
struct WidthSpanTests {
    /// Texts of the benchmark fixtures (labels, sentences and paragraphs in several scripts).
    static let texts: [String] = {
        let url = SampleDataTests.root.appendingPathComponent("Benchmarks/Fixtures/samples.json")
        guard let data = try? Data(contentsOf: url), case .object(let root)? = try? JSONParser.parse(Array(data)) else { return [] }
        var texts: [String] = []
        for group in ["labels", "sentences", "paragraphs"] {
            guard case .array(let samples)? = root[group] else { continue }
            for case .object(let sample) in samples { if case .string(let text)? = sample["text"] { texts.append(text) } }
        }
        return texts
    }()

    /// Templates whose stacks flex within limits: a sole flexible child with a minimum and a
    /// maximum width, one clamped at narrow widths, a vertical stack re-measuring a child for
    /// its minimum height, and a stack of two flexible children.
    static let limitTemplates = #"""
        {
          "limits.sole": {"root": {"type": "inset", "insets": {"horizontal": 8, "vertical": 4}, "child": {
            "type": "hstack", "spacing": 6, "alignment": "firstBaseline", "children": [
              {"type": "label", "name": "title", "field": "title", "style": "tableFont", "maxLines": 2, "lineBreakMode": "truncateTail",
               "grow": 1, "shrink": 1, "minLength": 60, "maxLength": 260},
              {"type": "label", "name": "timestamp", "field": "timestamp", "style": "tableTimestampFont", "maxLines": 1, "shrink": 0}]}}},
          "limits.clamped": {"root": {"type": "hstack", "children": [
            {"type": "label", "name": "title", "field": "title", "style": "tableFont", "maxLines": 1, "lineBreakMode": "truncateTail",
             "grow": 1, "shrink": 1, "minLength": 150},
            {"type": "label", "name": "caption", "field": "caption", "style": "font", "maxLines": 2, "shrink": 0, "maxLength": 120}]}},
          "limits.vertical": {"root": {"type": "hstack", "spacing": 4, "children": [
            {"type": "vstack", "grow": 1, "shrink": 1, "children": [
              {"type": "label", "name": "text", "field": "text", "style": "font", "maxLines": 2, "lineBreakMode": "truncateTail", "minLength": 50},
              {"type": "label", "name": "title", "field": "title", "style": "tableFont", "maxLines": 1, "maxLength": 12}]},
            {"type": "label", "name": "timestamp", "field": "timestamp", "style": "tableTimestampFont", "maxLines": 1, "shrink": 0}]}},
          "limits.two": {"root": {"type": "hstack", "children": [
            {"type": "label", "name": "title", "field": "title", "style": "tableFont", "maxLines": 2, "grow": 1, "shrink": 1, "maxLength": 120},
            {"type": "label", "name": "caption", "field": "caption", "style": "font", "maxLines": 2, "grow": 1, "shrink": 1}]}}
        }
        """#

    /// Items for every built-in template, the examples' templates and ``limitTemplates``, with
    /// fields of every length.
    static func cases() throws -> [(ItemDescriptor, CompiledTemplate)] {
        var registry = try BuiltInTemplates.registry()
        let examples = SampleDataTests.root.appendingPathComponent("Examples")
        let templates = try String(contentsOf: examples.appendingPathComponent("templates.json"), encoding: .utf8)
        for json in [templates, Self.limitTemplates] {
            for (kind, template) in try Template.templatesByKind(json: json) { registry.register(try CompiledTemplate(template), for: kind) }
        }
        var items = try String(contentsOf: examples.appendingPathComponent("items.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try ItemDescriptor(json: String($0)) }
        let texts = Self.texts
        try #require(texts.count > 50, "the benchmark fixtures' texts")
        let kinds = BuiltInTemplates.all.keys.sorted() + ["limits.sole", "limits.clamped", "limits.vertical", "limits.two"]
        for (index, kind) in kinds.enumerated() {
            for variant in 0..<3 {
                let pick = { (offset: Int) in JSONValue.string(texts[(index * 7 + variant * 13 + offset) % texts.count]) }
                var fields: JSONObject = [
                    "title": pick(0), "caption": pick(1), "subtitle": pick(2), "text": pick(3), "value": pick(4),
                ]
                if variant != 1 { fields["timestamp"] = "9:41 AM" }
                if variant == 2 {
                    fields["imageURL"] = "http://a/b.png"
                    fields["url"] = "galley://a"
                }
                items.append(Fixture.item(kind, fields))
            }
        }
        return try items.map { ($0, try registry.template(for: $0)) }
    }

    /// Widths where the row's height changes, found to within a billionth of a point: each is
    /// the widest width found with the lower-width height.
    static func heightChanges(_ item: ItemDescriptor, _ template: CompiledTemplate, _ environment: LayoutEnvironment) throws -> [Double] {
        func height(_ width: Double) throws -> Double { try template.measure(item, width: width, environment: environment).height }
        var changes: [Double] = []
        var previous = (width: 0.0, height: try height(0))
        for width in stride(from: 9.0, through: 900, by: 9) {
            let current = try height(width)
            if current != previous.height {
                var (low, high) = (previous.width, width)
                while high - low > 1e-9 {
                    let middle = (low + high) / 2
                    if try height(middle) == previous.height { low = middle } else { high = middle }
                }
                changes.append(low)
            }
            previous = (width, current)
        }
        return changes
    }

    @Test("Heights at widths on both sides of every change of height equal those measured one at a time")
    func heightsAroundChanges() throws {
        let environment = Fixture.environment(scale: 2)
        let memory = LayoutContext()
        var changesSeen = 0
        for (item, template) in try Self.cases() {
            let changes = try Self.heightChanges(item, template, environment)
            changesSeen += changes.count
            // Each width set starts from the widest (measured first), then crosses each change
            // going down and going up, so that a span made on either side is tried on the other.
            var widthSets: [[Double]] = [[900, 414, 375, 320, 90, 0]]
            var pool: [Double] = [0, 45, 90, 160, 320, 414, 900]
            for change in changes {
                let near = [change - 1e-6, change + 1e-6, change - 1e-9, change + 1e-9, change, change + 0.5, change - 0.5]
                widthSets.append([900] + near)
                widthSets.append([900] + near.reversed())
                widthSets.append(near + [change / 2])
                pool += near
            }
            // And widths drawn from all of those in no particular order (a fixed sequence):
            // every measurement's span, made at any width, is tried at the others.
            var random = UInt64(changes.count + 1)
            for _ in 0..<8 {
                widthSets.append(
                    (0..<8).map { _ in
                        random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                        return pool[Int(random >> 33) % pool.count]
                    })
            }
            for widths in widthSets {
                let alone = try widths.map { try template.measure(item, width: $0, environment: environment).height }
                #expect(try template.heights(item, widths: widths, environment: environment, context: memory) == alone, "\(item.id) at \(widths)")
            }
        }
        // The sweep found what it is for: rows whose height changes with the width.
        #expect(changesSeen > 60)
    }
}

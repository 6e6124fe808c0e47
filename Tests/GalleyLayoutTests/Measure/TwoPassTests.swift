// The measure → arrange contract: arrange never measures text, results are deterministic,
// rows measured on many threads equal rows measured on one.

import Dispatch
import Foundation
import GalleyJSON
import GalleyLayout
import GalleyLocks
import GalleyText
import Testing

@Suite("Measure and arrange")
struct TwoPassTests {
    static let item = Fixture.item(
        "message",
        [
            "title": "Joe Hewitt", "caption": "Re: heights", "text": "Measured once, arranged without measuring again.",
            "timestamp": "9:41 AM", "imageURL": "http://a/b.png",
        ])

    @Test("Arranging shapes and wraps no text: the engine's counters do not move")
    func arrangeDoesNotMeasure() throws {
        let engine = try TextEngine()
        let template = try CompiledTemplate(BuiltInTemplates.message)
        let measurement = try template.measure(Self.item, width: 375, environment: LayoutEnvironment(textEngine: engine, scale: 2))
        let afterMeasure = engine.counters
        #expect(afterMeasure.paragraphsShaped == 4)  // title, timestamp, caption, message
        #expect(afterMeasure.lineBreakPasses >= 4)
        let arrangement = measurement.arranged()
        _ = measurement.arranged()
        #expect(engine.counters == afterMeasure)
        // The text layouts handed to renderers are the ones measured.
        let message = try #require(arrangement.labels["message"]?.layout)
        #expect(message.lines.count == measurement.lineCounts["message"])
        #expect(!message.glyphRuns.isEmpty)
    }

    @Test("A row's height is the bottom of its lowest node plus the bottom inset, rounded up to pixels", arguments: [1.0, 2.0, 3.0])
    func heightIsBottomPlusInset(_ scale: Double) throws {
        let template = try CompiledTemplate(BuiltInTemplates.message)
        let measurement = try template.measure(Self.item, width: 320, environment: Fixture.environment(scale: scale))
        let arrangement = measurement.arranged()
        let lowest = arrangement.frames.values.map(\.maxY).max()!
        #expect(measurement.height == Fixture.ceil(lowest + 6, scale))
        for frame in arrangement.frames.values {
            for edge in [frame.minX, frame.minY, frame.maxX, frame.maxY] {
                #expect(abs((edge * scale).rounded() - edge * scale) < 1e-9, "\(frame) is off the pixel grid")
            }
        }
    }

    @Test("Measuring from many threads gives exactly the serial results")
    func concurrentEqualsSerial() throws {
        let registry = try BuiltInTemplates.registry()
        let items = (0..<60).map { index in
            Fixture.item(
                ["message", "text", "caption", "subtitle"][index % 4],
                [
                    "title": .string("Row \(index)"), "text": .string(String(repeating: "word ", count: index % 17 + 1)),
                    "caption": "Caption", "subtitle": "Sub", "timestamp": .string("\(index):00"),
                ])
        }
        @Sendable func heights() throws -> [Double] {
            try items.map { try registry.template(for: $0).measure($0, width: 375, environment: Fixture.environment(scale: 3)).height }
        }
        let serial = try heights()
        let results = Locked([Int: [Double]]())
        DispatchQueue.concurrentPerform(iterations: 6) { worker in
            let values = try? heights()
            results.withLock { $0[worker] = values }
        }
        for values in results.withLock({ $0.values }) { #expect(values == serial) }
    }

    @Test("Measuring at several widths in one call gives each width's own measurement")
    func severalWidthsEqualOneAtATime() throws {
        let registry = try BuiltInTemplates.registry()
        let widths: [Double] = [320, 0, 768, 375, 320, 100]
        for kind in BuiltInTemplates.all.keys.sorted() {
            let item = Fixture.item(
                kind,
                [
                    "title": "Joe Hewitt", "caption": "Re: heights", "subtitle": "Sub", "timestamp": "9:41 AM",
                    "text": "Measured once at every width, with text long enough to wrap at the narrow ones.",
                    "imageURL": "http://a/b.png", "url": "galley://row",
                ])
            let template = try registry.template(for: item)
            let environment = Fixture.environment(scale: 2)
            let together = try template.measure(item, widths: widths, environment: environment)
            #expect(together.map(\.width) == widths)
            for (width, measurement) in zip(widths, together) {
                let alone = try template.measure(item, width: width, environment: environment)
                #expect(measurement.exactHeight == alone.exactHeight, "\(kind) at \(width)")
                #expect(measurement.lineCounts == alone.lineCounts, "\(kind) at \(width)")
                #expect(measurement.arranged().nodes == alone.arranged().nodes, "\(kind) at \(width)")
                // Glyphs too: each width's labels are laid out at the widths that row offered them.
                let layouts = measurement.arranged().labels.mapValues(\.layout)
                #expect(layouts == alone.arranged().labels.mapValues(\.layout), "\(kind) at \(width)")
                for label in measurement.arranged().labels.values where label.frame.height > 0 {
                    #expect(label.layout != nil, "\(kind) at \(width)")
                }
            }
        }
    }

    @Test("Heights alone shape no one-line label of plain text, and equal the heights of rows measured with it shaped")
    func oneLineLabelsUnshaped() throws {
        let templates = try Template.templatesByKind(
            json: #"""
                {"titled": {"name": "titled", "root": {"type": "vstack", "children": [
                    {"type": "label", "name": "title", "field": "title", "style": "messageTitleFont", "maxLines": 1, "lineBreakMode": "truncateTail"},
                    {"type": "label", "name": "body", "field": "text", "style": "messageTextFont", "maxLines": 2, "lineBreakMode": "truncateTail"}
                ]}}}
                """#)
        let template = try CompiledTemplate(try #require(templates.first { $0.kind == "titled" }).template)
        // Titles of every row their own; a few have a character only a fallback face has.
        let titles = (0..<40).map { index in
            index % 10 == 9 ? "Party \(index) 🎉" : index % 2 == 0 ? "Subject number \(index)" : "Θέμα αριθμός \(index)"
        }
        let items = titles.map { Fixture.item("titled", ["title": .string($0), "text": "A body of a few words"]) }
        let widths: [Double] = [414, 320, 0]
        let engine = try TextEngine()
        let environment = LayoutEnvironment(textEngine: engine, scale: 2)
        let measured = try items.map { item in
            try widths.map { try template.measure(item, width: $0, environment: Fixture.environment(scale: 2)).height }
        }
        for (index, item) in items.enumerated() {
            #expect(try template.heights(item, widths: widths, environment: environment) == measured[index], "\(item.id)")
        }
        // The one body (the same text every row) and the four titles with an emoji: nothing else.
        #expect(engine.counters.paragraphsShaped == 1 + 4)
    }

    @Test("Heights alone are the heights of the rows measured one width at a time, and fail as they do")
    func heightsAloneEqualMeasuredHeights() throws {
        // The examples' own templates (wrapping stacks, overlays, size rules) and every built-in,
        // items with and without their optional fields, widths down to none at all.
        var registry = try BuiltInTemplates.registry()
        let examples = SampleDataTests.root.appendingPathComponent("Examples")
        let templates = try String(contentsOf: examples.appendingPathComponent("templates.json"), encoding: .utf8)
        for (kind, template) in try Template.templatesByKind(json: templates) {
            registry.register(try CompiledTemplate(template), for: kind)
        }
        var items = try String(contentsOf: examples.appendingPathComponent("items.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { try ItemDescriptor(json: String($0)) }
        for (index, kind) in BuiltInTemplates.all.keys.sorted().enumerated() {
            var fields: JSONObject = [
                "title": .string("Row \(index)"), "caption": "Re: heights", "subtitle": "Sub",
                "text": .string(String(repeating: "words that wrap ", count: index % 7 + 1)),
            ]
            if index % 2 == 0 {
                fields["imageURL"] = "http://a/b.png"
                fields["timestamp"] = "9:41 AM"
                fields["url"] = "galley://a"
            }
            items.append(Fixture.item(kind, fields))
        }
        let widths: [Double] = [320, 1024, 0, 90, 414]
        let memory = LayoutContext()
        for scale in [1.0, 3.0] {
            let environment = Fixture.environment(scale: scale)
            for item in items {
                let template = try registry.template(for: item)
                let alone = try widths.map { try template.measure(item, width: $0, environment: environment).height }
                #expect(try template.heights(item, widths: widths, environment: environment) == alone, "\(item.id)")
                // Memory shared with full measurements, in either order, changes nothing.
                #expect(try template.heights(item, widths: widths, environment: environment, context: memory) == alone)
                _ = try template.measure(item, widths: widths, environment: environment, context: memory)
            }
        }
        let bad = Fixture.item("message", ["title": ["not": "text"]])
        let message = try registry.template(for: bad)
        let environment = Fixture.environment(scale: 2)
        #expect(throws: LayoutError.self) { try message.heights(bad, widths: [320], environment: environment) }
        #expect(throws: LayoutError.self) { try message.heights(Self.item, widths: [320, -1], environment: environment) }
    }

    @Test("Rows measured with reused working memory equal rows measured without, and earlier rows stay as they were")
    func reusedMemoryEqualsFresh() throws {
        // Every built-in template in turn (different node counts), items with and without
        // optional fields, a failing row in between, the earlier measurements kept meanwhile.
        let registry = try BuiltInTemplates.registry()
        let widths: [Double] = [320, 414, 90]
        let memory = LayoutContext()
        var kept: [(fresh: [RowMeasurement], reused: [RowMeasurement])] = []
        for (index, kind) in (BuiltInTemplates.all.keys.sorted() + BuiltInTemplates.all.keys.sorted().reversed()).enumerated() {
            var fields: JSONObject = [
                "title": .string("Row \(index)"), "caption": "Re: heights", "subtitle": "Sub",
                "text": .string(String(repeating: "words that wrap ", count: index % 7 + 1)),
                "runs": [["text": "Styled ", "style": "tableFont"], ["text": .string("runs \(index)")]],
            ]
            if index % 2 == 0 {
                fields["imageURL"] = "http://a/b.png"
                fields["timestamp"] = "9:41 AM"
            }
            let item = Fixture.item(kind, fields)
            let template = try registry.template(for: item)
            let environment = Fixture.environment(scale: 2)
            let fresh = try template.measure(item, widths: widths, environment: environment)
            let reused = try template.measure(item, widths: widths, environment: environment, context: memory)
            kept.append((fresh, reused))
            // Many widths: the memo outgrows the room it is given for a row, more than once.
            if index % 5 == 0 {
                let many = Array(stride(from: 0.0, through: 940, by: 20))
                let alone = try many.map { try template.measure(item, width: $0, environment: environment) }
                let together = try template.measure(item, widths: many, environment: environment, context: memory)
                for (one, other) in zip(alone, together) { #expect(one.arranged().nodes == other.arranged().nodes, "\(one.itemID) at \(one.width)") }
                #expect(try template.heights(item, widths: many, environment: environment, context: memory) == alone.map(\.height))
            }
            // A row that fails half way leaves the memory fit for the next.
            let notText: JSONValue = ["not": "text"]
            let bad = Fixture.item(kind, ["title": notText, "text": notText, "caption": notText, "subtitle": notText, "detail": notText, "runs": notText])
            #expect(throws: LayoutError.self) { try template.measure(bad, widths: widths, environment: environment, context: memory) }
        }
        for (fresh, reused) in kept {
            for (one, other) in zip(fresh, reused) {
                #expect(one.exactHeight == other.exactHeight && one.lineCounts == other.lineCounts)
                #expect(one.arranged().nodes == other.arranged().nodes, "\(one.itemID) at \(one.width)")
            }
        }
    }

    @Test("A label is shaped once per row and broken once per width offered, however deep its stacks nest")
    func nestedStacksMeasureOncePerOffer() throws {
        // Each horizontal stack measures its child at its natural width, then again at the width
        // it gets; eight of them, measured one node at a time, would break the label 2⁸ times.
        var node = Node(.label(Node.Label(.field("text"), style: "font")), name: "text", flex: Node.Flex(shrink: 1))
        for _ in 0..<8 { node = Node(.stack(Node.Stack(.horizontal, children: [node])), flex: Node.Flex(shrink: 1)) }
        let template = try CompiledTemplate(Template(name: "nested", root: node))
        let text = "A sentence long enough to wrap at each of the three widths offered."
        let item = Fixture.item("x", ["text": .string(text)])
        let widths: [Double] = [100, 150, 200]
        for keepsTextLayouts in [false, true] {
            let engine = try TextEngine(paragraphCacheByteLimit: 0)
            let environment = LayoutEnvironment(textEngine: engine, scale: 2, keepsTextLayouts: keepsTextLayouts)
            let measurements = try template.measure(item, widths: widths, environment: environment)
            #expect(engine.counters.paragraphsShaped == 1)
            // Natural width, then each width; and with glyphs kept, one layout per width for the
            // lines the row ends up with, not one per width offered.
            #expect(engine.counters.lineBreakPasses == 1 + widths.count * (keepsTextLayouts ? 2 : 1))
            for (width, measurement) in zip(widths, measurements) {
                #expect(measurement.lineCounts["text"] == Fixture.lines(text, "font", width: width))
                let layout = measurement.arranged().labels["text"]?.layout
                #expect(layout?.lines.count == (keepsTextLayouts ? measurement.lineCounts["text"] : nil))
            }
        }
        // Text that fits on one line at its natural width keeps that line at every wider width:
        // broken once per row, not once per width.
        let engine = try TextEngine(paragraphCacheByteLimit: 0)
        let short = try template.measure(
            Fixture.item("x", ["text": "Fits"]), widths: widths, environment: LayoutEnvironment(textEngine: engine, scale: 2, keepsTextLayouts: false))
        #expect(engine.counters.lineBreakPasses == 1)
        #expect(short.map { $0.lineCounts["text"] } == [1, 1, 1])
        #expect(short.map(\.height) == widths.map { _ in Fixture.ceil(Fixture.lineHeight("font"), 2) })
    }
}

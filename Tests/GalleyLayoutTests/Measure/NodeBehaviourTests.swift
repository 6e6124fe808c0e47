// Node behaviour: collapsing, accessories, flexible and wrapping stacks, baselines, sizes, RTL.

import GalleyJSON
import GalleyLayout
import GalleyText
import Testing

@Suite("Node behaviour")
struct NodeBehaviourTests {
    typealias F = Fixture

    static func frames(_ template: Template, _ fields: JSONObject, width: Double = 320, scale: Double = 1, direction: LayoutEnvironment.Direction = .auto)
        throws -> (RowMeasurement, [String: LayoutRect])
    {
        let measurement = try CompiledTemplate(template).measure(
            F.item("x", fields), width: width, environment: F.environment(scale: scale, direction: direction))
        return (measurement, measurement.arranged().frames)
    }

    static func label(_ name: String, _ field: FieldPath, style: StyleReference = "font", flex: Node.Flex = Node.Flex()) -> Node {
        Node(.label(Node.Label(.field(field), style: style)), name: name, flex: flex)
    }

    @Test("An empty or missing field collapses its label and the spacing around it")
    func collapsing() throws {
        let template = Template(
            name: "t",
            root: Node(
                .inset(
                    Node.Inset(
                        Insets(all: 10),
                        child: Node(
                            .stack(
                                Node.Stack(
                                    .vertical, spacing: 8,
                                    children: [
                                        Self.label("a", "a"), Self.label("b", "b"), Self.label("c", "c"),
                                    ])))))))
        let line = F.ceil(F.lineHeight("font"), 1)
        let (all, allFrames) = try Self.frames(template, ["a": "A", "b": "B", "c": "C"])
        #expect(all.height == 20 + 3 * line + 2 * 8)
        let (some, frames) = try Self.frames(template, ["a": "A", "b": "", "c": "C"])
        #expect(some.height == 20 + 2 * line + 8)
        #expect(frames["b"] == .zero)
        #expect(frames["c"]!.minY == allFrames["b"]!.minY)
        // A null field is a missing one.
        let (null, nullFrames) = try Self.frames(template, ["a": "A", "b": nil, "c": "C"])
        #expect(null.height == some.height && nullFrames["b"] == .zero)
        // With nothing to show, the inset collapses too: the row is empty.
        let (none, _) = try Self.frames(template, [:])
        #expect(none.height == 0)
    }

    @Test("A format collapses when every field it names is missing; a conditional follows its field")
    func formatsAndConditionals() throws {
        let template = Template(
            name: "t",
            root: Node(
                .stack(
                    Node.Stack(
                        .vertical,
                        children: [
                            Node(.label(Node.Label(.format("{author.name} · {duration|duration}"), style: "font")), name: "byline"),
                            Node(
                                .conditional(
                                    Node.Conditional(field: "hd", test: .isTrue, child: Node(.label(Node.Label(.literal("HD"), style: "font")), name: "badge")))
                            ),
                        ]))))
        let (_, shown) = try Self.frames(template, ["author": ["name": "Ada"], "duration": 312, "hd": true])
        #expect(shown["byline"] != .zero && shown["badge"] != .zero)
        let item = Fixture.item("x", ["author": ["name": "Ada"], "duration": 3723])
        let measurement = try CompiledTemplate(template).measure(item, width: 320, environment: F.environment(scale: 1))
        let text = try #require(measurement.arranged().labels["byline"]?.layout)
        #expect(text.lines.count == 1)
        let (_, hidden) = try Self.frames(template, ["hd": false])
        #expect(hidden["byline"] == .zero && hidden["badge"] == .zero)
        // A null field is a missing one: the message cell's image shows only for a URL.
        let message = try CompiledTemplate(BuiltInTemplates.message)
        for (imageURL, shows) in [(JSONValue.string("https://example.com/a.png"), true), (.null, false)] {
            let row = try message.measure(
                F.item("x", ["title": "Ada", "text": "Hello", "imageURL": imageURL]), width: 320, environment: F.environment(scale: 2))
            #expect((row.arranged().frames["image"] != .zero) == shows, "imageURL \(imageURL)")
        }
    }

    @Test(
        "An accessory takes its width from the content area; its kind can come from a field",
        arguments: [
            ("disclosureIndicator", 33.0), ("checkmark", 39.0), ("detailButton", 48.0), ("detailDisclosureButton", 67.0), ("none", 0.0),
        ])
    func accessories(_ kind: String, _ width: Double) throws {
        let (_, frames) = try Self.frames(BuiltInTemplates.cellDefault, ["text": "General", "accessory": .string(kind)])
        #expect(frames["text"]!.width == 320 - width - 30)
        #expect(frames["accessory"]!.width == width)
        #expect(throws: LayoutError.self) { try Self.frames(BuiltInTemplates.cellDefault, ["text": "x", "accessory": "sideways"]) }
    }

    @Test("Flexible children: grow shares free space, shrink shares the overflow, limits hold")
    func flex() throws {
        let gap = { (length: Double, grow: Double, maximum: Length?) in
            Node(.spacer(Node.Spacer(length: .points(length))), flex: Node.Flex(grow: grow, maximum: maximum))
        }
        let template = Template(
            name: "t",
            root: Node(
                .stack(
                    Node.Stack(
                        .horizontal,
                        children: [
                            Node(.image(Node.Image(size: .fixed(SizeSpec(width: 40, height: 10)))), name: "fixed"),
                            Node(
                                .size(Node.SizeRule(height: Node.Dimension(fixed: 10), child: Node(.spacer(Node.Spacer())))), name: "one",
                                flex: Node.Flex(grow: 1)),
                            Node(
                                .size(Node.SizeRule(height: Node.Dimension(fixed: 10), child: Node(.spacer(Node.Spacer())))), name: "three",
                                flex: Node.Flex(grow: 3, maximum: 150)),
                        ] + [gap(0, 0, 0)]))))
        let (_, frames) = try Self.frames(template, [:], width: 320)
        // 280 points are free: one takes 1/4 (70) and three 3/4 (210), capped at 150; the 60 left go to one.
        #expect(frames["fixed"]!.width == 40)
        #expect(frames["three"]!.width == 150)
        #expect(frames["one"]!.width == 130)

        let shrinking = Template(
            name: "t",
            root: Node(
                .stack(
                    Node.Stack(
                        .horizontal, spacing: 10,
                        children: [
                            Self.label("long", "long", flex: Node.Flex(shrink: 1)),
                            Self.label("stamp", "stamp", flex: Node.Flex(shrink: 0)),
                        ]))))
        let stamp = F.ceil(F.naturalWidth("12:45", "font"), 1)
        let (_, shrunk) = try Self.frames(shrinking, ["long": .string(String(repeating: "overflowing words ", count: 10)), "stamp": "12:45"])
        #expect(shrunk["stamp"]!.width == stamp)
        #expect(shrunk["long"]!.width == 320 - 10 - stamp)
        #expect(shrunk["stamp"]!.maxX == 320)

        // A column that grows to fill a fixed height is measured again at that height (not
        // served its natural measurement, taken at the same width): its spacer then pushes
        // the label to the bottom.
        let column = Node(
            .stack(
                Node.Stack(
                    .vertical,
                    children: [
                        Node(.spacer(Node.Spacer()), flex: Node.Flex(grow: 1)), Self.label("bottom", "bottom"),
                    ])), name: "column", flex: Node.Flex(grow: 1))
        let box = Template(
            name: "t", root: Node(.size(Node.SizeRule(height: Node.Dimension(fixed: 100), child: Node(.stack(Node.Stack(.vertical, children: [column])))))))
        let (_, pushed) = try Self.frames(box, ["bottom": "Down here"])
        let line = F.ceil(F.lineHeight("font"), 1)
        #expect(pushed["column"] == LayoutRect(x: 0, y: 0, width: 320, height: 100))
        #expect(pushed["bottom"]!.maxY == 100 && pushed["bottom"]!.height == line)
    }

    @Test("A stack's sole flexible child takes what the others leave, within its limits, at every width")
    func soleFlexibleChild() throws {
        let text = String(repeating: "Several words that overflow any row ", count: 12)
        func template(_ flex: Node.Flex) -> Template {
            Template(
                name: "t",
                root: Node(
                    .stack(
                        Node.Stack(
                            .horizontal, spacing: 10,
                            children: [
                                Node(
                                    .label(Node.Label(.field("long"), style: "font", maximumLines: 2, lineBreakMode: .truncateTail)), name: "long", flex: flex),
                                Self.label("stamp", "stamp", flex: Node.Flex(shrink: 0)),
                            ]))))
        }
        let stamp = F.ceil(F.naturalWidth("12:45", "font"), 1)
        let fields: JSONObject = ["long": .string(text), "stamp": "12:45"]
        for width in [200.0, 320, 768] {
            let (measurement, frames) = try Self.frames(template(Node.Flex(grow: 1, shrink: 1)), fields, width: width)
            #expect(frames["long"]!.width == width - 10 - stamp)
            #expect(frames["stamp"]!.maxX == width)
            // Two lines, truncated: the label's height is the engine's for the text at that width.
            let lines = F.lines(text, "font", width: width - 10 - stamp, maximum: 2)
            #expect(lines == 2)
            #expect(measurement.height == F.ceil(2 * F.lineHeight("font"), 1))
        }
        let (_, capped) = try Self.frames(template(Node.Flex(grow: 1, shrink: 1, maximum: 150)), fields, width: 320)
        #expect(capped["long"]!.width == 150)
        let (_, floored) = try Self.frames(template(Node.Flex(grow: 1, shrink: 1, minimum: 300)), fields, width: 320)
        #expect(floored["long"]!.width == 300)

        // Measured last, it is still the row's first text: `.auto` takes its direction.
        let (hebrew, _) = try Self.frames(template(Node.Flex(grow: 1, shrink: 1)), ["long": "שלום עולם, זו הודעה ארוכה", "stamp": "12:45"])
        #expect(hebrew.isRightToLeft)

        // Several widths at once, in any order, give what each width gives alone.
        let compiled = try CompiledTemplate(template(Node.Flex(grow: 1, shrink: 1)))
        let item = F.item("x", fields)
        let widths = [320.0, 768, 200, 375]
        let together = try compiled.measure(item, widths: widths, environment: F.environment(scale: 2))
        for (index, width) in widths.enumerated() {
            let alone = try compiled.measure(item, width: width, environment: F.environment(scale: 2))
            #expect(together[index].width == width)
            #expect(together[index].height == alone.height)
            #expect(together[index].arranged().frames == alone.arranged().frames)
        }
    }

    @Test("A wrapping stack flows chips onto new rows")
    func wrapping() throws {
        let chip = { (index: Int) in
            Node(
                .size(Node.SizeRule(width: Node.Dimension(fixed: 70), height: Node.Dimension(fixed: 24), child: Node(.spacer(Node.Spacer())))),
                name: "chip\(index)")
        }
        let template = Template(name: "t", root: Node(.stack(Node.Stack(.horizontal, spacing: 8, wraps: true, lineSpacing: 6, children: (0..<7).map(chip)))))
        let (measurement, frames) = try Self.frames(template, [:], width: 320)
        // Four chips fit in 320 (4 × 70 + 3 × 8 = 304); seven make two rows.
        #expect(frames["chip3"] == LayoutRect(x: 3 * 78, y: 0, width: 70, height: 24))
        #expect(frames["chip4"] == LayoutRect(x: 0, y: 30, width: 70, height: 24))
        #expect(frames["chip6"] == LayoutRect(x: 156, y: 30, width: 70, height: 24))
        #expect(measurement.height == 54)
    }

    @Test("First-baseline alignment lines up labels of different sizes")
    func baselines() throws {
        let template = Template(
            name: "t",
            root: Node(
                .stack(
                    Node.Stack(
                        .horizontal, spacing: 4, alignment: .firstBaseline,
                        children: [
                            Self.label("big", "big", style: "tableFont", flex: Node.Flex(shrink: 0)),
                            Self.label("small", "small", style: "tableTimestampFont", flex: Node.Flex(shrink: 0)),
                        ]))))
        let (_, frames) = try Self.frames(template, ["big": "Big", "small": "small"], scale: 3)
        let bigBaseline = frames["big"]!.minY + F.ascent("tableFont")
        let smallBaseline = frames["small"]!.minY + F.ascent("tableTimestampFont")
        #expect(abs(bigBaseline - smallBaseline) <= 1 / 3.0 + 1e-9)
        #expect(frames["big"]!.minY == 0)
    }

    @Test("Right-to-left rows mirror stacks and insets; auto takes the direction from the text")
    func rightToLeft() throws {
        let (_, leftToRight) = try Self.frames(BuiltInTemplates.caption, ["caption": "Address", "text": "1 Infinite Loop"], direction: .leftToRight)
        let (rtl, mirrored) = try Self.frames(BuiltInTemplates.caption, ["caption": "Address", "text": "1 Infinite Loop"], direction: .rightToLeft)
        #expect(rtl.isRightToLeft)
        for name in ["caption", "text"] {
            let frame = leftToRight[name]!
            #expect(mirrored[name] == LayoutRect(x: 320 - frame.maxX, y: frame.minY, width: frame.width, height: frame.height))
        }
        let (auto, _) = try Self.frames(BuiltInTemplates.caption, ["caption": "כתובת", "text": "רחוב הרצל 1"])
        #expect(auto.isRightToLeft)
        let (autoLatin, _) = try Self.frames(BuiltInTemplates.caption, ["caption": "Address", "text": "1 Infinite Loop"])
        #expect(!autoLatin.isRightToLeft)
    }

    @Test("Images keep their aspect ratio within minimum and maximum sizes and the width offered")
    func images() throws {
        let image = { (max: SizeSpec?, min: SizeSpec?) in
            Template(
                name: "t",
                root: Node(.image(Node.Image(source: "url", size: .fields(width: "w", height: "h", fallback: nil), minimum: min, maximum: max)), name: "image"))
        }
        let bounded = image(SizeSpec(width: 100, height: 100), nil)
        #expect(try Self.frames(bounded, ["url": "u", "w": 400, "h": 200]).1["image"] == LayoutRect(x: 0, y: 0, width: 100, height: 50))
        #expect(
            try Self.frames(image(nil, SizeSpec(width: 40, height: 40)), ["url": "u", "w": 20, "h": 10]).1["image"]
                == LayoutRect(x: 0, y: 0, width: 80, height: 40))
        #expect(try Self.frames(image(nil, nil), ["url": "u", "w": 640, "h": 480], width: 320).1["image"] == LayoutRect(x: 0, y: 0, width: 320, height: 240))
        #expect(try Self.frames(image(nil, nil), ["w": 640, "h": 480]).1["image"] == .zero)
        #expect(throws: LayoutError.fieldType(path: "t.root", field: "w", expected: "a number ≥ 0 and ≤ 1000000", found: "a string (\"wide\")")) {
            try Self.frames(image(nil, nil), ["url": "u", "w": "wide", "h": 480])
        }
    }

    @Test("Size rules: fixed, minimum and maximum sizes and aspect ratios")
    func sizeRules() throws {
        let rule = { (rule: Node.SizeRule) in Template(name: "t", root: Node(.size(rule), name: "box")) }
        let text = Self.label("text", "text")
        #expect(
            try Self.frames(rule(Node.SizeRule(width: Node.Dimension(fixed: 100), height: Node.Dimension(minimum: 60), child: text)), ["text": "Hi"]).1["box"]
                == LayoutRect(x: 0, y: 0, width: 100, height: 60))
        let square = try Self.frames(rule(Node.SizeRule(width: Node.Dimension(maximum: 200), aspectRatio: 2, child: text)), ["text": "Hi"]).1["box"]!
        #expect(square == LayoutRect(x: 0, y: 0, width: 200, height: 100))
        let line = F.ceil(F.lineHeight("font"), 1)
        let capped = try Self.frames(
            rule(Node.SizeRule(height: Node.Dimension(maximum: 30), child: text)), ["text": .string(String(repeating: "long text ", count: 80))]
        ).1["box"]!
        #expect(capped.height == 30 && line < 30)
    }

    @Test("Overlays and backgrounds take the base's size and align their layers")
    func overlays() throws {
        let base = Node(
            .size(Node.SizeRule(width: Node.Dimension(fixed: 120), height: Node.Dimension(fixed: 90), child: Node(.spacer(Node.Spacer())))), name: "thumb")
        let badge = Node(
            .size(Node.SizeRule(width: Node.Dimension(fixed: 30), height: Node.Dimension(fixed: 16), child: Node(.spacer(Node.Spacer())))), name: "badge")
        let template = Template(name: "t", root: Node(.overlay(Node.Overlay(base: base, layers: [badge], alignment: .bottomTrailing))))
        let (_, frames) = try Self.frames(template, [:])
        #expect(frames["thumb"] == LayoutRect(x: 0, y: 0, width: 120, height: 90))
        #expect(frames["badge"] == LayoutRect(x: 90, y: 74, width: 30, height: 16))
    }

    @Test("A content-size multiplier scales every text style")
    func contentSizeMultiplier() throws {
        var large = Stylesheet.standard
        large.contentSizeMultiplier = 1.5
        let template = try CompiledTemplate(BuiltInTemplates.subtext, stylesheet: large)
        let measurement = try template.measure(F.item("s", ["text": "Headline", "caption": "Short"]), width: 320, environment: F.environment(scale: 1))
        let expected = 20 + F.ceil(F.lineHeight("tableFont") * 1.5, 1) + F.ceil(F.lineHeight("tableSubTextFont") * 1.5, 1)
        #expect(measurement.height == expected)
    }
}

// Templates in JSON: the documented schema (Docs/Templates.md), read strictly and written back.

import GalleyJSON
import GalleyText

extension Template: Codable {
    /// A template from its JSON form: `{"name", "minimumHeight", "root": node}`, or a bare
    /// node (then named `name`).
    ///
    /// - Throws: ``LayoutError/invalidTemplate(path:reason:)`` naming the node and the problem:
    ///   an unknown node type or key, a value of the wrong kind.
    public init(json value: JSONValue, name: String = "template") throws(LayoutError) {
        if case .object(let members) = value, members["root"] != nil {
            var reader = try JSONReader(value, path: name)
            self.name = try reader.string("name") ?? name
            minimumHeight = try reader.length("minimumHeight")
            guard let root = reader.value("root") else { throw reader.error("must be a node, got null", key: "root") }
            self.root = try Node(json: root, path: "\(name).root")
            try reader.finish()
        } else {
            self.name = name
            minimumHeight = nil
            root = try Node(json: value, path: "\(name).root")
        }
    }

    /// A template from JSON text, as ``init(json:name:)-(JSONValue,_)`` reads it.
    ///
    ///     let template = try Template(json: #"{"root": {"type": "label", "field": "title", "style": "tableFont"}}"#)
    ///
    /// - Throws: ``LayoutError/invalidTemplate(path:reason:)`` for text that is not JSON (with
    ///   the line and column) or not a template.
    public init(json text: String, name: String = "template") throws(LayoutError) {
        try self.init(json: Array(text.utf8), name: name)
    }

    /// A template from JSON bytes (UTF-8; a file's contents, `Array(data)`).
    ///
    /// - Throws: as ``init(json:name:)-(String,_)``.
    public init(json bytes: [UInt8], name: String = "template") throws(LayoutError) {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw .invalidTemplate(path: name, reason: "invalid JSON at \(error)") }
        try self.init(json: value, name: name)
    }

    /// The template in its JSON form.
    public var json: JSONValue {
        var members: JSONObject = ["name": .string(name), "root": root.json]
        if let minimumHeight { members["minimumHeight"] = minimumHeight.json }
        return .object(members)
    }

    /// Decodes a template from its JSON form (see ``json``).
    public init(from decoder: any Decoder) throws {
        try self.init(json: JSONValue(from: decoder))
    }

    /// Encodes the template as its JSON form (see ``json``).
    public func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }

    /// Templates keyed by item kind, from a JSON object `{"kind": template, …}`, in the
    /// object's order.
    ///
    /// - Throws: ``LayoutError/invalidTemplates(_:)`` listing every template that is malformed,
    ///   in the file's order, or ``LayoutError/invalidTemplate(path:reason:)`` when the text is
    ///   not an object of templates.
    public static func templatesByKind(json text: String) throws(LayoutError) -> [(kind: String, template: Template)] {
        var templates: [(kind: String, template: Template)] = []
        var errors: [LayoutError] = []
        for (kind, parsed) in try eachTemplate(json: text) {
            switch parsed {
            case .success(let template): templates.append((kind, template))
            case .failure(let error): errors.append(error)
            }
        }
        if !errors.isEmpty { throw .invalidTemplates(errors) }
        return templates
    }

    /// Every template of a templates file, or why it is malformed, in the file's order.
    static func eachTemplate(json text: String) throws(LayoutError) -> [(kind: String, Result<Template, LayoutError>)] {
        let value: JSONValue
        do { value = try JSONParser.parse(text) } catch { throw .invalidTemplate(path: "templates", reason: "invalid JSON at \(error)") }
        guard case .object(let members) = value else {
            throw .invalidTemplate(path: "templates", reason: "expected an object of templates keyed by kind, got \(value.kindName)")
        }
        return members.map { kind, template in (kind, Result { () throws(LayoutError) in try Template(json: template, name: kind) }) }
    }
}

extension Node {
    static let typeNames = ["label", "image", "spacer", "inset", "stack", "hstack", "vstack", "overlay", "background", "size", "conditional", "accessory"]

    /// A node from JSON; `path` locates it in error messages.
    init(json value: JSONValue, path: String) throws(LayoutError) {
        var reader = try JSONReader(value, path: path)
        let type = try reader.requiredString("type")
        name = try reader.string("name")
        flex = Node.Flex(
            grow: try reader.number("grow") ?? 0, shrink: try reader.number("shrink"),
            minimum: try reader.length("minLength"), maximum: try reader.length("maxLength"))
        switch type {
        case "label": kind = .label(try Self.label(&reader))
        case "image": kind = .image(try Self.image(&reader))
        case "spacer": kind = .spacer(Node.Spacer(length: try reader.length("length") ?? .zero))
        case "inset":
            kind = .inset(Node.Inset(try Self.insets(reader.value("insets"), path: path + ".insets"), child: try Self.child(&reader, "child")))
        case "stack", "hstack", "vstack":
            let axis: Node.Stack.Axis =
                type == "hstack"
                ? .horizontal
                : type == "vstack"
                    ? .vertical
                    : try reader.enumeration("axis", Node.Stack.Axis.self) ?? .vertical
            kind = .stack(
                Node.Stack(
                    axis, spacing: try reader.length("spacing") ?? .zero,
                    alignment: try reader.enumeration("alignment", Node.Stack.Alignment.self) ?? .fill,
                    wraps: try reader.bool("wraps") ?? false, lineSpacing: try reader.length("lineSpacing") ?? .zero,
                    children: try Self.children(&reader, "children")))
        case "overlay", "background":
            kind = .overlay(
                Node.Overlay(
                    base: try Self.child(&reader, "base"), layers: try Self.children(&reader, "layers"),
                    alignment: try reader.enumeration("alignment", Node.Overlay.Alignment.self) ?? .fill, isBackground: type == "background"))
        case "size":
            kind = .size(
                Node.SizeRule(
                    width: try Self.dimension(reader.value("width"), path: path + ".width"),
                    height: try Self.dimension(reader.value("height"), path: path + ".height"),
                    aspectRatio: try reader.number("aspectRatio"),
                    alignment: try reader.enumeration("alignment", Node.SizeRule.Alignment.self) ?? .center,
                    child: try Self.child(&reader, "child")))
        case "conditional":
            kind = .conditional(
                Node.Conditional(
                    field: FieldPath(try reader.requiredString("field")),
                    test: try reader.enumeration("test", Node.Conditional.Test.self) ?? .nonEmpty,
                    negated: try reader.bool("negated") ?? false, child: try Self.child(&reader, "child")))
        case "accessory":
            kind = .accessory(
                Node.Accessory(
                    try reader.enumeration("accessory", Node.Accessory.Kind.self) ?? .none, field: try reader.string("field").map { FieldPath($0) }))
        default:
            throw reader.error("unknown node type '\(type)'; known: \(Self.typeNames.joined(separator: ", "))", key: "type")
        }
        try reader.finish()
    }

    private static func child(_ reader: inout JSONReader, _ key: String) throws(LayoutError) -> Node {
        guard let value = reader.value(key) else { throw reader.error("is missing", key: key) }
        return try Node(json: value, path: "\(reader.path).\(key)")
    }

    private static func children(_ reader: inout JSONReader, _ key: String) throws(LayoutError) -> [Node] {
        guard let value = reader.value(key) else { return [] }
        guard case .array(let elements) = value else { throw reader.error("must be an array of nodes, got \(value.kindName)", key: key) }
        var nodes: [Node] = []
        for (index, element) in elements.enumerated() { nodes.append(try Node(json: element, path: "\(reader.path).\(key)[\(index)]")) }
        return nodes
    }

    private static func label(_ reader: inout JSONReader) throws(LayoutError) -> Node.Label {
        let content: LabelContent
        if let field = try reader.string("field") {
            content = .field(FieldPath(field))
        } else if let format = try reader.string("format") {
            content = .format(format)
        } else if let literal = try reader.string("text") {
            content = .literal(literal)
        } else if let field = try reader.string("styledField") {
            content = .styledField(FieldPath(field))
        } else if let runs = reader.value("runs") {
            guard case .array(let elements) = runs else { throw reader.error("must be an array of runs", key: "runs") }
            var parsed: [LabelRun] = []
            for (index, element) in elements.enumerated() {
                var run = try JSONReader(element, path: "\(reader.path).runs[\(index)]")
                let runContent: LabelContent
                if let field = try run.string("field") {
                    runContent = .field(FieldPath(field))
                } else if let format = try run.string("format") {
                    runContent = .format(format)
                } else if let literal = try run.string("text") {
                    runContent = .literal(literal)
                } else {
                    throw run.error("a run needs \"field\", \"format\" or \"text\"")
                }
                parsed.append(LabelRun(runContent, style: try style(&run)))
                try run.finish()
            }
            content = .runs(parsed)
        } else {
            throw reader.error("a label needs \"field\", \"format\", \"text\", \"runs\" or \"styledField\"")
        }
        return Node.Label(
            content, style: try style(&reader), maximumLines: try reader.integer("maxLines") ?? 0,
            lineBreakMode: try reader.enumeration("lineBreakMode", LineBreakMode.self) ?? .wordWrap,
            alignment: try reader.enumeration("alignment", TextAlignment.self) ?? .natural)
    }

    private static func style(_ reader: inout JSONReader) throws(LayoutError) -> StyleReference {
        guard let value = reader.value("style") else { throw reader.error("is missing", key: "style") }
        if case .string(let name) = value { return .named(name) }
        return .inline(try TextStyleSpec(json: value, path: reader.path + ".style"))
    }

    private static func image(_ reader: inout JSONReader) throws(LayoutError) -> Node.Image {
        let source = try reader.string("source").map { FieldPath($0) }
        let size: ImageSize
        if let widthField = try reader.string("widthField") {
            guard let heightField = try reader.string("heightField") else { throw reader.error("is missing (widthField needs it)", key: "heightField") }
            size = .fields(
                width: FieldPath(widthField), height: FieldPath(heightField), fallback: try sizeSpec(reader.value("fallback"), path: reader.path + ".fallback"))
        } else {
            guard let width = try reader.length("width"), let height = try reader.length("height") else {
                throw reader.error("an image needs \"width\" and \"height\", or \"widthField\" and \"heightField\"")
            }
            size = .fixed(SizeSpec(width: width, height: height))
        }
        return Node.Image(
            source: source, size: size, minimum: try sizeSpec(reader.value("min"), path: reader.path + ".min"),
            maximum: try sizeSpec(reader.value("max"), path: reader.path + ".max"))
    }

    private static func sizeSpec(_ value: JSONValue?, path: String) throws(LayoutError) -> SizeSpec? {
        guard let value else { return nil }
        var reader = try JSONReader(value, path: path)
        guard let width = try reader.length("width"), let height = try reader.length("height") else {
            throw reader.error("needs \"width\" and \"height\"")
        }
        try reader.finish()
        return SizeSpec(width: width, height: height)
    }

    private static func insets(_ value: JSONValue?, path: String) throws(LayoutError) -> Insets {
        guard let value else { throw .invalidTemplate(path: path, reason: "is missing") }
        if case .object = value {
            var reader = try JSONReader(value, path: path)
            let horizontal = try reader.length("horizontal")
            let vertical = try reader.length("vertical")
            let insets = Insets(
                top: try reader.length("top") ?? vertical ?? .zero, left: try reader.length("left") ?? horizontal ?? .zero,
                bottom: try reader.length("bottom") ?? vertical ?? .zero, right: try reader.length("right") ?? horizontal ?? .zero)
            try reader.finish()
            return insets
        }
        return Insets(all: try JSONReader.length(value, path: path))
    }

    private static func dimension(_ value: JSONValue?, path: String) throws(LayoutError) -> Node.Dimension {
        guard let value else { return Node.Dimension() }
        if case .object = value {
            var reader = try JSONReader(value, path: path)
            let dimension = Node.Dimension(fixed: try reader.length("fixed"), minimum: try reader.length("min"), maximum: try reader.length("max"))
            try reader.finish()
            return dimension
        }
        return Node.Dimension(fixed: try JSONReader.length(value, path: path))
    }

    /// The node in its JSON form.
    var json: JSONValue {
        var members: JSONObject = ["type": .string(typeName)]
        if let name { members["name"] = .string(name) }
        if flex.grow != 0 { members["grow"] = .number(flex.grow) }
        if let shrink = flex.shrink { members["shrink"] = .number(shrink) }
        if let minimum = flex.minimum { members["minLength"] = minimum.json }
        if let maximum = flex.maximum { members["maxLength"] = maximum.json }
        switch kind {
        case .label(let label):
            members.merge(label.content.json) { $1 }
            members["style"] = label.style.json
            if label.maximumLines != 0 { members["maxLines"] = .integer(label.maximumLines) }
            if label.lineBreakMode != .wordWrap { members["lineBreakMode"] = .string(label.lineBreakMode.rawValue) }
            if label.alignment != .natural { members["alignment"] = .string(label.alignment.rawValue) }
        case .image(let image):
            if let source = image.source { members["source"] = .string(source.description) }
            switch image.size {
            case .fixed(let size):
                members["width"] = size.width.json
                members["height"] = size.height.json
            case .fields(let width, let height, let fallback):
                members["widthField"] = .string(width.description)
                members["heightField"] = .string(height.description)
                if let fallback { members["fallback"] = fallback.json }
            }
            if let minimum = image.minimum { members["min"] = minimum.json }
            if let maximum = image.maximum { members["max"] = maximum.json }
        case .spacer(let spacer): members["length"] = spacer.length.json
        case .inset(let inset):
            members["insets"] = .object([
                "top": inset.insets.top.json, "left": inset.insets.left.json, "bottom": inset.insets.bottom.json, "right": inset.insets.right.json,
            ])
            members["child"] = inset.child.json
        case .stack(let stack):
            members["axis"] = .string(stack.axis.rawValue)
            members["spacing"] = stack.spacing.json
            members["alignment"] = .string(stack.alignment.rawValue)
            if stack.wraps { members["wraps"] = .bool(true) }
            if stack.lineSpacing != .zero { members["lineSpacing"] = stack.lineSpacing.json }
            members["children"] = .array(stack.children.map(\.json))
        case .overlay(let overlay):
            members["base"] = overlay.base.json
            members["layers"] = .array(overlay.layers.map(\.json))
            members["alignment"] = .string(overlay.alignment.rawValue)
        case .size(let rule):
            members["width"] = rule.width.json
            members["height"] = rule.height.json
            if let ratio = rule.aspectRatio { members["aspectRatio"] = .number(ratio) }
            members["alignment"] = .string(rule.alignment.rawValue)
            members["child"] = rule.child.json
        case .conditional(let conditional):
            members["field"] = .string(conditional.field.description)
            members["test"] = .string(conditional.test.rawValue)
            if conditional.negated { members["negated"] = .bool(true) }
            members["child"] = conditional.child.json
        case .accessory(let accessory):
            members["accessory"] = .string(accessory.kind.rawValue)
            if let field = accessory.field { members["field"] = .string(field.description) }
        }
        return .object(members)
    }
}

extension LabelContent {
    var json: JSONObject {
        switch self {
        case .field(let field): ["field": .string(field.description)]
        case .literal(let text): ["text": .string(text)]
        case .format(let format): ["format": .string(format)]
        case .styledField(let field): ["styledField": .string(field.description)]
        case .runs(let runs):
            ["runs": .array(runs.map { run in .object(run.content.json.merging(["style": run.style.json]) { $1 }) })]
        }
    }
}

extension StyleReference {
    var json: JSONValue {
        switch self {
        case .named(let name): .string(name)
        case .inline(let spec): spec.json
        }
    }
}

extension Length {
    var json: JSONValue {
        switch self {
        case .points(let points): .number(points)
        case .metric(let name): .string(name)
        }
    }
}

extension SizeSpec {
    var json: JSONValue { .object(["width": width.json, "height": height.json]) }
}

extension Node.Dimension {
    var json: JSONValue {
        var members: JSONObject = [:]
        if let fixed { members["fixed"] = fixed.json }
        if let minimum { members["min"] = minimum.json }
        if let maximum { members["max"] = maximum.json }
        return .object(members)
    }
}

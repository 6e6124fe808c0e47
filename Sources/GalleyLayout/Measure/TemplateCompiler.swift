// Resolves a template tree's names against a stylesheet, checking every value on the way.

import Foundation
import GalleyText

/// Walks a template, resolving metrics and styles and numbering nodes.
struct TemplateCompiler {
    let stylesheet: Stylesheet
    let limits: TemplateLimits
    private(set) var names: [String] = []
    private var nameSet = Set<String>()
    /// How deep the node being compiled is (the root is 1).
    private var depth = 0
    /// Labels compiled so far: each is numbered in turn (see ``CompiledLabel/index``).
    private(set) var labelCount = 0
    /// Every compiled node, by id (ids are handed out before a node's children are compiled).
    private var compiled: [CompiledNode?] = []

    /// The compiled nodes, indexed by id.
    var nodes: [CompiledNode] { compiled.map { $0! } }

    init(stylesheet: Stylesheet, limits: TemplateLimits = TemplateLimits()) {
        self.stylesheet = stylesheet
        self.limits = limits
    }

    mutating func compile(_ node: Node, path: String) throws(LayoutError) -> CompiledNode {
        depth += 1
        defer { depth -= 1 }
        guard depth <= limits.maximumDepth else {
            throw .invalidTemplate(path: path, reason: "nodes are nested more than \(limits.maximumDepth) deep, the limit")
        }
        guard compiled.count < limits.maximumNodes else {
            throw .invalidTemplate(path: path, reason: "the template has more than \(limits.maximumNodes) nodes, the limit")
        }
        let id = compiled.count
        compiled.append(nil)
        if let name = node.name {
            guard nameSet.insert(name).inserted else { throw .invalidTemplate(path: path, reason: "the name '\(name)' is used twice") }
            names.append(name)
        }
        let kind: CompiledKind
        var defaultShrink = 0.0
        var grow = node.flex.grow
        switch node.kind {
        case .label(let label):
            kind = .label(try compile(label, path: path))
            defaultShrink = 1
        case .image(let image):
            kind = .image(try compile(image, path: path))
        case .spacer(let spacer):
            kind = .spacer(try length(spacer.length, path + ".length"))
            if node.flex.grow == 0 && node.flex.maximum == nil { grow = 1 }
        case .inset(let inset):
            let insets = EdgeInsets(
                top: try length(inset.insets.top, path + ".insets.top"),
                left: try length(inset.insets.left, path + ".insets.left"),
                bottom: try length(inset.insets.bottom, path + ".insets.bottom"),
                right: try length(inset.insets.right, path + ".insets.right"))
            kind = .inset(insets, try compile(inset.child, path: path + ".child"))
        case .stack(let stack):
            var children: [CompiledNode] = []
            for (index, child) in stack.children.enumerated() {
                children.append(try compile(child, path: "\(path).children[\(index)]"))
            }
            if stack.axis == .vertical && (stack.alignment == .firstBaseline || stack.alignment == .lastBaseline) {
                throw .invalidTemplate(path: path, reason: "baseline alignment applies to horizontal stacks only")
            }
            if stack.wraps && stack.axis == .vertical {
                throw .invalidTemplate(path: path, reason: "only horizontal stacks wrap")
            }
            kind = .stack(
                CompiledStack(
                    stack, spacing: try length(stack.spacing, path + ".spacing"),
                    lineSpacing: try length(stack.lineSpacing, path + ".lineSpacing"), children: children))
        case .overlay(let overlay):
            let base = try compile(overlay.base, path: path + ".base")
            var layers: [CompiledNode] = []
            for (index, layer) in overlay.layers.enumerated() {
                layers.append(try compile(layer, path: "\(path).layers[\(index)]"))
            }
            kind = .overlay(base: base, layers: layers, alignment: overlay.alignment)
        case .size(let rule):
            if let ratio = rule.aspectRatio, !ValueRanges.aspectRatio.contains(ratio) {
                throw .invalidTemplate(path: path, reason: "aspectRatio \(ValueRanges.problem(ratio, outside: ValueRanges.aspectRatio))")
            }
            kind = .size(
                width: try dimension(rule.width, path + ".width"), height: try dimension(rule.height, path + ".height"),
                aspectRatio: rule.aspectRatio, alignment: rule.alignment, child: try compile(rule.child, path: path + ".child"))
        case .conditional(let conditional):
            kind = .conditional(
                field: conditional.field, test: conditional.test, negated: conditional.negated,
                child: try compile(conditional.child, path: path + ".child"))
        case .accessory(let accessory):
            var widths: [Node.Accessory.Kind: Double] = [.none: 0]
            for kind in Node.Accessory.Kind.allCases where kind != .none {
                let name = "accessory" + kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst() + "Width"
                widths[kind] = try length(.metric(name), path)
            }
            kind = .accessory(accessory.kind, field: accessory.field, widths: widths, height: try length("accessoryHeight", path))
        }
        guard ValueRanges.flexFactor.contains(node.flex.grow) else {
            throw .invalidTemplate(path: path, reason: "grow \(ValueRanges.problem(node.flex.grow, outside: ValueRanges.flexFactor))")
        }
        if let shrink = node.flex.shrink, !ValueRanges.flexFactor.contains(shrink) {
            throw .invalidTemplate(path: path, reason: "shrink \(ValueRanges.problem(shrink, outside: ValueRanges.flexFactor))")
        }
        let flex = ResolvedFlex(
            grow: grow, shrink: node.flex.shrink ?? defaultShrink,
            minimum: try node.flex.minimum.map { value throws(LayoutError) in try length(value, path + ".minimum") },
            maximum: try node.flex.maximum.map { value throws(LayoutError) in try length(value, path + ".maximum") })
        let result = CompiledNode(id: id, name: node.name, path: path, typeName: node.typeName, kind: kind, flex: flex)
        compiled[id] = result
        return result
    }

    // MARK: - Kinds

    private mutating func compile(_ label: Node.Label, path: String) throws(LayoutError) -> CompiledLabel {
        guard label.maximumLines >= 0 else {
            throw .invalidTemplate(path: path, reason: "maxLines must be ≥ 0, not \(label.maximumLines)")
        }
        let style = try resolve(label.style, path + ".style")
        let paragraph = ParagraphStyle(
            lineHeightMultiple: style.lineHeightMultiple, alignment: label.alignment,
            lineBreakMode: label.lineBreakMode, maximumLines: label.maximumLines)
        let content = try compile(label.content, path: path + ".text")
        defer { labelCount += 1 }
        return CompiledLabel(index: labelCount, content: content, style: style, paragraph: paragraph)
    }

    private func compile(_ content: LabelContent, path: String) throws(LayoutError) -> CompiledContent {
        switch content {
        case .field(let field): return .field(field)
        case .literal(let text): return .literal(text)
        case .format(let format): return .format(try Self.parseFormat(format, path: path))
        case .styledField(let field): return .styledField(field)
        case .runs(let runs):
            var compiled: [(CompiledContent, ResolvedTextStyle)] = []
            for (index, run) in runs.enumerated() {
                if case .runs = run.content { throw .invalidTemplate(path: "\(path).runs[\(index)]", reason: "runs cannot nest") }
                compiled.append((try compile(run.content, path: "\(path).runs[\(index)]"), try resolve(run.style, "\(path).runs[\(index)].style")))
            }
            return .runs(compiled)
        }
    }

    private func compile(_ image: Node.Image, path: String) throws(LayoutError) -> CompiledImage {
        let size: CompiledImageSize
        switch image.size {
        case .fixed(let spec): size = .fixed(try self.size(spec, path + ".size"))
        case .fields(let width, let height, let fallback):
            size = .fields(width: width, height: height, fallback: try fallback.map { spec throws(LayoutError) in try self.size(spec, path + ".fallback") })
        }
        return CompiledImage(
            source: image.source, size: size,
            minimum: try image.minimum.map { spec throws(LayoutError) in try self.size(spec, path + ".minimum") },
            maximum: try image.maximum.map { spec throws(LayoutError) in try self.size(spec, path + ".maximum") })
    }

    /// Splits "{author.name} · {duration|duration}" into literals and fields.
    static func parseFormat(_ format: String, path: String) throws(LayoutError) -> [FormatPiece] {
        var pieces: [FormatPiece] = []
        var literal = ""
        var rest = Substring(format)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw .invalidTemplate(path: path, reason: "format \"\(format)\" has an unclosed '{'")
            }
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
            let inner = rest[rest.index(after: open)..<close].split(separator: "|", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let field = inner.first, !field.isEmpty else {
                throw .invalidTemplate(path: path, reason: "format \"\(format)\" has an empty placeholder")
            }
            var formatter: FieldFormatter?
            if inner.count > 1 {
                formatter = FieldFormatter(rawValue: inner[1])
                guard formatter != nil else {
                    let known = FieldFormatter.allCases.map(\.rawValue).sorted().joined(separator: ", ")
                    throw .invalidTemplate(path: path, reason: "unknown formatter '\(inner[1])'; known: \(known)")
                }
            }
            pieces.append(.field(FieldPath(field), formatter: formatter))
            rest = rest[rest.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        return pieces
    }

    // MARK: - Values

    private func length(_ length: Length, _ path: String) throws(LayoutError) -> Double {
        try stylesheet.resolve(length, at: path)
    }

    private func size(_ spec: SizeSpec, _ path: String) throws(LayoutError) -> LayoutSize {
        LayoutSize(width: try length(spec.width, path + ".width"), height: try length(spec.height, path + ".height"))
    }

    private func dimension(_ dimension: Node.Dimension, _ path: String) throws(LayoutError) -> CompiledDimension {
        let compiled = CompiledDimension(
            fixed: try dimension.fixed.map { value throws(LayoutError) in try length(value, path + ".fixed") },
            minimum: try dimension.minimum.map { value throws(LayoutError) in try length(value, path + ".min") },
            maximum: try dimension.maximum.map { value throws(LayoutError) in try length(value, path + ".max") })
        if let minimum = compiled.minimum, let maximum = compiled.maximum, minimum > maximum {
            throw .invalidTemplate(path: path, reason: "min \(minimum) is larger than max \(maximum)")
        }
        return compiled
    }

    private func resolve(_ style: StyleReference, _ path: String) throws(LayoutError) -> ResolvedTextStyle {
        let spec = try stylesheet.resolve(style, at: path)
        let textStyle = spec.textStyle(multiplier: stylesheet.contentSizeMultiplier)
        if let problem = textStyle.problem {
            throw .invalidTemplate(path: path, reason: "text style at content size \(stylesheet.contentSizeMultiplier): \(problem)")
        }
        return ResolvedTextStyle(
            style: textStyle,
            lineHeightMultiple: spec.lineHeightMultiple, color: stylesheet.resolveColor(spec.color))
    }
}

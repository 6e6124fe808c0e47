// A template resolved against a stylesheet: validated once, then measured row after row.

import GalleyText

/// A template whose metrics and text styles are resolved against a stylesheet and checked.
///
/// Compile a template once and measure any number of rows with it: nothing is looked up by
/// name on the hot path. Compiling is where unknown style or metric names and negative or
/// non-finite sizes are reported, each with the path of the node at fault.
///
/// A class, immutable: rows hand it around, and a copy of a struct holding the template, the
/// stylesheet and the node tables would retain dozens of objects where this retains one.
/// (`@unchecked Sendable` for its layout tables, which it allocates, fills once and frees.)
public final class CompiledTemplate: @unchecked Sendable {
    /// The template as written.
    public let template: Template
    /// The stylesheet it was resolved against.
    public let stylesheet: Stylesheet
    let root: CompiledNode
    let minimumHeight: Double
    /// Every node, indexed by id: measurements name their nodes by id, so that copying one
    /// retains no template object (and two threads measuring never contend for one).
    let nodes: [CompiledNode]
    /// Every node name in the template, so that arranging reports names inside collapsed branches.
    let names: [String]
    /// How many labels the template has (see ``CompiledLabel/index``).
    var labelCount: Int { labels.count }
    /// Every label, by ``CompiledLabel/index``.
    let labels: [CompiledLabel]
    /// The accessories' node ids, whose kinds arranging reports.
    let accessoryIDs: [Int]
    /// The node ids of images with a source field, whose values arranging reports.
    let imageSourceIDs: [Int]
    /// Every node as the measure pass reads it, indexed by id (see ``LayoutNode``), and the
    /// stacks' children's ids (see ``LayoutNode/Stack/firstChild``). In memory of their own, kept
    /// as long as the template: the measure pass reads them for every node of every row, and
    /// reading arrays through the template (their buffers loaded, their bounds checked) would
    /// cost more than the retains that leaving the node classes alone saves.
    let layoutNodes: UnsafeBufferPointer<LayoutNode>
    let childIDs: UnsafeBufferPointer<Int32>

    /// Resolves and validates `template` against `stylesheet`, within `limits`.
    ///
    /// - Throws: ``LayoutError/invalidTemplate(path:reason:)`` naming the node and the problem.
    public init(_ template: Template, stylesheet: Stylesheet = .standard, limits: TemplateLimits = TemplateLimits()) throws(LayoutError) {
        guard ValueRanges.contentSizeMultiplier.contains(stylesheet.contentSizeMultiplier) else {
            throw .invalidStylesheet(
                "contentSizeMultiplier \(ValueRanges.problem(stylesheet.contentSizeMultiplier, outside: ValueRanges.contentSizeMultiplier))")
        }
        self.template = template
        self.stylesheet = stylesheet
        var compiler = TemplateCompiler(stylesheet: stylesheet, limits: limits)
        root = try compiler.compile(template.root, path: "\(template.name).root")
        nodes = compiler.nodes
        names = compiler.names
        var labels: [CompiledLabel] = []
        var childIDs: [Int32] = []
        let layoutNodes = nodes.map { node in
            if case .label(let label) = node.kind { labels.append(label) }
            return LayoutNode(node, childIDs: &childIDs)
        }
        self.labels = labels.sorted { $0.index < $1.index }
        accessoryIDs = nodes.filter { if case .accessory = $0.kind { true } else { false } }.map(\.id)
        imageSourceIDs = nodes.filter { if case .image(let image) = $0.kind { image.source != nil } else { false } }.map(\.id)
        // Everything that can fail comes before the memory of the node tables is taken: an
        // initializer that throws leaves the object without running `deinit`.
        minimumHeight =
            try template.minimumHeight.map { length throws(LayoutError) in
                try stylesheet.resolve(length, at: "\(template.name).minimumHeight")
            } ?? 0
        self.layoutNodes = Self.copy(layoutNodes)
        self.childIDs = Self.copy(childIDs)
    }

    deinit {
        layoutNodes.deallocate()
        childIDs.deallocate()
    }

    /// `elements` in memory of their own (see ``layoutNodes``).
    private static func copy<Element>(_ elements: [Element]) -> UnsafeBufferPointer<Element> {
        let memory = UnsafeMutableBufferPointer<Element>.allocate(capacity: elements.count)
        _ = memory.initialize(from: elements)
        return UnsafeBufferPointer(memory)
    }
}

/// A template node with everything resolved. A class, so measurement trees share it.
final class CompiledNode: Sendable {
    let id: Int
    let name: String?
    /// Where the node is in the template ("root.child.children[2]"), for error messages.
    let path: String
    /// The node's type as templates write it ("label", "stack", …).
    let typeName: String
    let kind: CompiledKind
    let flex: ResolvedFlex
    /// Whether the node is a spacer: stored, because stacks ask for every child on every pass
    /// and matching the kind copies its payload.
    let isSpacer: Bool

    init(id: Int, name: String?, path: String, typeName: String, kind: CompiledKind, flex: ResolvedFlex) {
        if case .spacer = kind { isSpacer = true } else { isSpacer = false }
        self.id = id
        self.name = name
        self.path = path
        self.typeName = typeName
        self.kind = kind
        self.flex = flex
    }
}

/// A resolved text style: the engine's style, and the colour for renderers.
struct ResolvedTextStyle: Sendable {
    var style: TextStyle
    var lineHeightMultiple: Double
    var color: String?
}

indirect enum CompiledContent: Sendable {
    case field(FieldPath)
    case literal(String)
    case format([FormatPiece])
    case runs([(CompiledContent, ResolvedTextStyle)])
    case styledField(FieldPath)
}

enum FormatPiece: Sendable {
    case literal(String)
    case field(FieldPath, formatter: FieldFormatter?)
}

/// A class: a label's node is matched on every measure, and matching a struct payload would
/// copy its styles (strings and arrays) each time.
final class CompiledLabel: Sendable {
    /// The label's number among its template's labels, in template order: a measure pass keeps
    /// its labels' state by it.
    let index: Int
    let content: CompiledContent
    let style: ResolvedTextStyle
    let paragraph: ParagraphStyle
    /// The style and paragraph style prepared for the text engine, for rows in no particular
    /// language (most): the label's lookups in the paragraph cache then hash and compare only
    /// the text (see ``PreparedTextStyle``).
    let prepared: PreparedTextStyle

    init(index: Int, content: CompiledContent, style: ResolvedTextStyle, paragraph: ParagraphStyle) {
        self.index = index
        self.content = content
        self.style = style
        self.paragraph = paragraph
        var unspecified = paragraph
        unspecified.language = nil
        prepared = PreparedTextStyle(style: style.style, paragraph: unspecified)
    }
}

enum CompiledImageSize: Sendable {
    case fixed(LayoutSize)
    case fields(width: FieldPath, height: FieldPath, fallback: LayoutSize?)
}

struct CompiledImage: Sendable {
    var source: FieldPath?
    var size: CompiledImageSize
    var minimum: LayoutSize?
    var maximum: LayoutSize?
}

/// A class, as ``CompiledLabel`` is: every stack of every row is matched out of its node's kind,
/// and copying a struct payload would go through its value witness and retain its children.
final class CompiledStack: Sendable {
    let axis: Node.Stack.Axis
    let spacing: Double
    let alignment: Node.Stack.Alignment
    let wraps: Bool
    let lineSpacing: Double
    let children: [CompiledNode]
    /// The index of the only child that flexes, when one child (not a spacer) both grows and
    /// shrinks and no other child does either: along the axis it takes whatever the others
    /// leave, so its natural size never matters.
    let soleFlexibleChild: Int?

    /// `stack` with its lengths resolved and its children compiled.
    init(_ stack: Node.Stack, spacing: Double, lineSpacing: Double, children: [CompiledNode]) {
        (axis, alignment, wraps) = (stack.axis, stack.alignment, stack.wraps)
        (self.spacing, self.lineSpacing) = (spacing, lineSpacing)
        self.children = children
        soleFlexibleChild = Self.soleFlexibleChild(of: children)
    }

    /// The ``soleFlexibleChild`` of a stack of `children`.
    static func soleFlexibleChild(of children: [CompiledNode]) -> Int? {
        let flexible = children.indices.filter { children[$0].flex.grow > 0 || children[$0].flex.shrink > 0 }
        guard flexible.count == 1, let only = flexible.first, children[only].flex.grow > 0, children[only].flex.shrink > 0,
            !children[only].isSpacer
        else { return nil }
        return only
    }
}

/// A node's flex factors and limits along a stack's axis, resolved.
struct ResolvedFlex: Sendable {
    var grow: Double
    var shrink: Double
    var minimum: Double?
    var maximum: Double?
}

struct CompiledDimension: Sendable {
    var fixed: Double?
    var minimum: Double?
    var maximum: Double?
}

/// Indirect: measuring switches over a node's kind for every node of every row, and copying the
/// unboxed enum (as wide as its widest case) would go through a generic copy and destroy; a box
/// is one retain.
indirect enum CompiledKind: Sendable {
    case label(CompiledLabel)
    case image(CompiledImage)
    case spacer(Double)
    case inset(EdgeInsets, CompiledNode)
    case stack(CompiledStack)
    case overlay(base: CompiledNode, layers: [CompiledNode], alignment: Node.Overlay.Alignment)
    case size(width: CompiledDimension, height: CompiledDimension, aspectRatio: Double?, alignment: Node.SizeRule.Alignment, child: CompiledNode)
    case conditional(field: FieldPath, test: Node.Conditional.Test, negated: Bool, child: CompiledNode)
    case accessory(Node.Accessory.Kind, field: FieldPath?, widths: [Node.Accessory.Kind: Double], height: Double)
}

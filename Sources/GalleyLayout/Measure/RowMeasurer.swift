// The measure pass: sizes every node of a compiled template for one item and width.

import GalleyJSON
import GalleyText

/// Measures a row. One measurer serves one row at any number of widths; it keeps each label's
/// shaped text, so a label is shaped once, and every node's measurement for the width and height
/// it was offered, so a node is measured once per offer. (A horizontal stack measures its
/// children at their natural width and again at their final one; without the memo, stacks
/// nested n deep would measure their innermost labels 2ⁿ times.)
struct RowMeasurer {
    let item: ItemDescriptor
    let template: CompiledTemplate
    let environment: LayoutEnvironment
    /// Whether containers keep their measured children, which arranging needs and a row's
    /// height does not (see ``CompiledTemplate/heights(_:widths:environment:context:)``). Without them,
    /// labels read only their texts' heights, and shape no more text than those need.
    let keepsChildren: Bool
    /// Per label (by ``CompiledLabel/index``): its shaped text and its measurements by kind.
    var labels: [LabelState] = []
    /// Measurements made so far, each with the offer it answers. A node's offers are chained
    /// from its latest one: a node is offered a few sizes, a row dozens, and searching them all
    /// would be most of a stack's work.
    var memo: MemoTable
    /// Every container's children, at every width measured: nodes name theirs by range, and
    /// measurements share the list (see ``MeasuredNode/children``).
    var measuredChildren: [MeasuredNode] = []
    /// The first label in the template (the lowest node id) whose text was shaped, and whether
    /// that text is right-to-left, for `.auto` rows. By template order rather than measuring
    /// order: a stack measures its sole flexible child last.
    var firstText: (nodeID: Int, isRightToLeft: Bool)?
    /// The span of the measurement ``measure(_:width:height:)`` returned last: a container
    /// reads its children's to make its own (see ``WidthSpan``).
    var lastSpan = WidthSpan.none

    /// - Parameter memory: The working memory an earlier row left, which this one reuses (see
    ///   ``LayoutContext``); give its arrays back with ``returnMemory(to:)``. (The memo's
    ///   storage stays with it: one measurer uses it at a time.)
    /// - Throws: ``LayoutError/invalidGeometry(_:)`` for a scale that is not a finite number > 0.
    init(
        item: ItemDescriptor, template: CompiledTemplate, environment: LayoutEnvironment, memory: Arrays? = nil, keepsChildren: Bool = true
    ) throws(LayoutError) {
        guard ValueRanges.scale.contains(environment.scale) else {
            throw .invalidGeometry("scale \(ValueRanges.problem(environment.scale, outside: ValueRanges.scale))")
        }
        self.init(item: item, template: template, validEnvironment: environment, memory: memory, keepsChildren: keepsChildren)
    }

    /// ``init(item:template:environment:memory:keepsChildren:)`` for an environment whose scale
    /// is valid. (Not throwing, it builds the measurer in place: a throwing one would build it in
    /// a temporary and copy it out whole.)
    private init(
        item: ItemDescriptor, template: CompiledTemplate, validEnvironment environment: LayoutEnvironment, memory: Arrays?, keepsChildren: Bool
    ) {
        self.item = item
        self.template = template
        self.environment = environment
        self.keepsChildren = keepsChildren
        let nodeCount = template.nodes.count
        memo = (memory?.memo ?? MemoStorage(nodeCount: nodeCount)).table(nodeCount: nodeCount)
        if let memory {
            // Emptied, keeping their room (the measured children get fresh room instead while
            // a measurement of the last row still holds them). A row of the same template
            // finds the per-label array the right size, and resets it in place.
            swap(&labels, &memory.labels)
            swap(&measuredChildren, &memory.measuredChildren)
            measuredChildren.removeAll(keepingCapacity: true)
        }
        // The labels are emptied as they are handed back (see `returnMemory(to:)`).
        if labels.count != template.labelCount {
            labels.removeAll(keepingCapacity: true)
            // Appended one by one: a repeated value is copied through its value witness, label by label.
            labels.reserveCapacity(template.labelCount)
            for _ in 0..<template.labelCount { labels.append(LabelState()) }
        }
        measuredChildren.reserveCapacity(4 * nodeCount)
    }

    /// The whole row at `width`: the root measured, the minimum height applied, the direction resolved.
    mutating func measureRow(width: Double) throws(LayoutError) -> RowMeasurement {
        // In two statements: `measurement(of: try measureRoot(…))` would read `self` before the
        // argument measured into it.
        let row = try measureRoot(width: width)
        return measurement(of: row, shared: sharedData())
    }

    /// A row measured at one width, before its ``RowMeasurement`` is made.
    struct MeasuredRow {
        var width: Double
        var root: MeasuredNode
        var exactHeight: Double
        /// `exactHeight` rounded up to device pixels: the row's height, as measurements and
        /// ``CompiledTemplate/heights(_:widths:environment:context:)`` report it.
        var height: Double
        var isRightToLeft: Bool
    }

    /// The row at each of `widths`, in order, their measurements not yet made (see ``measureRoot(width:)``).
    ///
    /// - Throws: for the first width that is not a finite number ≥ 0, before any is measured.
    mutating func measureRoots(widths: [Double]) throws(LayoutError) -> [MeasuredRow] {
        try measureRoots(widths: widths) { $0 }
    }

    /// What `result` makes of the row at each of `widths`, in order (see ``measureRoots(widths:)``).
    @inline(__always)
    mutating func measureRoots<Result>(widths: [Double], _ result: (MeasuredRow) -> Result) throws(LayoutError) -> [Result] {
        for width in widths { try Self.validate(rowWidth: width) }
        // The widest first: a label limited to a few lines is then shaped as far as the widest
        // lines show it, which the narrower ones need no more of (see `TextEngine.shape(_:paragraph:showing:)`).
        let widest = widths.indices.max { widths[$0] < widths[$1] }
        var widestRow: Result?
        if let widest { widestRow = result(try measureRoot(width: widths[widest])) }
        var rows: [Result] = []
        rows.reserveCapacity(widths.count)
        for index in widths.indices {
            if index == widest, let measured = widestRow.take() {
                rows.append(measured)
            } else {
                rows.append(result(try measureRoot(width: widths[index])))
            }
        }
        return rows
    }

    /// The row at `width`, its measurement not yet made: a row measured at several widths makes
    /// theirs once all are measured, so that they share one list of measured children (one made
    /// between two widths would share it, and the next width's first child copy it).
    mutating func measureRoot(width: Double) throws(LayoutError) -> MeasuredRow {
        try Self.validate(rowWidth: width)
        var root = try measure(template.root.id, width: width, height: nil)
        let exactHeight = max(root.isCollapsed ? 0 : root.size.height, template.minimumHeight)
        // Written this way round so that NaN fails too.
        guard exactHeight <= ValueRanges.largestResult else {
            throw .invalidGeometry(
                "the row would be \(exactHeight) points tall at width \(width), more than the largest length a result may have (\(ValueRanges.largestResult))")
        }
        if !root.isCollapsed && root.size.height < template.minimumHeight {
            // A minimum height centres the content vertically, as a table cell's content view does.
            root.origin.y = (template.minimumHeight - root.size.height) / 2
        }
        let isRightToLeft =
            switch environment.direction {
            case .leftToRight: false
            case .rightToLeft: true
            case .auto: firstText?.isRightToLeft ?? false
            }
        return MeasuredRow(
            width: width, root: root, exactHeight: exactHeight, height: pixelCeil(exactHeight), isRightToLeft: isRightToLeft)
    }

    /// What the measurements of the widths measured so far share (their children among it).
    func sharedData() -> MeasuredRowData {
        var accessories: [Int: Node.Accessory.Kind] = [:]
        for id in template.accessoryIDs {
            guard case .accessory(let kind, let field, _, _) = template.nodes[id].kind else { continue }
            // A field naming no kind failed the measurement already.
            accessories[id] =
                field.flatMap { field in
                    if case .string(let name)? = item.value(at: field) { Node.Accessory.Kind(rawValue: name) } else { nil }
                } ?? kind
        }
        var imageSources: [Int: String] = [:]
        for id in template.imageSourceIDs {
            guard case .image(let image) = template.nodes[id].kind, let field = image.source, case .string(let source)? = item.value(at: field)
            else { continue }
            imageSources[id] = source
        }
        return MeasuredRowData(
            itemID: item.id, measuredChildren: measuredChildren, template: template, accessories: accessories, imageSources: imageSources)
    }

    /// The measurement of `row`, whose widths share `shared` (from ``sharedData()`` once all are measured).
    func measurement(of row: MeasuredRow, shared: MeasuredRowData) -> RowMeasurement {
        var textLayouts: [TextLayout?] = []
        var colorRuns: [Int: [ArrangedLabel.ColorRun]] = [:]
        if environment.keepsTextLayouts {
            textLayouts = Array(filling: nil, count: template.nodes.count)
            layOutText(in: row.root, into: &textLayouts, colors: &colorRuns)
        }
        return RowMeasurement(
            width: row.width, height: row.height,
            exactHeight: row.exactHeight, scale: environment.scale, isRightToLeft: row.isRightToLeft, root: row.root,
            textLayouts: textLayouts, colorRuns: colorRuns, row: shared)
    }

    /// Throws the error ``measureRow(width:)`` gives for a width that is not a finite number ≥ 0.
    static func validate(rowWidth width: Double) throws(LayoutError) {
        guard ValueRanges.length.contains(width) else { throw .invalidGeometry("width \(ValueRanges.problem(width, outside: ValueRanges.length))") }
    }

    /// Lays out the glyphs of every label in a measured row, at the width it was measured at,
    /// into `layouts` by node id, and the colours of those of several styled runs into `colors`.
    private func layOutText(in node: MeasuredNode, into layouts: inout [TextLayout?], colors: inout [Int: [ArrangedLabel.ColorRun]]) {
        let labelIndex = Int(template.layoutNodes[node.nodeID].labelIndex)
        if let width = node.text?.offeredWidth, template.layoutNodes[node.nodeID].kind == .label, let paragraph = labels[labelIndex].shaped {
            layouts[node.nodeID] = paragraph.layout(width: width)
            colors[node.nodeID] = item.colorRuns(ofLabel: template.labels[labelIndex], node: node.nodeID, of: template)
        }
        for index in node.children { layOutText(in: measuredChildren[Int(index)], into: &layouts, colors: &colors) }
    }

    /// `value` rounded up to device pixels.
    func pixelCeil(_ value: Double) -> Double { LayoutSize.roundUp(value, scale: environment.scale) }

    // MARK: - Nodes

    /// Measures `node` offered `width` (possibly infinite) and, when known, `height`, and
    /// leaves the measurement's span in ``lastSpan``.
    mutating func measure(_ id: Int, width: Double, height: Double?) throws(LayoutError) -> MeasuredNode {
        var entry = memo.latestEntry(of: id)
        while entry >= 0 {
            if memo[entry].offer.answers(width: width, height: height) {
                lastSpan = memo[entry].span
                return memo[entry].measured
            }
            entry = memo[entry].offer.previous
        }
        // A measurement at another width answers when its span covers this one, unless the
        // children are kept: their places move with the width.
        if !keepsChildren && height == nil && width.isFinite {
            entry = memo.latestEntry(of: id)
            while entry >= 0 {
                let span = memo[entry].span
                if memo[entry].offer.height == nil && span.contains(width) {
                    lastSpan = span
                    return span.measurement(memo[entry].measured, at: Double(bitPattern: memo[entry].offer.width), as: width)
                }
                entry = memo[entry].offer.previous
            }
        }
        // Every kind leaves its measurement's span in `lastSpan` (see `measureAfresh`).
        let measured = try measureAfresh(id, width: width, height: height)
        // Chained after measuring: the node's children have been offered space meanwhile.
        memo.append(id, width: width, height: height, measured: measured, span: lastSpan)
        return measured
    }

    /// Measures node `id` from its ``LayoutNode`` when it is of a kind every row measures many
    /// times, else from its ``CompiledNode``, and leaves the measurement's span in ``lastSpan``.
    private mutating func measureAfresh(_ id: Int, width: Double, height: Double?) throws(LayoutError) -> MeasuredNode {
        switch template.layoutNodes[id].kind {
        case .label: return try measureLabel(id, Int(template.layoutNodes[id].labelIndex), width: width)
        case .spacer:
            let length = template.layoutNodes[id].length
            lastSpan = .all
            return MeasuredNode(id: id, size: LayoutSize(width: length, height: length))
        case .inset:
            return try measureInset(id, template.layoutNodes[id].insets, Int(template.layoutNodes[id].child), width: width, height: height)
        case .stack:
            return try StackLayout(id: id, nodes: template.layoutNodes, allChildIDs: template.childIDs).measure(with: &self, width: width, height: height)
        case .other:
            let measured = try measureOther(template.nodes[id], width: width, height: height)
            if case .conditional = template.nodes[id].kind {} else { lastSpan = .none }
            return measured
        }
    }

    // Images, overlays, size rules, conditions, accessories and wrapping stacks are measured out of
    // line: inlined, their locals would give every node's call of `measureAfresh` a larger frame.
    @inline(never)
    private mutating func measureOther(_ node: CompiledNode, width: Double, height: Double?) throws(LayoutError) -> MeasuredNode {
        switch node.kind {
        case .label, .spacer, .inset: preconditionFailure("measured from its layout node")
        case .image(let image): return try measureImage(node, image, width: width)
        case .stack(let stack):
            guard stack.wraps else { preconditionFailure("measured from its layout node") }
            return try measureWrappingStack(node, stack, width: width)
        case .overlay(let base, let layers, let alignment):
            return try measureOverlay(node, base: base, layers: layers, alignment: alignment, width: width, height: height)
        case .size(let widthRule, let heightRule, let aspectRatio, let alignment, let child):
            return try measureSizeRule(node, widthRule, heightRule, aspectRatio, alignment, child, width: width, height: height)
        case .conditional(let field, let test, let negated, let child):
            // Its span is its child's (it passes the offer through), or every offer's when it collapses.
            guard test.passes(item.value(at: field)) != negated else {
                lastSpan = .all
                return .collapsed(node.id)
            }
            let measured = try measure(child.id, width: width, height: height)
            return wrap(node.id, around: measured)
        case .accessory(let kind, let field, let widths, let accessoryHeight):
            var resolved = kind
            if let field, let value = item.value(at: field) {
                guard case .string(let name) = value, let parsed = Node.Accessory.Kind(rawValue: name) else {
                    throw .fieldType(
                        path: node.path, field: field.description, expected: "one of \(Node.Accessory.Kind.allCases.map(\.rawValue).joined(separator: ", "))",
                        found: value.describedForErrors)
                }
                resolved = parsed
            }
            guard resolved != .none, let slot = widths[resolved] else { return .collapsed(node.id) }
            return MeasuredNode(id: node.id, size: LayoutSize(width: slot, height: accessoryHeight))
        }
    }

    /// Keeps `children` with the row's measured children, and says where they are (nowhere
    /// when the measurer keeps none).
    @inline(__always)
    mutating func keep(_ children: some Collection<MeasuredNode>) -> Range<Int32> {
        guard keepsChildren else { return 0..<0 }
        let start = Int32(measuredChildren.count)
        measuredChildren.append(contentsOf: children)
        return start..<Int32(measuredChildren.count)
    }

    /// A node that only passes its one child through.
    private mutating func wrap(_ id: Int, around child: MeasuredNode) -> MeasuredNode {
        guard !child.isCollapsed else { return .collapsed(id) }
        return MeasuredNode(
            id: id, size: child.size, firstBaseline: child.firstBaseline, lastBaseline: child.lastBaseline,
            children: keep(CollectionOfOne(child)))
    }

}

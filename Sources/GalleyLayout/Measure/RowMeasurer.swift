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
    private var labels: [LabelState] = []
    /// Measurements made so far, each with the offer it answers. A node's offers are chained
    /// from its latest one: a node is offered a few sizes, a row dozens, and searching them all
    /// was most of a stack's work.
    private var memo: MemoTable
    /// Every container's children, at every width measured: nodes name theirs by range, and
    /// measurements share the list (see ``MeasuredNode/children``).
    private var measuredChildren: [MeasuredNode] = []
    /// The first label in the template (the lowest node id) whose text was shaped, and whether
    /// that text is right-to-left, for `.auto` rows. By template order rather than measuring
    /// order: a stack measures its sole flexible child last.
    private var firstText: (nodeID: Int, isRightToLeft: Bool)?
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
    /// is valid. (Not throwing, it builds the measurer in place: the throwing one built it in a
    /// temporary and copied it out whole.)
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

    /// Hands this measurer's arrays to `memory`, for the next row to reuse (the labels' shaped
    /// texts let go now, not when the next row starts).
    mutating func returnMemory(to memory: Arrays) {
        labels.withUnsafeMutableBufferPointer { labels in
            for index in labels.indices { labels[index] = LabelState() }
        }
        swap(&labels, &memory.labels)
        swap(&measuredChildren, &memory.measuredChildren)
    }

    /// A measurer's working memory between rows (see ``LayoutContext``): the memo's storage,
    /// and the labels' and measured children's arrays.
    final class Arrays {
        fileprivate let memo = MemoStorage()
        fileprivate var labels: [LabelState] = []
        fileprivate var measuredChildren: [MeasuredNode] = []
    }

    /// A label's shaped text and measurements by kind.
    fileprivate struct LabelState {
        var shaped: ShapedParagraph?
        /// The label's measurement at a width its whole text fits on one line, which every such
        /// width shares (see ``ShapedParagraph/fitsOnOneLine(width:)``).
        var oneLine: LabelLines?
        /// The label's measurement at a width its text does not fit on one line, which every
        /// such width shares when ``ShapedParagraph/heightDependsOnlyOnFitting`` says so.
        var wrapped: LabelLines?
    }

    /// What a label's measurement gives its node at every width of one kind (see ``LabelState``).
    fileprivate struct LabelLines {
        var height: Double
        var firstBaseline: Double
        var lastBaseline: Double
        var lineCount: Int
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
    /// theirs once all are measured, so that they share one list of measured children (a
    /// measurement made between two widths shared it, and the next width's first child copied it).
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
        let isRightToLeft = switch environment.direction {
        case .leftToRight: false
        case .rightToLeft: true
        case .auto: firstText?.isRightToLeft ?? false
        }
        return MeasuredRow(
            width: width, root: root, exactHeight: exactHeight, height: pixelCeil(exactHeight), isRightToLeft: isRightToLeft)
    }

    /// What the measurements of the widths measured so far share (their children among it).
    func sharedData() -> MeasuredRowData {
        MeasuredRowData(itemID: item.id, measuredChildren: measuredChildren, template: template)
    }

    /// The measurement of `row`, whose widths share `shared` (from ``sharedData()`` once all are measured).
    func measurement(of row: MeasuredRow, shared: MeasuredRowData) -> RowMeasurement {
        var textLayouts: [TextLayout?] = []
        if environment.keepsTextLayouts {
            textLayouts = Array(filling: nil, count: template.nodes.count)
            layOutText(in: row.root, into: &textLayouts)
        }
        return RowMeasurement(
            width: row.width, height: row.height,
            exactHeight: row.exactHeight, scale: environment.scale, isRightToLeft: row.isRightToLeft, root: row.root,
            textLayouts: textLayouts, row: shared)
    }

    /// Throws the error ``measureRow(width:)`` gives for a width that is not a finite number ≥ 0.
    static func validate(rowWidth width: Double) throws(LayoutError) {
        guard ValueRanges.length.contains(width) else { throw .invalidGeometry("width \(ValueRanges.problem(width, outside: ValueRanges.length))") }
    }

    /// Lays out the glyphs of every label in a measured row, at the width it was measured at,
    /// into `layouts` by node id.
    private func layOutText(in node: MeasuredNode, into layouts: inout [TextLayout?]) {
        if let width = node.text?.offeredWidth, template.layoutNodes[node.nodeID].kind == .label,
            let paragraph = labels[Int(template.layoutNodes[node.nodeID].labelIndex)].shaped {
            layouts[node.nodeID] = paragraph.layout(width: width)
        }
        for index in node.children { layOutText(in: measuredChildren[Int(index)], into: &layouts) }
    }

    /// `value` rounded up to device pixels.
    private func pixelCeil(_ value: Double) -> Double { LayoutSize.roundUp(value, scale: environment.scale) }

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
        case .stack: return try StackLayout(id: id, nodes: template.layoutNodes, allChildIDs: template.childIDs).measure(with: &self, width: width, height: height)
        case .other:
            let measured = try measureOther(template.nodes[id], width: width, height: height)
            if case .conditional = template.nodes[id].kind {} else { lastSpan = .none }
            return measured
        }
    }

    // Images, overlays, size rules, conditions, accessories and wrapping stacks are measured out
    // of line: inlined, their locals made every node's call of `measureAfresh` set up a larger frame.
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
            guard Self.passes(item.value(at: field), test) != negated else {
                lastSpan = .all
                return .collapsed(node.id)
            }
            let measured = try measure(child.id, width: width, height: height)
            return wrap(node.id, around: measured)
        case .accessory(let kind, let field, let widths, let accessoryHeight):
            var resolved = kind
            if let field, let value = item.value(at: field) {
                guard case .string(let name) = value, let parsed = Node.Accessory.Kind(rawValue: name) else {
                    throw .fieldType(path: node.path, field: field.description, expected: "one of \(Node.Accessory.Kind.allCases.map(\.rawValue).joined(separator: ", "))", found: Self.describe(value))
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

    // MARK: - Labels

    /// Measures node `id`, label `index` (see ``CompiledLabel/index``): its compiled label is
    /// read only to shape its text, once a row.
    private mutating func measureLabel(_ id: Int, _ index: Int, width: Double) throws(LayoutError) -> MeasuredNode {
        let available = width.isNaN ? 0 : max(width, 0)
        let paragraph: ShapedParagraph
        if let cached = labels[index].shaped {
            paragraph = cached
        } else {
            let shapedText: ShapedParagraph?
            switch try text(ofLabel: template.labels[index], node: id, showing: available) {
            case .shaped(let shaped): shapedText = shaped
            case .oneLine(let line):
                // The same line at every width (see `TextEngine.oneLineHeight(of:prepared:)`).
                if firstText.map({ id < $0.nodeID }) ?? true { firstText = (id, false) }
                lastSpan = .within(0, .infinity, form: .offer)
                return MeasuredNode(
                    id: id, size: LayoutSize(width: available, height: pixelCeil(line.height)), firstBaseline: line.firstBaseline,
                    lastBaseline: line.lastBaseline, text: MeasuredText(offeredWidth: available, lineCount: line.lineCount))
            case nil: shapedText = nil
            }
            guard let shapedText else {
                lastSpan = .all
                return .collapsed(id)
            }
            paragraph = shapedText
            labels[index].shaped = paragraph
            if firstText.map({ id < $0.nodeID }) ?? true { firstText = (id, paragraph.isRightToLeft) }
        }
        // Only sizes here: the glyphs of the labels that end up in the row are laid out once
        // the row is measured (see `layOutText`), not those of every width a label was offered.
        // Text that fits one line at this width has the same line at every such width: a label
        // measured once that way (often at its natural width) answers the row's other widths.
        // So does one measured where it does not fit, when its height cannot depend on more
        // than that (see `heightDependsOnlyOnFitting`: most two-line previews).
        let fitsOneLine = paragraph.fitsOnOneLine(width: available)
        if available.isFinite, let line = fitsOneLine ? labels[index].oneLine : labels[index].wrapped {
            lastSpan = Self.span(of: paragraph, fitting: fitsOneLine)
            return MeasuredNode(
                id: id, size: LayoutSize(width: available, height: line.height), firstBaseline: line.firstBaseline,
                lastBaseline: line.lastBaseline, text: MeasuredText(offeredWidth: available, lineCount: line.lineCount))
        }
        // A label fills the width it is offered, as a cell's text label fills its content area
        // (so only the text's height is needed); offered unlimited width, it is as wide as its
        // text. Heights round up to pixels, as UIKit's sizeThatFits does.
        let lines: TextHeight
        let labelWidth: Double
        if available.isFinite {
            lines = paragraph.measureHeight(width: available)
            labelWidth = available
        } else {
            let measurement = paragraph.measure(width: available)
            lines = TextHeight(
                height: measurement.size.height, lineCount: measurement.lineCount,
                firstBaseline: measurement.firstBaseline, lastBaseline: measurement.lastBaseline)
            labelWidth = pixelCeil(measurement.size.width)
        }
        let size = LayoutSize(width: labelWidth, height: pixelCeil(lines.height))
        let kept = LabelLines(
            height: size.height, firstBaseline: lines.firstBaseline, lastBaseline: lines.lastBaseline, lineCount: lines.lineCount)
        if fitsOneLine {
            labels[index].oneLine = kept
        } else if available.isFinite && paragraph.heightDependsOnlyOnFitting {
            labels[index].wrapped = kept
        }
        // Every finite offer that fits (or not) as this one does measures the same way.
        lastSpan = available.isFinite && (fitsOneLine || paragraph.heightDependsOnlyOnFitting)
            ? Self.span(of: paragraph, fitting: fitsOneLine) : .none
        return MeasuredNode(
            id: id, size: size, firstBaseline: lines.firstBaseline, lastBaseline: lines.lastBaseline,
            text: MeasuredText(offeredWidth: available, lineCount: lines.lineCount))
    }

    /// The offers at which a label of `paragraph` fits on one line (or not, as `fits` says):
    /// where the memo of ``LabelState`` answers it, filling the offer. Every offer, for a
    /// paragraph whose height ignores the width (one line, one line box, ellipsis or not).
    private static func span(of paragraph: ShapedParagraph, fitting fits: Bool) -> WidthSpan {
        if paragraph.heightIgnoresWidth { return .within(0, .infinity, form: .offer) }
        let threshold = paragraph.oneLineThreshold
        guard fits else { return .within(0, threshold.width, form: .offer) }
        return threshold.holdsAbove ? .within(threshold.width, .infinity, form: .offer) : .none
    }

    /// What a label's text gives its measurement: the text shaped, or the height of its one line.
    private enum LabelText {
        case shaped(ShapedParagraph)
        case oneLine(TextHeight)
    }

    /// The label's text shaped for lines of `width` first (see
    /// ``TextEngine/shape(_:paragraph:showing:heightsOnly:)``), or nil when it is empty (the
    /// label collapses). A measurer that keeps no children reads only the text's heights, and
    /// those of a label limited to one line may come without shaping (see
    /// ``TextEngine/oneLineHeight(of:prepared:)``) when it is offered a finite width.
    private func text(ofLabel label: CompiledLabel, node: Int, showing width: Double) throws(LayoutError) -> LabelText? {
        let engine = environment.textEngine
        let heightsOnly = !keepsChildren
        let text: AttributedText
        switch label.content {
        case .runs(let runs):
            text = try attributedText(runs: runs, node: node)
        case .styledField(let field):
            text = try attributedText(styledField: field, label: label, node: node)
        case .field, .literal, .format:
            // One string in the label's style: a cache hit builds no attributed text (and, in
            // no particular language, no paragraph style either).
            guard let string = try string(for: label.content, node: node) else { return nil }
            do {
                guard environment.language != nil else {
                    if heightsOnly && width.isFinite, let line = engine.oneLineHeight(of: string, prepared: label.prepared) {
                        return .oneLine(line)
                    }
                    return .shaped(try engine.shape(string, prepared: label.prepared, showing: width, heightsOnly: heightsOnly))
                }
                return .shaped(try engine.shape(
                    string, style: label.style.style, paragraph: paragraphStyle(of: label), showing: width, heightsOnly: heightsOnly))
            } catch { throw .text(error) }
        }
        guard !text.string.isEmpty else { return nil }
        do {
            return .shaped(try engine.shape(text, paragraph: paragraphStyle(of: label), showing: width, heightsOnly: heightsOnly))
        } catch { throw .text(error) }
    }

    /// The label's paragraph style in the row's language.
    private func paragraphStyle(of label: CompiledLabel) -> ParagraphStyle {
        var style = label.paragraph
        style.language = environment.language
        return style
    }

    /// A label's runs, each in its own style (empty runs left out).
    private func attributedText(runs: [(CompiledContent, ResolvedTextStyle)], node: Int) throws(LayoutError) -> AttributedText {
        var text = AttributedText()
        for (content, style) in runs {
            if let string = try string(for: content, node: node) { text.append(string, style: style.style) }
        }
        return text
    }

    /// The runs an item's field gives a label: `[{"text", "style"}]`, styles named in the
    /// stylesheet, the label's own style when none is named (empty when the field is missing).
    private func attributedText(styledField field: FieldPath, label: CompiledLabel, node: Int) throws(LayoutError) -> AttributedText {
        var text = AttributedText()
        guard let value = item.value(at: field) else { return text }
        guard case .array(let runs) = value else {
            throw .fieldType(path: template.nodes[node].path, field: field.description, expected: "an array of {\"text\", \"style\"} runs", found: Self.describe(value))
        }
        for (index, run) in runs.enumerated() {
            guard case .object(let members) = run, case .string(let string)? = members["text"] else {
                throw .fieldType(path: template.nodes[node].path, field: "\(field).\(index)", expected: "an object with a string \"text\"", found: Self.describe(run))
            }
            var style = label.style
            if case .string(let name)? = members["style"] {
                guard let spec = template.stylesheet.textStyles[name] else {
                    throw .invalidTemplate(path: template.nodes[node].path, reason: "item \(item.id) names unknown text style '\(name)' in \(field).\(index)")
                }
                // Checked here, not when the stylesheet was compiled: a template checks only the styles it names.
                let textStyle = spec.textStyle(multiplier: template.stylesheet.contentSizeMultiplier)
                if let problem = spec.problem ?? textStyle.problem {
                    throw .invalidTemplate(path: template.nodes[node].path, reason: "text style '\(name)' named in \(field).\(index): \(problem)")
                }
                style = ResolvedTextStyle(
                    style: textStyle,
                    lineHeightMultiple: spec.lineHeightMultiple, color: template.stylesheet.resolveColor(spec.color))
            }
            text.append(string, style: style.style)
        }
        return text
    }

    /// The text of a field, literal or format; nil when it is empty or all its fields are.
    private func string(for content: CompiledContent, node: Int) throws(LayoutError) -> String? {
        switch content {
        case .literal(let literal): return literal.isEmpty ? nil : literal
        case .field(let field):
            guard let value = item.value(at: field) else { return nil }
            guard let text = FieldFormatter.text(of: value) else {
                throw .fieldType(path: template.nodes[node].path, field: field.description, expected: "text or a number", found: Self.describe(value))
            }
            return text.isEmpty ? nil : text
        case .format(let pieces):
            var result = ""
            var anyField = false
            for piece in pieces {
                switch piece {
                case .literal(let literal): result += literal
                case .field(let field, let formatter):
                    guard let value = item.value(at: field) else { continue }
                    let text = formatter.map { FieldFormatter.apply($0, to: value) } ?? FieldFormatter.text(of: value)
                    guard let text else {
                        throw .fieldType(path: template.nodes[node].path, field: field.description, expected: formatter == "duration" ? "a number of seconds" : formatter == "list" ? "an array of text or numbers" : "text or a number", found: Self.describe(value))
                    }
                    if !text.isEmpty { anyField = true }
                    result += text
                }
            }
            let hasFields = pieces.contains { if case .field = $0 { return true } else { return false } }
            return (hasFields && !anyField) || result.isEmpty ? nil : result
        case .runs, .styledField:
            return nil
        }
    }

    // MARK: - Images

    @inline(never)
    private func measureImage(_ node: CompiledNode, _ image: CompiledImage, width: Double) throws(LayoutError) -> MeasuredNode {
        if let source = image.source, item.value(at: source) == nil { return .collapsed(node.id) }
        var size: LayoutSize
        switch image.size {
        case .fixed(let fixed): size = fixed
        case .fields(let widthField, let heightField, let fallback):
            let width = item.value(at: widthField)
            let height = item.value(at: heightField)
            if let width, let height {
                guard let w = width.doubleValue, ValueRanges.length.contains(w) else {
                    throw .fieldType(path: node.path, field: widthField.description, expected: Self.lengthExpected, found: Self.describe(width))
                }
                guard let h = height.doubleValue, ValueRanges.length.contains(h) else {
                    throw .fieldType(path: node.path, field: heightField.description, expected: Self.lengthExpected, found: Self.describe(height))
                }
                size = LayoutSize(width: w, height: h)
            } else if let fallback {
                size = fallback
            } else {
                return .collapsed(node.id)
            }
        }
        // Bounds keep the aspect ratio: scale down to the maximum (and the width offered), up to the minimum.
        var scale = 1.0
        if let maximum = image.maximum {
            if size.width > maximum.width && size.width > 0 { scale = min(scale, maximum.width / size.width) }
            if size.height > maximum.height && size.height > 0 { scale = min(scale, maximum.height / size.height) }
        }
        if width.isFinite && size.width * scale > width && size.width > 0 { scale = min(scale, width / size.width) }
        if scale == 1, let minimum = image.minimum {
            if size.width < minimum.width && size.width > 0 { scale = max(scale, minimum.width / size.width) }
            if size.height < minimum.height && size.height > 0 { scale = max(scale, minimum.height / size.height) }
        }
        size = LayoutSize(width: size.width * scale, height: size.height * scale)
        return MeasuredNode(id: node.id, size: size)
    }

    // MARK: - Containers

    private mutating func measureInset(
        _ id: Int, _ insets: EdgeInsets, _ child: Int, width: Double, height: Double?
    ) throws(LayoutError) -> MeasuredNode {
        let offer = max(width - insets.horizontal, 0)
        var measured = try measure(child, width: offer, height: height.map { max($0 - insets.vertical, 0) })
        // The child's span, over the offers that pass it the width less the insets.
        lastSpan = width.isFinite
            ? lastSpan.asParentSpan(parentOffer: width, childOffer: offer)
                .intersection(.within(insets.horizontal, .infinity, form: .follows), form: lastSpan.form == .constant ? .constant : .follows)
            : .none
        guard !measured.isCollapsed else { return .collapsed(id) }
        measured.origin = LayoutPoint(x: insets.left, y: insets.top)
        return MeasuredNode(
            id: id, size: LayoutSize(width: measured.size.width + insets.horizontal, height: measured.size.height + insets.vertical),
            firstBaseline: measured.firstBaseline.map { $0 + insets.top }, lastBaseline: measured.lastBaseline.map { $0 + insets.top },
            children: keep(CollectionOfOne(measured)))
    }

    @inline(never)
    private mutating func measureOverlay(
        _ node: CompiledNode, base: CompiledNode, layers: [CompiledNode], alignment: Node.Overlay.Alignment, width: Double, height: Double?
    ) throws(LayoutError) -> MeasuredNode {
        let measuredBase = try measure(base.id, width: width, height: height)
        guard !measuredBase.isCollapsed else { return .collapsed(node.id) }
        let bounds = measuredBase.size
        var children = [measuredBase]
        for layer in layers {
            var measured = try measure(layer.id, width: bounds.width, height: bounds.height)
            if alignment == .fill { measured.size = bounds }
            let slackX = bounds.width - measured.size.width
            let slackY = bounds.height - measured.size.height
            let x: Double = switch alignment {
            case .topLeading, .leading, .bottomLeading, .fill: 0
            case .top, .center, .bottom: slackX / 2
            case .topTrailing, .trailing, .bottomTrailing: slackX
            }
            let y: Double = switch alignment {
            case .topLeading, .top, .topTrailing, .fill: 0
            case .leading, .center, .trailing: slackY / 2
            case .bottomLeading, .bottom, .bottomTrailing: slackY
            }
            measured.origin = LayoutPoint(x: x, y: y)
            children.append(measured)
        }
        return MeasuredNode(
            id: node.id, size: bounds, firstBaseline: measuredBase.firstBaseline, lastBaseline: measuredBase.lastBaseline,
            children: keep(children))
    }

    @inline(never)
    private mutating func measureSizeRule(
        _ node: CompiledNode, _ widthRule: CompiledDimension, _ heightRule: CompiledDimension, _ aspectRatio: Double?,
        _ alignment: Node.SizeRule.Alignment, _ child: CompiledNode, width: Double, height: Double?
    ) throws(LayoutError) -> MeasuredNode {
        func clamp(_ value: Double, _ rule: CompiledDimension) -> Double {
            if let fixed = rule.fixed { return fixed }
            var result = value
            if let maximum = rule.maximum { result = min(result, maximum) }
            if let minimum = rule.minimum { result = max(result, minimum) }
            return result
        }
        let offeredWidth = widthRule.fixed ?? min(width, widthRule.maximum ?? .infinity)
        var offeredHeight = heightRule.fixed ?? height.map { min($0, heightRule.maximum ?? .infinity) }
        if let aspectRatio, offeredWidth.isFinite, heightRule.fixed == nil { offeredHeight = offeredWidth / aspectRatio }
        var measured = try measure(child.id, width: offeredWidth, height: offeredHeight)
        guard !measured.isCollapsed else { return .collapsed(node.id) }
        let finalWidth = clamp(widthRule.fixed ?? (aspectRatio != nil && offeredWidth.isFinite ? offeredWidth : measured.size.width), widthRule)
        var finalHeight = clamp(measured.size.height, heightRule)
        if let aspectRatio, heightRule.fixed == nil { finalHeight = clamp(finalWidth / aspectRatio, heightRule) }
        let slack = finalHeight - measured.size.height
        let y: Double = switch alignment {
        case .top: 0
        case .center: slack / 2
        case .bottom: slack
        }
        measured.origin = LayoutPoint(x: 0, y: y)
        if widthRule.fixed != nil || aspectRatio != nil { measured.size.width = min(measured.size.width, finalWidth) }
        return MeasuredNode(
            id: node.id, size: LayoutSize(width: finalWidth, height: finalHeight),
            firstBaseline: measured.firstBaseline.map { $0 + y }, lastBaseline: measured.lastBaseline.map { $0 + y },
            children: keep(CollectionOfOne(measured)))
    }

    /// A horizontal stack whose children flow onto new rows when they do not fit (tags, chips).
    @inline(never)
    private mutating func measureWrappingStack(_ node: CompiledNode, _ stack: CompiledStack, width: Double) throws(LayoutError) -> MeasuredNode {
        var children: [MeasuredNode] = []
        var x = 0.0, y = 0.0, rowHeight = 0.0, widest = 0.0
        var rowStart = 0
        func finishRow() {
            // Cross alignment within the row.
            for index in rowStart..<children.count where !children[index].isCollapsed {
                let slack = rowHeight - children[index].size.height
                switch stack.alignment {
                case .center: children[index].origin.y = y + slack / 2
                case .trailing: children[index].origin.y = y + slack
                case .fill: children[index].size.height = rowHeight
                default: break
                }
            }
        }
        for child in stack.children {
            // Children hug their content: natural size, no wider than the stack.
            var measured = try measure(child.id, width: .infinity, height: nil)
            if width.isFinite && measured.size.width > width { measured = try measure(child.id, width: width, height: nil) }
            if measured.isCollapsed || child.isSpacer {
                children.append(measured.isCollapsed ? measured : .collapsed(child.id))
                continue
            }
            let needed = (x > 0 ? stack.spacing : 0) + measured.size.width
            if x > 0 && x + needed > width + 1e-9 {
                finishRow()
                y += rowHeight + stack.lineSpacing
                x = 0
                rowHeight = 0
                rowStart = children.count
            }
            if x > 0 { x += stack.spacing }
            measured.origin = LayoutPoint(x: x, y: y)
            x += measured.size.width
            widest = max(widest, x)
            rowHeight = max(rowHeight, measured.size.height)
            children.append(measured)
        }
        guard children.contains(where: { !$0.isCollapsed }) else { return .collapsed(node.id) }
        finishRow()
        return MeasuredNode(id: node.id, size: LayoutSize(width: width.isFinite ? max(widest, 0) : widest, height: y + rowHeight), children: keep(children))
    }

    // MARK: - Helpers

    static func passes(_ value: JSONValue?, _ test: Node.Conditional.Test) -> Bool {
        guard let value else { return false }
        switch test {
        case .present: return true
        case .nonEmpty:
            switch value {
            case .string(let string): return !string.isEmpty
            case .array(let array): return !array.isEmpty
            case .object(let object): return !object.isEmpty
            default: return true
            }
        case .isTrue:
            switch value {
            case .bool(let bool): return bool
            case .integer(let integer): return integer != 0
            case .number(let number): return number != 0
            case .numeral(let text): return Double(text) != 0
            case .string(let string): return !string.isEmpty && string != "false"
            default: return false
            }
        }
    }

    static func describe(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): "a string (\"\(string.prefix(20))\")"
        case .integer, .number, .numeral: value.doubleValue.map { "\($0)" } ?? value.kindName
        default: value.kindName
        }
    }

    /// What an image's width or height field must hold.
    static let lengthExpected = "a number ≥ 0 and ≤ \(Int(ValueRanges.length.upperBound))"
}

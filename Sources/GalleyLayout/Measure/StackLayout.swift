// Stacks: children along an axis, flexing like CSS flex items, aligned across it.

import GalleyText

/// Measures a (non-wrapping) stack.
///
/// Each visible child starts at its natural size along the axis (a label's widest line, an
/// image's width, a spacer's length). Free space goes to children by their grow factors; an
/// overflow is taken from children by their shrink factors weighted by their natural sizes,
/// never below their minimums, and children whose size changed are measured again at it (a
/// shrunk label wraps onto more lines). Collapsed children take no space and no spacing.
struct StackLayout {
    let stack: CompiledStack
    let node: CompiledNode

    func measure(with measurer: inout RowMeasurer, width: Double, height: Double?) throws(LayoutError) -> MeasuredNode {
        let horizontal = stack.axis == .horizontal
        let nodes = stack.children
        // A horizontal stack starts each child at its natural (unconstrained) width, as CSS flex
        // items start at their max-content size; a vertical one offers every child its width.
        // (Loops rather than filtered and mapped arrays: a row measures its stacks many times.)
        var children: [MeasuredNode] = []
        children.reserveCapacity(nodes.count)
        var visibleCount = 0
        var hasContent = false
        for child in nodes {
            let measured = try measurer.measure(child, width: horizontal ? .infinity : width, height: horizontal ? height : nil)
            if !measured.isCollapsed {
                visibleCount += 1
                if !child.isSpacer { hasContent = true }
            }
            children.append(measured)
        }
        guard hasContent else { return .collapsed(node) }

        // Main axis: natural sizes (of the visible children, in order), then flex.
        func mainSize(_ size: Size) -> Double { horizontal ? size.width : size.height }
        let gaps = stack.spacing * Double(visibleCount - 1)
        let available = (horizontal ? width : height).map { $0 - gaps }
        var sizes: [Double] = []
        sizes.reserveCapacity(visibleCount)
        for index in children.indices where !children[index].isCollapsed {
            // A spacer's natural length is its measured size along the axis (see RowMeasurer).
            sizes.append(nodes[index].isSpacer ? mainSize(children[index].size) : clamp(mainSize(children[index].size), nodes[index]))
        }
        if let available, available.isFinite {
            var flexing: [CompiledNode] = []
            flexing.reserveCapacity(visibleCount)
            for index in children.indices where !children[index].isCollapsed { flexing.append(nodes[index]) }
            sizes = Self.distribute(sizes, available: available, nodes: flexing)
        }
        var position = 0
        for index in children.indices where !children[index].isCollapsed {
            defer { position += 1 }
            let child = nodes[index]
            if child.isSpacer {
                children[index].size = horizontal ? Size(width: sizes[position], height: 0) : Size(width: 0, height: sizes[position])
                continue
            }
            if abs(mainSize(children[index].size) - sizes[position]) > 1e-9 {
                children[index] = horizontal
                    ? try measurer.measure(child, width: sizes[position], height: height)
                    : try measurer.measure(child, width: width, height: sizes[position])
            }
            if horizontal { children[index].size.width = sizes[position] } else { children[index].size.height = sizes[position] }
        }

        // Cross axis, over the visible children that are not spacers. (Helpers take the children
        // as arguments: a local function that captured the mutable array would box it, and
        // every access would then be checked for exclusivity at run time.)
        func isContent(_ index: Int, _ children: [MeasuredNode]) -> Bool { !children[index].isCollapsed && !nodes[index].isSpacer }
        var widestCross = 0.0
        var hasCross = false
        for index in children.indices where isContent(index, children) {
            let cross = horizontal ? children[index].size.height : children[index].size.width
            widestCross = hasCross ? max(widestCross, cross) : cross
            hasCross = true
        }
        var crossSize: Double
        if horizontal {
            crossSize = height ?? widestCross
        } else {
            crossSize = stack.alignment == .fill && width.isFinite ? width : widestCross
        }
        var baselineShifts: [Int: Double] = [:]
        if horizontal && (stack.alignment == .firstBaseline || stack.alignment == .lastBaseline) {
            let first = stack.alignment == .firstBaseline
            func baseline(_ child: MeasuredNode) -> Double {
                (first ? child.firstBaseline : child.lastBaseline) ?? child.size.height
            }
            var line = -Double.infinity  // there is content, so this becomes its lowest baseline
            for index in children.indices where isContent(index, children) { line = max(line, baseline(children[index])) }
            var bottom = 0.0
            for index in children.indices where isContent(index, children) {
                baselineShifts[index] = line - baseline(children[index])
                bottom = max(bottom, line - baseline(children[index]) + children[index].size.height)
            }
            crossSize = height ?? bottom
        }

        // Positions.
        var offset = 0.0
        position = 0
        for index in children.indices where !children[index].isCollapsed {
            if position > 0 { offset += stack.spacing }
            let childCross = horizontal ? children[index].size.height : children[index].size.width
            var cross: Double
            switch stack.alignment {
            case .leading: cross = 0
            case .center: cross = (crossSize - childCross) / 2
            case .trailing: cross = crossSize - childCross
            case .fill:
                cross = 0
                if !nodes[index].isSpacer {
                    if horizontal { children[index].size.height = crossSize } else { children[index].size.width = crossSize }
                }
            case .firstBaseline, .lastBaseline: cross = baselineShifts[index] ?? 0
            }
            children[index].origin = horizontal ? Point(x: offset, y: cross) : Point(x: cross, y: offset)
            offset += sizes[position]
            position += 1
        }
        let size = horizontal ? Size(width: offset, height: crossSize) : Size(width: crossSize, height: offset)
        let placed = children
        let firstText = placed.indices.first { isContent($0, placed) && placed[$0].firstBaseline != nil }
        let lastText = placed.indices.last { isContent($0, placed) && placed[$0].lastBaseline != nil }
        return MeasuredNode(
            node: node, size: size,
            firstBaseline: firstText.map { placed[$0].origin.y + placed[$0].firstBaseline! },
            lastBaseline: lastText.map { placed[$0].origin.y + placed[$0].lastBaseline! },
            children: placed)
    }

    private func clamp(_ value: Double, _ node: CompiledNode) -> Double {
        var result = value
        if let maximum = node.maximum { result = min(result, maximum) }
        if let minimum = node.minimum { result = max(result, minimum) }
        return result
    }

    /// Grows or shrinks `sizes` to add up to `available`, freezing children at their limits.
    static func distribute(_ natural: [Double], available: Double, nodes: [CompiledNode]) -> [Double] {
        var sizes = natural
        // Most stacks fit exactly or have nothing to flex: no working arrays for them.
        var free = available - sizes.reduce(0, +)
        guard abs(free) >= 1e-9 else { return sizes }
        // Children at a limit, made only once one reaches it (most rounds freeze none).
        var frozen: [Bool] = []
        func isFrozen(_ index: Int, _ frozen: [Bool]) -> Bool { !frozen.isEmpty && frozen[index] }
        for _ in 0...sizes.count {
            let growing = free > 0
            var total = 0.0
            for index in nodes.indices {
                total += weight(of: index, growing: growing, frozen: isFrozen(index, frozen), natural: natural, nodes: nodes)
            }
            guard total > 0 else { break }
            var changed = false
            for index in nodes.indices {
                // Weighed before this child is frozen below: every child's share comes from the same total.
                let weight = weight(of: index, growing: growing, frozen: isFrozen(index, frozen), natural: natural, nodes: nodes)
                guard weight > 0 else { continue }
                var proposed = sizes[index] + free * weight / total
                var reachedLimit = false
                if growing, let maximum = nodes[index].maximum, proposed >= maximum {
                    proposed = maximum
                    reachedLimit = true
                }
                let minimum = nodes[index].minimum ?? 0
                if !growing && proposed <= minimum {
                    proposed = minimum
                    reachedLimit = true
                }
                if reachedLimit {
                    if frozen.isEmpty { frozen = [Bool](repeating: false, count: sizes.count) }
                    frozen[index] = true
                }
                if proposed != sizes[index] { changed = true }
                sizes[index] = proposed
            }
            if !changed { break }
            free = available - sizes.reduce(0, +)
            if abs(free) < 1e-9 { break }
        }
        return sizes
    }

    /// A child's share of free space: its grow factor, or its shrink factor times its natural size.
    private static func weight(of index: Int, growing: Bool, frozen: Bool, natural: [Double], nodes: [CompiledNode]) -> Double {
        guard !frozen else { return 0 }
        return growing ? nodes[index].grow : nodes[index].shrink * natural[index]
    }
}

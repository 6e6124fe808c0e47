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
    /// The stack's node id.
    let id: Int
    let stack: LayoutNode.Stack
    /// The template's layout nodes, and the stack's children's ids.
    let nodes: UnsafeBufferPointer<LayoutNode>
    let childIDs: UnsafeBufferPointer<Int32>

    /// Node `id`, a stack, of the template whose ``CompiledTemplate/layoutNodes`` and
    /// ``CompiledTemplate/childIDs`` are `nodes` and `allChildIDs`.
    init(id: Int, nodes: UnsafeBufferPointer<LayoutNode>, allChildIDs: UnsafeBufferPointer<Int32>) {
        self.id = id
        self.nodes = nodes
        let stack = nodes[id].stack
        self.stack = stack
        childIDs = UnsafeBufferPointer(start: allChildIDs.baseAddress.map { $0 + Int(stack.firstChild) }, count: Int(stack.childCount))
    }

    /// A visible child's working state. The slots live in stack memory for one measure: a row
    /// measures its stacks many times, and working arrays would be a heap allocation each.
    struct Slot {
        /// The child's index among the stack's children.
        var index: Int
        var isSpacer: Bool
        /// Size along the axis: natural (clamped to the child's limits), then after flexing.
        var natural: Double
        var size: Double
        /// Whether flexing stopped the child at a limit.
        var isFrozen = false
        /// Offset across the axis for baseline alignment.
        var baselineShift = 0.0
    }

    func measure(with measurer: inout RowMeasurer, width: Double, height: Double?) throws(LayoutError) -> MeasuredNode {
        let horizontal = stack.isHorizontal
        // The children's measurements, in stack memory until the stack's own is made.
        return try withUnsafeTemporaryAllocation(of: MeasuredNode.self, capacity: childIDs.count) { children throws(LayoutError) in
            // Those measured so far, deinitialized however this ends (a no-op while measured
            // nodes are plain data, and right if they ever hold references).
            var measuredCount = 0
            defer { UnsafeMutableBufferPointer(rebasing: children[..<measuredCount]).deinitialize() }
            // A horizontal stack starts each child at its natural (unconstrained) width, as CSS
            // flex items start at their max-content size; a vertical one offers every child its width.
            // The sole flexible child of a horizontal stack of known width is measured last, once,
            // at the width the others leave it: a long label limited to a few lines then never
            // lays its whole text out on one line (nor shapes the part no line shows).
            let sole = horizontal && width.isFinite && stack.soleFlexibleChild >= 0 ? Int(stack.soleFlexibleChild) : nil
            // The offers this measurement holds over (see `WidthSpan`): a filling vertical stack's,
            // those all its children hold over; a horizontal one's, those its sole flexible
            // child does (the others are offered unlimited width), within the child's limits.
            let followsSpans = width.isFinite && height == nil && (horizontal ? sole != nil : stack.alignment == .fill)
            var span = followsSpans ? WidthSpan.all : .none
            var visibleCount = 0
            var hasContent = false
            for index in 0..<childIDs.count {
                let child = childID(index)
                let measured =
                    index == sole
                    ? .collapsed(child)
                    : try measurer.measure(child, width: horizontal ? .infinity : width, height: horizontal ? height : nil)
                if followsSpans && !horizontal { span = span.intersection(measurer.lastSpan, form: .offer) }
                if !measured.isCollapsed {
                    visibleCount += 1
                    if !nodes[child].isSpacer { hasContent = true }
                }
                children.initializeElement(at: index, to: measured)
                measuredCount += 1
            }
            var soleWidth: Double?
            if let sole {
                let left = spaceLeft(by: sole, width: width, children: children, othersVisible: visibleCount)
                let limits = nodes[childID(sole)].flex
                let offered = max(min(left, limits.maximum ?? .infinity), limits.minimum ?? 0)
                children[sole] = try measurer.measure(childID(sole), width: offered, height: height)
                if followsSpans {
                    let unclamped = WidthSpan.within(width - left + (limits.minimum ?? 0), width - left + (limits.maximum ?? .infinity), form: .follows)
                    span = measurer.lastSpan.asParentSpan(parentOffer: width, childOffer: offered).intersection(unclamped, form: .follows)
                }
                if !children[sole].isCollapsed {
                    visibleCount += 1
                    hasContent = true
                    soleWidth = offered
                }
            }
            guard hasContent else {
                // What collapses a stack is its item's data, whatever the width.
                measurer.lastSpan = .all
                return .collapsed(id)
            }
            return try withUnsafeTemporaryAllocation(of: Slot.self, capacity: visibleCount) { slots throws(LayoutError) in
                var position = 0
                for index in children.indices where !children[index].isCollapsed {
                    let child = nodes[childID(index)]
                    let natural =
                        index == sole
                        ? soleWidth ?? mainSize(children[index].size, horizontal)
                        : naturalSize(of: children[index], child, horizontal)
                    slots.initializeElement(at: position, to: Slot(index: index, isSpacer: child.isSpacer, natural: natural, size: natural))
                    position += 1
                }
                defer { slots.deinitialize() }
                return try place(children: children, slots: slots, measurer: &measurer, width: width, height: height, span: span)
            }
        }
    }

    /// Flexes, re-measures, aligns and positions the visible children (`slots`), and makes the
    /// stack's measurement, which holds over `span` unless flexing changes sizes.
    private func place(
        children: UnsafeMutableBufferPointer<MeasuredNode>, slots: UnsafeMutableBufferPointer<Slot>, measurer: inout RowMeasurer,
        width: Double, height: Double?, span: WidthSpan
    ) throws(LayoutError) -> MeasuredNode {
        let horizontal = stack.isHorizontal
        var span = span
        // Main axis: flex, then measure again the children whose size changed.
        let gaps = stack.spacing * Double(slots.count - 1)
        if let available = (horizontal ? width : height).map({ $0 - gaps }), available.isFinite {
            // Free space to share out depends on the offer: the span holds only where there is
            // none (give or take rounding, which stays well inside the test's tolerance).
            if abs(distribute(slots, available: available)) >= 1e-10 { span = .none }
        }
        for slot in slots {
            let index = slot.index
            if slot.isSpacer {
                children[index].size = horizontal ? LayoutSize(width: slot.size, height: 0) : LayoutSize(width: 0, height: slot.size)
                continue
            }
            if abs(mainSize(children[index].size, horizontal) - slot.size) > 1e-9 {
                // A child of a vertical stack measured again for a height is measured for the width offered.
                if !horizontal { span = .none }
                children[index] =
                    horizontal
                    ? try measurer.measure(childID(index), width: slot.size, height: height)
                    : try measurer.measure(childID(index), width: width, height: slot.size)
            }
            if horizontal { children[index].size.width = slot.size } else { children[index].size.height = slot.size }
        }

        // Cross axis, over the visible children that are not spacers.
        var widestCross = 0.0
        var hasCross = false
        for slot in slots where !slot.isSpacer {
            let cross = horizontal ? children[slot.index].size.height : children[slot.index].size.width
            widestCross = hasCross ? max(widestCross, cross) : cross
            hasCross = true
        }
        var crossSize: Double
        if horizontal {
            crossSize = height ?? widestCross
        } else {
            crossSize = stack.alignment == .fill && width.isFinite ? width : widestCross
        }
        if horizontal && (stack.alignment == .firstBaseline || stack.alignment == .lastBaseline) {
            let first = stack.alignment == .firstBaseline
            func baseline(_ child: MeasuredNode) -> Double {
                (first ? child.firstBaseline : child.lastBaseline) ?? child.size.height
            }
            var line = -Double.infinity  // there is content, so this becomes its lowest baseline
            for slot in slots where !slot.isSpacer { line = max(line, baseline(children[slot.index])) }
            var bottom = 0.0
            for position in slots.indices where !slots[position].isSpacer {
                let child = children[slots[position].index]
                slots[position].baselineShift = line - baseline(child)
                bottom = max(bottom, slots[position].baselineShift + child.size.height)
            }
            crossSize = height ?? bottom
        }

        // Positions.
        var offset = 0.0
        for (position, slot) in slots.enumerated() {
            let index = slot.index
            if position > 0 { offset += stack.spacing }
            let childCross = horizontal ? children[index].size.height : children[index].size.width
            var cross: Double
            switch stack.alignment {
            case .leading: cross = 0
            case .center: cross = (crossSize - childCross) / 2
            case .trailing: cross = crossSize - childCross
            case .fill:
                cross = 0
                if !slot.isSpacer {
                    if horizontal { children[index].size.height = crossSize } else { children[index].size.width = crossSize }
                }
            case .firstBaseline, .lastBaseline: cross = slot.baselineShift
            }
            children[index].origin = horizontal ? LayoutPoint(x: offset, y: cross) : LayoutPoint(x: cross, y: offset)
            offset += slot.size
        }
        let size = horizontal ? LayoutSize(width: offset, height: crossSize) : LayoutSize(width: crossSize, height: offset)
        var firstBaseline: Double?
        var lastBaseline: Double?
        for slot in slots where !slot.isSpacer {
            let child = children[slot.index]
            if firstBaseline == nil, let baseline = child.firstBaseline { firstBaseline = child.origin.y + baseline }
            if let baseline = child.lastBaseline { lastBaseline = child.origin.y + baseline }
        }
        let measured = MeasuredNode(id: id, size: size, firstBaseline: firstBaseline, lastBaseline: lastBaseline, children: measurer.keep(children))
        measurer.lastSpan = span
        return measured
    }

    /// The id of the stack's child at `index`.
    @inline(__always)
    private func childID(_ index: Int) -> Int {
        Int(childIDs[index])
    }

    private func mainSize(_ size: LayoutSize, _ horizontal: Bool) -> Double { horizontal ? size.width : size.height }

    /// A measured child's natural size along the axis: clamped to its limits, except a spacer's,
    /// which is its measured length (see RowMeasurer).
    private func naturalSize(of measured: MeasuredNode, _ child: LayoutNode, _ horizontal: Bool) -> Double {
        let size = mainSize(measured.size, horizontal)
        return child.isSpacer ? size : clamp(size, child)
    }

    /// What the children other than `sole`, the sole flexible child of a horizontal stack
    /// `width` wide, and the spacing leave it (`othersVisible` of them visible). Within its limits
    /// and never below 0, it is the width ``distribute(_:available:)`` would give it from any
    /// natural width.
    private func spaceLeft(
        by sole: Int, width: Double, children: UnsafeMutableBufferPointer<MeasuredNode>, othersVisible: Int
    ) -> Double {
        var others = 0.0
        for index in children.indices where index != sole && !children[index].isCollapsed {
            others += naturalSize(of: children[index], nodes[childID(index)], true)
        }
        return width - stack.spacing * Double(othersVisible) - others
    }

    private func clamp(_ value: Double, _ node: LayoutNode) -> Double {
        var result = value
        if let maximum = node.flex.maximum { result = min(result, maximum) }
        if let minimum = node.flex.minimum { result = max(result, minimum) }
        return result
    }

    /// Grows or shrinks the slots' sizes to add up to `available`, freezing children at their
    /// limits; returns the free space there was to share out (negative for an overflow).
    private func distribute(_ slots: UnsafeMutableBufferPointer<Slot>, available: Double) -> Double {
        func total() -> Double { slots.reduce(0) { $0 + $1.size } }
        var free = available - total()
        let initialFree = free
        // Most stacks fit exactly or have nothing to flex.
        guard abs(free) >= 1e-9 else { return initialFree }
        for _ in 0...slots.count {
            let growing = free > 0
            var totalWeight = 0.0
            for slot in slots { totalWeight += weight(of: slot, growing: growing) }
            guard totalWeight > 0 else { break }
            var changed = false
            for position in slots.indices {
                // Weighed before this child is frozen below: every child's share comes from the same total.
                let weight = weight(of: slots[position], growing: growing)
                guard weight > 0 else { continue }
                let child = nodes[childID(slots[position].index)]
                var proposed = slots[position].size + free * weight / totalWeight
                if growing, let maximum = child.flex.maximum, proposed >= maximum {
                    proposed = maximum
                    slots[position].isFrozen = true
                }
                let minimum = child.flex.minimum ?? 0
                if !growing && proposed <= minimum {
                    proposed = minimum
                    slots[position].isFrozen = true
                }
                if proposed != slots[position].size { changed = true }
                slots[position].size = proposed
            }
            if !changed { break }
            free = available - total()
            if abs(free) < 1e-9 { break }
        }
        return initialFree
    }

    /// A child's share of free space: its grow factor, or its shrink factor times its natural size.
    private func weight(of slot: Slot, growing: Bool) -> Double {
        guard !slot.isFrozen else { return 0 }
        let child = nodes[childID(slot.index)]
        return growing ? child.flex.grow : child.flex.shrink * slot.natural
    }
}

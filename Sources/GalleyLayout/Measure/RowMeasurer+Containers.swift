// The measure pass for containers other than plain stacks (see StackLayout): insets, overlays,
// size rules and wrapping stacks.

import GalleyText

extension RowMeasurer {
    mutating func measureInset(
        _ id: Int, _ insets: EdgeInsets, _ child: Int, width: Double, height: Double?
    ) throws(LayoutError) -> MeasuredNode {
        let offer = max(width - insets.horizontal, 0)
        var measured = try measure(child, width: offer, height: height.map { max($0 - insets.vertical, 0) })
        // The child's span, over the offers that pass it the width less the insets.
        lastSpan =
            width.isFinite
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
    mutating func measureOverlay(
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
            let x: Double =
                switch alignment {
                case .topLeading, .leading, .bottomLeading, .fill: 0
                case .top, .center, .bottom: slackX / 2
                case .topTrailing, .trailing, .bottomTrailing: slackX
                }
            let y: Double =
                switch alignment {
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
    mutating func measureSizeRule(
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
        let y: Double =
            switch alignment {
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
    mutating func measureWrappingStack(_ node: CompiledNode, _ stack: CompiledStack, width: Double) throws(LayoutError) -> MeasuredNode {
        var children: [MeasuredNode] = []
        var x = 0.0
        var y = 0.0
        var rowHeight = 0.0
        var widest = 0.0
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
}

// The arrange pass: adds up measured origins into row frames, snaps and mirrors them.

import GalleyText

extension RowMeasurement {
    /// The frames of this measured row, for every named node, and each label's text layout.
    ///
    /// Arranging never shapes, breaks or measures text: it adds up the offsets the measure
    /// pass found, mirrors them for right-to-left rows and snaps them to device pixels. Cheap
    /// enough to call again rather than keep.
    public func arranged() -> RowArrangement { RowArranger(measurement: self).arrange() }
}

/// Turns a ``RowMeasurement`` into frames. It only adds offsets: no text is shaped or wrapped.
struct RowArranger {
    let measurement: RowMeasurement

    func arrange() -> RowArrangement {
        // Sized up front: grown one entry at a time, each table would be rehashed several times a row.
        var frames: [String: LayoutRect] = [:]
        frames.reserveCapacity(measurement.names.count)
        var labels: [String: ArrangedLabel] = [:]
        labels.reserveCapacity(measurement.names.count)
        var nodes: [ArrangedNode] = []
        nodes.reserveCapacity(measurement.nodes.count)
        let scale = measurement.scale
        let width = measurement.width
        func visit(_ measured: MeasuredNode, parentX: Double, parentY: Double, parentCollapsed: Bool) {
            let collapsed = parentCollapsed || measured.isCollapsed
            let x = parentX + measured.origin.x
            let y = parentY + measured.origin.y
            var frame = collapsed ? LayoutRect.zero : LayoutRect(x: x, y: y, width: measured.size.width, height: measured.size.height)
            if !collapsed {
                frame = frame.clamped(toWidth: width)
                if measurement.isRightToLeft { frame = frame.mirrored(inWidth: width) }
                // Clamped again after snapping: a row that is not a whole number of pixels wide ends between two.
                frame = frame.snapped(toScale: scale).clamped(toWidth: width)
            }
            let node = measurement.nodes[measured.nodeID]
            var arrangedLabel: ArrangedLabel?
            if case .label(let label) = node.kind {
                arrangedLabel = ArrangedLabel(
                    frame: frame, layout: collapsed || measurement.textLayouts.isEmpty ? nil : measurement.textLayouts[measured.nodeID],
                    color: measured.text == nil ? nil : label.style.color, colorRuns: collapsed ? [] : measurement.colorRuns[measured.nodeID] ?? [])
            }
            nodes.append(
                ArrangedNode(
                    name: node.name, type: node.typeName, frame: frame, isCollapsed: collapsed, accessory: measurement.row.accessories[measured.nodeID],
                    label: arrangedLabel, imageSource: measurement.row.imageSources[measured.nodeID]))
            if let name = node.name {
                frames[name] = frame
                if let arrangedLabel { labels[name] = arrangedLabel }
            }
            for child in measurement.children(of: measured) { visit(child, parentX: x, parentY: y, parentCollapsed: collapsed) }
        }
        visit(measurement.root, parentX: 0, parentY: 0, parentCollapsed: false)
        // Names inside a collapsed branch were never measured: they are collapsed too.
        for name in measurement.names where frames[name] == nil { frames[name] = .zero }
        return RowArrangement(
            itemID: measurement.itemID, width: width, height: measurement.height, frames: frames, labels: labels, nodes: nodes)
    }

}

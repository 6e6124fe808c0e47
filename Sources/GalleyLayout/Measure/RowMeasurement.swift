// The result of the measure pass: a row's height and every node's size.

import GalleyText

/// A measured row: its height, and every node's size and place, ready to arrange.
///
/// Measurements are immutable values and safe to pass between threads; ``arranged()`` turns
/// one into frames without measuring any text again.
public struct RowMeasurement: Sendable {
    /// The item's id.
    public var itemID: String { row.itemID }
    /// The width the row was measured at.
    public let width: Double
    /// The row's height, rounded up to device pixels.
    public let height: Double
    /// The exact height before rounding.
    public let exactHeight: Double
    /// Device pixels per point.
    public let scale: Double
    /// The row's resolved direction.
    public let isRightToLeft: Bool
    /// Number of lines of every label, by node name (unnamed labels are left out).
    public var lineCounts: [String: Int] {
        var counts: [String: Int] = [:]
        func visit(_ node: MeasuredNode) {
            if let name = nodes[node.nodeID].name, let text = node.text { counts[name] = text.lineCount }
            children(of: node).forEach(visit)
        }
        visit(root)
        return counts
    }

    let root: MeasuredNode
    /// Each label's glyph layout by node id, when the environment keeps text layouts (else empty).
    let textLayouts: [TextLayout?]
    /// The colours of the styled runs of labels of several runs, by node id, with the layouts.
    let colorRuns: [Int: [ArrangedLabel.ColorRun]]
    /// What the row's measurements at every width share.
    let row: MeasuredRowData

    init(
        width: Double, height: Double, exactHeight: Double, scale: Double, isRightToLeft: Bool, root: MeasuredNode,
        textLayouts: [TextLayout?], colorRuns: [Int: [ArrangedLabel.ColorRun]], row: MeasuredRowData
    ) {
        (self.width, self.height, self.exactHeight, self.scale, self.isRightToLeft) = (width, height, exactHeight, scale, isRightToLeft)
        (self.root, self.textLayouts, self.colorRuns, self.row) = (root, textLayouts, colorRuns, row)
    }

    /// Every container's children, which nodes name by range (see ``MeasuredNode/children``).
    var measuredChildren: [MeasuredNode] { row.measuredChildren }
    /// The template's nodes, by id.
    var nodes: [CompiledNode] { row.template.nodes }
    /// Every node name of the template.
    var names: [String] { row.template.names }

    /// `node`'s children, in order.
    func children(of node: MeasuredNode) -> ArraySlice<MeasuredNode> {
        measuredChildren[Int(node.children.lowerBound)..<Int(node.children.upperBound)]
    }
}

/// What a row's measurements at its several widths share, in one object: a measurement is
/// copied a few times on its way to the caller, and each of these fields would be a retain and a
/// release for every copy.
final class MeasuredRowData: Sendable {
    let itemID: String
    let measuredChildren: [MeasuredNode]
    let template: CompiledTemplate
    /// Each accessory's kind for the item, by node id (its field's, or the template's).
    let accessories: [Int: Node.Accessory.Kind]
    /// Each image's source for the item (its source field's text), by node id.
    let imageSources: [Int: String]

    init(
        itemID: String, measuredChildren: [MeasuredNode], template: CompiledTemplate, accessories: [Int: Node.Accessory.Kind],
        imageSources: [Int: String]
    ) {
        self.itemID = itemID
        self.measuredChildren = measuredChildren
        self.template = template
        self.accessories = accessories
        self.imageSources = imageSources
    }
}

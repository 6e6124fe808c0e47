// The result of the measure pass: a row's height and every node's size.

import GalleyText

/// A measured row: its height, and every node's size and place, ready to arrange.
///
/// Measurements are immutable values and safe to pass between threads; ``arrange(_:)`` turns
/// one into frames without measuring any text again.
public struct RowMeasurement: Sendable {
    /// The item's id.
    public let itemID: String
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
    /// Every container's children, which nodes name by range (see ``MeasuredNode/children``).
    let measuredChildren: [MeasuredNode]
    /// Each label's glyph layout by node id, when the environment keeps text layouts (else empty).
    let textLayouts: [TextLayout?]
    /// The template's nodes, by id.
    let nodes: [CompiledNode]
    /// Every node name of the template.
    let names: [String]

    /// `node`'s children, in order.
    func children(of node: MeasuredNode) -> ArraySlice<MeasuredNode> {
        measuredChildren[Int(node.children.lowerBound)..<Int(node.children.upperBound)]
    }
}

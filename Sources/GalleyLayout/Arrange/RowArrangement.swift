// The result of the arrange pass: frames for every node and the text of every label.

import GalleyText

/// A row arranged: a frame for every named node, and each label's text layout, in row
/// coordinates snapped to device pixels.
public struct RowArrangement: Sendable {
    /// The id of the item the row shows.
    public let itemID: String
    /// The row's width in points.
    public let width: Double
    /// The row's height, rounded up to device pixels.
    public let height: Double
    /// Frames of the named nodes; a collapsed node's frame is ``LayoutRect/zero``.
    public let frames: [String: LayoutRect]
    /// Named labels' text, for renderers.
    public let labels: [String: ArrangedLabel]
    /// Every node, named or not, in template order.
    public let nodes: [ArrangedNode]
}

/// A label ready to draw.
public struct ArrangedLabel: Sendable {
    /// The label's frame in row coordinates.
    public let frame: LayoutRect
    /// The text layout, positioned relative to the frame's top-left corner; nil when the row
    /// was measured without keeping text layouts.
    public let layout: TextLayout?
    /// The style's colour (a `#RRGGBB[AA]` value, or whatever the stylesheet gave).
    public let color: String?
}

/// Any node's frame.
public struct ArrangedNode: Sendable, Hashable {
    /// The node's name in its template, or nil for an anonymous node.
    public let name: String?
    /// "label", "image", "stack", …
    public let type: String
    /// The node's frame in row coordinates.
    public let frame: LayoutRect
    /// Whether the node collapsed (its frame is then zero).
    public let isCollapsed: Bool
}

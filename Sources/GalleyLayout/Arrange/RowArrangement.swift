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
public struct ArrangedLabel: Sendable, Hashable {
    /// The label's frame in row coordinates.
    public let frame: LayoutRect
    /// The text layout, positioned relative to the frame's top-left corner; nil when the row
    /// was measured without keeping text layouts.
    public let layout: TextLayout?
    /// The style's colour (a `#RRGGBB[AA]` value, or whatever the stylesheet gave).
    public let color: String?
    /// For text of several styled runs, each run's colour by the UTF-16 range of the text it
    /// covers (a glyph's cluster says which); empty for text in the label's one style.
    public let colorRuns: [ColorRun]

    /// A stretch of a label's text and its style's colour.
    public struct ColorRun: Sendable, Hashable {
        /// UTF-16 offsets into the label's text.
        public var range: Range<Int>
        /// The run's colour, as ``ArrangedLabel/color``.
        public var color: String?
    }
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
    /// For an accessory, the kind the item shows (its field's, or the template's).
    public let accessory: Node.Accessory.Kind?
    /// For a label, named or not, its text ready to draw (named ones are also in
    /// ``RowArrangement/labels``).
    public let label: ArrangedLabel?
    /// For an image, the item's value of its source field (a URL or a path, as the item gave it).
    public let imageSource: String?

    /// A node's frame as arranging found it.
    public init(
        name: String?, type: String, frame: LayoutRect, isCollapsed: Bool, accessory: Node.Accessory.Kind? = nil, label: ArrangedLabel? = nil,
        imageSource: String? = nil
    ) {
        (self.name, self.type, self.frame, self.isCollapsed) = (name, type, frame, isCollapsed)
        (self.accessory, self.label, self.imageSource) = (accessory, label, imageSource)
    }
}

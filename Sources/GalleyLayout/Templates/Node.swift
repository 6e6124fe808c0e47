// A node of a cell template: what it is, its optional name, and how it flexes in a stack.

/// One node of a template tree.
///
/// Any node may have a ``name``; arranging a row reports a frame for every named node. In a
/// stack, ``flex`` says how the node grows and shrinks along the stack's axis.
public struct Node: Sendable, Hashable {
    /// Reported with the node's frame after arranging; nil for anonymous nodes.
    public var name: String?
    /// What the node is.
    public var kind: Kind
    /// How the node grows and shrinks along a stack's axis.
    public var flex: Flex

    /// The kinds of node.
    public indirect enum Kind: Sendable, Hashable {
        /// Text: see ``Node/Label``.
        case label(Label)
        /// An image of a fixed or item-given size: see ``Node/Image``.
        case image(Image)
        /// Empty space: see ``Node/Spacer``.
        case spacer(Spacer)
        /// Padding around one child: see ``Node/Inset``.
        case inset(Inset)
        /// Children in a row or a column: see ``Node/Stack``.
        case stack(Stack)
        /// Layers over or under a base: see ``Node/Overlay``.
        case overlay(Overlay)
        /// Size constraints on one child: see ``Node/SizeRule``.
        case size(SizeRule)
        /// A child shown when a field passes a test: see ``Node/Conditional``.
        case conditional(Conditional)
        /// A table cell's accessory: see ``Node/Accessory``.
        case accessory(Accessory)
    }

    /// A node of `kind`, optionally named.
    public init(_ kind: Kind, name: String? = nil, flex: Flex = Flex()) {
        self.kind = kind
        self.name = name
        self.flex = flex
    }

    /// The node's type as templates write it in JSON ("label", "stack", …).
    public var typeName: String {
        switch kind {
        case .label: "label"
        case .image: "image"
        case .spacer: "spacer"
        case .inset: "inset"
        case .stack: "stack"
        case .overlay(let overlay): overlay.isBackground ? "background" : "overlay"
        case .size: "size"
        case .conditional: "conditional"
        case .accessory: "accessory"
        }
    }
}

extension Node {
    /// How a node flexes along a stack's main axis, as CSS flex items do.
    public struct Flex: Sendable, Hashable {
        /// Share of the free space the node takes when the stack has room to spare (0: none).
        public var grow: Double
        /// Share of the overflow the node gives up when the stack is too small, weighted by its
        /// natural size; nil takes the default (1 for labels, 0 for everything else).
        public var shrink: Double?
        /// The node is never smaller than this along the axis.
        public var minimum: Length?
        /// The node is never larger than this along the axis.
        public var maximum: Length?

        /// Flex settings; the defaults neither grow nor shrink beyond the node kind's default.
        public init(grow: Double = 0, shrink: Double? = nil, minimum: Length? = nil, maximum: Length? = nil) {
            self.grow = grow
            self.shrink = shrink
            self.minimum = minimum
            self.maximum = maximum
        }
    }
}

// Short constructors for template nodes, so that Swift builds templates as readably as JSON.

import GalleyText

extension Node {
    /// A named label showing `content` in `style`.
    ///
    ///     .label("title", .field("title"), style: "tableFont", lines: 1, lineBreakMode: .truncateTail)
    public static func label(
        _ name: String, _ content: LabelContent, style: StyleReference, lines: Int = 0,
        lineBreakMode: LineBreakMode = .wordWrap, alignment: TextAlignment = .natural, flex: Flex = Flex()
    ) -> Node {
        let label = Label(content, style: style, maximumLines: lines, lineBreakMode: lineBreakMode, alignment: alignment)
        return Node(.label(label), name: name, flex: flex)
    }

    /// Children side by side, centred across the row unless told otherwise.
    public static func hstack(
        spacing: Length = .zero, alignment: Stack.Alignment = .center, wraps: Bool = false,
        lineSpacing: Length = .zero, _ children: [Node], name: String? = nil, flex: Flex = Flex()
    ) -> Node {
        let stack = Stack(.horizontal, spacing: spacing, alignment: alignment, wraps: wraps, lineSpacing: lineSpacing, children: children)
        return Node(.stack(stack), name: name, flex: flex)
    }

    /// Children one above the other, each as wide as the stack unless told otherwise.
    public static func vstack(
        spacing: Length = .zero, alignment: Stack.Alignment = .fill, _ children: [Node], name: String? = nil,
        flex: Flex = Flex()
    ) -> Node {
        Node(.stack(Stack(.vertical, spacing: spacing, alignment: alignment, children: children)), name: name, flex: flex)
    }

    /// `child` with padding around it.
    public static func inset(_ insets: Insets, _ child: Node, name: String? = nil, flex: Flex = Flex()) -> Node {
        Node(.inset(Inset(insets, child: child)), name: name, flex: flex)
    }

    /// A named image of a fixed size, or sized by item fields.
    public static func image(
        _ name: String, source: FieldPath? = nil, size: ImageSize, minimum: SizeSpec? = nil, maximum: SizeSpec? = nil,
        flex: Flex = Flex()
    ) -> Node {
        Node(.image(Image(source: source, size: size, minimum: minimum, maximum: maximum)), name: name, flex: flex)
    }

    /// `child` held to fixed, minimum or maximum sizes, or an aspect ratio.
    public static func size(
        width: Dimension = Dimension(), height: Dimension = Dimension(), aspectRatio: Double? = nil,
        alignment: SizeRule.Alignment = .center, _ child: Node, name: String? = nil, flex: Flex = Flex()
    ) -> Node {
        let rule = SizeRule(width: width, height: height, aspectRatio: aspectRatio, alignment: alignment, child: child)
        return Node(.size(rule), name: name, flex: flex)
    }

    /// `layers` drawn over `base` (under it, when `isBackground`), placed within its frame.
    public static func overlay(
        _ base: Node, layers: [Node], alignment: Overlay.Alignment = .fill, isBackground: Bool = false,
        name: String? = nil, flex: Flex = Flex()
    ) -> Node {
        Node(.overlay(Overlay(base: base, layers: layers, alignment: alignment, isBackground: isBackground)), name: name, flex: flex)
    }

    /// `child`, shown only when `field` passes `test` (or fails it, when `negated`).
    public static func when(_ field: FieldPath, negated: Bool = false, test: Conditional.Test = .nonEmpty, _ child: Node) -> Node {
        Node(.conditional(Conditional(field: field, test: test, negated: negated, child: child)))
    }

    /// A cell accessory; with `field`, the item's value of it chooses the kind.
    public static func accessory(_ kind: Accessory.Kind, field: FieldPath? = nil, name: String? = "accessory") -> Node {
        Node(.accessory(Accessory(kind, field: field)), name: name)
    }

    /// A fixed-length space that does not grow.
    public static func gap(_ length: Length) -> Node {
        Node(.spacer(Spacer(length: length)), flex: Flex(maximum: length))
    }

    /// Space that takes what is left along a stack's axis.
    public static let flexibleSpace = Node(.spacer(Spacer()), flex: Flex(grow: 1))
}

extension Node.Flex {
    /// Takes the room left in a row, and gives way to its neighbours (an accessory, a timestamp).
    public static let fillsRow = Node.Flex(grow: 1, shrink: 1)
}

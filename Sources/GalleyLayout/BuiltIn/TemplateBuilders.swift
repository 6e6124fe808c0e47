// Small helpers that keep the built-in templates readable.

import GalleyText

typealias GalleyTextLineBreakMode = GalleyText.LineBreakMode
typealias GalleyTextAlignment = GalleyText.TextAlignment

extension Node {
    /// A named label bound to `content`.
    static func label(
        _ name: String, _ content: LabelContent, style: StyleReference, lines: Int = 0,
        mode: LineBreakModeName = .wordWrap, alignment: AlignmentName = .natural, flex: Flex = Flex()
    ) -> Node {
        Node(.label(Label(content, style: style, maximumLines: lines, lineBreakMode: mode.value, alignment: alignment.value)), name: name, flex: flex)
    }

    static func hstack(spacing: Length = .zero, alignment: Stack.Alignment = .center, _ children: [Node], flex: Flex = Flex()) -> Node {
        Node(.stack(Stack(.horizontal, spacing: spacing, alignment: alignment, children: children)), flex: flex)
    }

    static func vstack(spacing: Length = .zero, alignment: Stack.Alignment = .fill, _ children: [Node], flex: Flex = Flex()) -> Node {
        Node(.stack(Stack(.vertical, spacing: spacing, alignment: alignment, children: children)), flex: flex)
    }

    static func inset(_ insets: Insets, _ child: Node, flex: Flex = Flex()) -> Node {
        Node(.inset(Inset(insets, child: child)), flex: flex)
    }

    /// `child` shown only when `field` is non-empty (or empty, when `negated`).
    static func when(_ field: FieldPath, negated: Bool = false, test: Conditional.Test = .nonEmpty, _ child: Node) -> Node {
        Node(.conditional(Conditional(field: field, test: test, negated: negated, child: child)))
    }

    /// A fixed-length space that does not grow.
    static func gap(_ length: Length) -> Node {
        Node(.spacer(Spacer(length: length)), flex: Flex(maximum: length))
    }

    /// Space that takes what is left.
    static let flexibleSpace = Node(.spacer(Spacer()), flex: Flex(grow: 1))

    /// The disclosure indicator a row with a URL shows, as Three20's linked items did.
    static func disclosureWhenLinked(_ field: FieldPath = "url") -> Node {
        .when(field, Node(.accessory(Accessory(.disclosureIndicator)), name: "accessory"))
    }

}

extension Flex {
    /// Takes the room left in a row, and gives way to its neighbours (an accessory, a timestamp).
    static let fillsRow = Flex(grow: 1, shrink: 1)
}

/// Line break modes, spelled short for the builders.
enum LineBreakModeName {
    case wordWrap, truncateTail
    var value: GalleyTextLineBreakMode { self == .wordWrap ? .wordWrap : .truncateTail }
}

/// Alignments, spelled short for the builders.
enum AlignmentName {
    case natural, center, right
    var value: GalleyTextAlignment {
        switch self {
        case .natural: .natural
        case .center: .center
        case .right: .right
        }
    }
}


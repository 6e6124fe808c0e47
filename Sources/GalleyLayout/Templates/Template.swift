// A cell template: a named tree of nodes that lays out one kind of row.

/// A declarative row layout: a tree of nodes, written in Swift or JSON.
///
///     let template = Template(name: "caption", root: Node(.inset(Inset(Insets(all: "tableCellVPadding"),
///         child: Node(.label(Label(.field("text"), style: "tableSmallFont")), name: "text")))))
///
/// See `Docs/Templates.md` for the JSON schema.
public struct Template: Sendable, Hashable {
    /// The template's name (a built-in's name, or the item kind it serves).
    public var name: String
    /// The root node; the row's height is its bottom.
    public var root: Node
    /// A row is never shorter than this (UIKit's 44-point rows).
    public var minimumHeight: Length?

    public init(name: String, root: Node, minimumHeight: Length? = nil) {
        self.name = name
        self.root = root
        self.minimumHeight = minimumHeight
    }
}

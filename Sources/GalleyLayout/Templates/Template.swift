// A cell template: a named tree of nodes that lays out one kind of row.

/// A declarative row layout: a tree of nodes, written in Swift or JSON.
///
///     let template = Template(name: "caption", root: .inset(Insets(all: "tableCellVPadding"),
///         .label("text", .field("text"), style: "tableSmallFont")))
///
/// See `Docs/Templates.md` for the JSON schema, which has a node type for each of ``Node``'s
/// builders.
public struct Template: Sendable, Hashable {
    /// The template's name (a built-in's name, or the item kind it serves).
    public var name: String
    /// The root node; the row's height is its bottom.
    public var root: Node
    /// A row is never shorter than this (UIKit's 44-point rows).
    public var minimumHeight: Length?

    /// A template named `name` with `root`, never shorter than `minimumHeight`.
    public init(name: String, root: Node, minimumHeight: Length? = nil) {
        self.name = name
        self.root = root
        self.minimumHeight = minimumHeight
    }
}

// Nested items shown a level at a time, for drill-down navigation.

import GalleyLayout

/// An item and the items under it, for drill-down navigation.
public struct TreeNode: Sendable, Hashable {
    /// The node's own row.
    public var item: ItemDescriptor
    /// The rows of the level this node opens; empty for a leaf.
    public var children: [TreeNode]

    /// A node showing `item`, opening `children`.
    public init(item: ItemDescriptor, children: [TreeNode] = []) {
        self.item = item
        self.children = children
    }
}

/// A tree of items shown one level at a time: a row with children opens the next level, a leaf
/// opens its detail, and going back shows the level above again (as the drill-down property
/// list of a navigation controller app does). A table following it keeps each level's heights
/// while it stays in the table's height cache.
public struct TreeDataSource: TableDataSource, Hashable {
    /// The top level; new roots show from the top again.
    public var roots: [TreeNode] {
        didSet { path = [] }
    }
    /// The places of the rows opened to reach the level shown, from the top.
    public private(set) var path: [Int] = []

    /// A source showing `roots`.
    public init(roots: [TreeNode]) {
        self.roots = roots
    }

    /// What opening a row does.
    public enum Opening: Sendable, Hashable {
        /// The row's children are now the level shown.
        case level
        /// The row is a leaf: show its detail.
        case detail(ItemDescriptor)
    }

    /// The level shown.
    public var level: [TreeNode] {
        var nodes = roots
        for place in path { nodes = nodes[place].children }
        return nodes
    }

    /// The rows that lead to the level shown, from the top: a navigation bar's back titles.
    public var trail: [ItemDescriptor] {
        var nodes = roots
        var trail: [ItemDescriptor] = []
        for place in path {
            trail.append(nodes[place].item)
            nodes = nodes[place].children
        }
        return trail
    }

    /// Opens row `row` of the level shown; nil when there is no such row.
    public mutating func open(_ row: Int) -> Opening? {
        let nodes = level
        guard nodes.indices.contains(row) else { return nil }
        guard !nodes[row].children.isEmpty else { return .detail(nodes[row].item) }
        path.append(row)
        return .level
    }

    /// Goes back to the level above; false at the top.
    @discardableResult
    public mutating func back() -> Bool {
        path.popLast() != nil
    }

    /// The level shown, as one section whose id names the path ("/", "/2", "/2/0").
    public var sections: [TableSection] {
        [TableSection(id: "/" + path.map(String.init).joined(separator: "/"), items: level.map(\.item))]
    }
}

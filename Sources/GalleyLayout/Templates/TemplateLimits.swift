// How large a template may be.

/// Limits on a template's tree, checked when it is compiled: measuring and arranging walk the
/// tree for every row, recursively, so its size bounds their time and stack.
public struct TemplateLimits: Sendable, Hashable {
    /// The deepest a node may be nested (the root is at depth 1).
    public var maximumDepth: Int
    /// The most nodes in one template.
    public var maximumNodes: Int

    /// Limits from their parts: by default 64 levels and 10,000 nodes, far beyond any cell (the
    /// built-in templates are at most 7 deep, with at most 19 nodes).
    public init(maximumDepth: Int = 64, maximumNodes: Int = 10_000) {
        self.maximumDepth = max(maximumDepth, 1)
        self.maximumNodes = max(maximumNodes, 1)
    }
}

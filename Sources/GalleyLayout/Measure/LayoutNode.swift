// What the measure pass reads of a node on every row, as plain data.

/// A compiled node's flex parameters and, for the kinds every row measures many times
/// (labels, spacers, insets, stacks), its layout parameters: plain data, indexed by node id
/// (see ``CompiledTemplate/layoutNodes``). Walking the template through these retains and
/// releases no template object; walking its ``CompiledNode`` classes would do so for every
/// node and every child of every stack.
struct LayoutNode: Sendable {
    enum Kind: UInt8, Sendable {
        case label, spacer, inset, stack
        /// Measured from its ``CompiledNode`` (images, overlays, size rules, conditions,
        /// accessories, wrapping stacks): fewer of them, and measured fewer times.
        case other
    }

    /// A non-wrapping stack's parameters.
    struct Stack: Sendable {
        var isHorizontal: Bool
        var alignment: Node.Stack.Alignment
        var spacing: Double
        /// Where the children's ids are in ``CompiledTemplate/childIDs``: the first's index, and how many.
        var firstChild: Int32
        var childCount: Int32
        /// ``CompiledStack/soleFlexibleChild``; -1 for none.
        var soleFlexibleChild: Int32
    }

    var kind: Kind
    var isSpacer: Bool
    var flex: ResolvedFlex
    /// A label's ``CompiledLabel/index``.
    var labelIndex: Int32 = 0
    /// A spacer's length.
    var length = 0.0
    /// An inset's insets and child's id.
    var insets = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
    var child: Int32 = 0
    var stack = Stack(isHorizontal: false, alignment: .leading, spacing: 0, firstChild: 0, childCount: 0, soleFlexibleChild: -1)

    /// The layout node of `node`, whose stack children (if any) `childIDs` gets.
    init(_ node: CompiledNode, childIDs: inout [Int32]) {
        (isSpacer, flex) = (node.isSpacer, node.flex)
        switch node.kind {
        case .label(let label):
            kind = .label
            labelIndex = Int32(label.index)
        case .spacer(let length):
            kind = .spacer
            self.length = length
        case .inset(let insets, let child):
            kind = .inset
            self.insets = insets
            self.child = Int32(child.id)
        case .stack(let stack) where !stack.wraps:
            kind = .stack
            let start = Int32(childIDs.count)
            childIDs.append(contentsOf: stack.children.map { Int32($0.id) })
            self.stack = Stack(
                isHorizontal: stack.axis == .horizontal, alignment: stack.alignment, spacing: stack.spacing,
                firstChild: start, childCount: Int32(stack.children.count), soleFlexibleChild: Int32(stack.soleFlexibleChild ?? -1))
        default:
            kind = .other
        }
    }
}

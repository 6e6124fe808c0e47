// One node's measurement: its size, its place in its parent, where its children are, its text.

import GalleyText

/// A node's size and position within its parent, computed by the measure pass.
///
/// The tree mirrors the template; arranging only adds up origins, so nothing is measured twice.
/// A node names its children by their place in the row's list of measured children (see
/// ``RowMeasurement``): plain data, so the memo's copies and a stack's rearranging retain and
/// free nothing, and no container allocates an array of its own.
struct MeasuredNode: Sendable {
    /// The template node's id (see ``CompiledTemplate/nodes``).
    var nodeID: Int { Int(storedNodeID) }
    var size: LayoutSize
    /// Top-left corner relative to the parent's top-left corner.
    var origin: LayoutPoint
    /// Distance from the node's top to its first and last text baselines, when it has text.
    var firstBaseline: Double? {
        get { storedFirstBaseline.isNaN ? nil : storedFirstBaseline }
        set { storedFirstBaseline = newValue ?? .nan }
    }
    var lastBaseline: Double? {
        get { storedLastBaseline.isNaN ? nil : storedLastBaseline }
        set { storedLastBaseline = newValue ?? .nan }
    }
    /// Where the children are in the row's measured children (empty for a leaf).
    var children: Range<Int32>
    /// A label's text, as measured (with glyphs when the environment keeps text layouts).
    var text: MeasuredText? {
        get { storedOfferedWidth.isNaN ? nil : MeasuredText(offeredWidth: storedOfferedWidth, lineCount: Int(storedLineCount)) }
        set {
            storedOfferedWidth = newValue?.offeredWidth ?? .nan
            storedLineCount = Int32(clamping: newValue?.lineCount ?? 0)
        }
    }

    // Optionals stored as NaN and narrow integers: the memo, the stacks and the row's children
    // list copy measured nodes all the time, and this keeps one to 80 bytes.
    // (A baseline or an offered width is never NaN: widths offered are sanitised first.) The
    // flag comes last: between the doubles, its padding would add moves to every copy.
    private var storedFirstBaseline: Double
    private var storedLastBaseline: Double
    private var storedOfferedWidth: Double
    private let storedNodeID: Int32
    private var storedLineCount: Int32
    var isCollapsed: Bool

    /// The measurement of node `id` when it takes no space.
    static func collapsed(_ id: Int) -> MeasuredNode {
        MeasuredNode(id: id, size: .zero, origin: LayoutPoint(x: 0, y: 0), isCollapsed: true)
    }

    /// A measurement of node `id` (see ``CompiledTemplate/nodes``).
    init(
        id: Int, size: LayoutSize, origin: LayoutPoint = LayoutPoint(x: 0, y: 0), isCollapsed: Bool = false,
        firstBaseline: Double? = nil, lastBaseline: Double? = nil, children: Range<Int32> = 0..<0, text: MeasuredText? = nil
    ) {
        storedNodeID = Int32(id)
        self.size = size
        self.origin = origin
        self.isCollapsed = isCollapsed
        storedFirstBaseline = firstBaseline ?? .nan
        storedLastBaseline = lastBaseline ?? .nan
        self.children = children
        storedOfferedWidth = text?.offeredWidth ?? .nan
        storedLineCount = Int32(clamping: text?.lineCount ?? 0)
    }
}

/// A label's measured text: plain numbers, so that copying a node (the memo hands out copies,
/// stacks rearrange them) retains nothing for it. Glyph layouts are kept beside the tree, in
/// ``RowMeasurement``.
struct MeasuredText: Sendable {
    /// The width the label was offered, which its glyphs are laid out at.
    var offeredWidth: Double
    var lineCount: Int
}

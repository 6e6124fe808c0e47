// What a measurer keeps between rows (see LayoutContext), and what it keeps per label within one.

import GalleyText

extension RowMeasurer {
    /// Hands this measurer's arrays to `memory`, for the next row to reuse (the labels' shaped
    /// texts let go now, not when the next row starts).
    mutating func returnMemory(to memory: Arrays) {
        labels.withUnsafeMutableBufferPointer { labels in
            for index in labels.indices { labels[index] = LabelState() }
        }
        swap(&labels, &memory.labels)
        swap(&measuredChildren, &memory.measuredChildren)
    }

    /// A measurer's working memory between rows (see ``LayoutContext``): the memo's storage,
    /// and the labels' and measured children's arrays.
    final class Arrays {
        let memo = MemoStorage()
        var labels: [LabelState] = []
        var measuredChildren: [MeasuredNode] = []
    }

    /// A label's shaped text and measurements by kind.
    struct LabelState {
        var shaped: ShapedParagraph?
        /// The label's measurement at a width its whole text fits on one line, which every such
        /// width shares (see ``ShapedParagraph/fitsOnOneLine(width:)``).
        var oneLine: LabelLines?
        /// The label's measurement at a width its text does not fit on one line, which every
        /// such width shares when ``ShapedParagraph/heightDependsOnlyOnFitting`` says so.
        var wrapped: LabelLines?
    }

    /// What a label's measurement gives its node at every width of one kind (see ``LabelState``).
    struct LabelLines {
        var height: Double
        var firstBaseline: Double
        var lastBaseline: Double
        var lineCount: Int
    }
}

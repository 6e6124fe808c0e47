// What a sheet's rows add up to as they are collected: its size and the glyphs its labels draw.

import GalleyLayout
import GalleyText

extension RowSheet {
    /// A sheet's size and glyphs, kept as rows are added: a program collecting rows for a sheet
    /// checks it after each row and stops at the first that a drawing could not hold, with the
    /// error drawing would give, rather than after measuring every row.
    ///
    ///     var tally = RowSheet.Tally(columns: widths.count)
    ///     tally.add(row, toColumn: 0)
    ///     try tally.check(for: .png, scale: 2, maximumGlyphs: RowSheet.defaultMaximumGlyphs)
    public struct Tally: Sendable, Hashable {
        /// Each column's width in points: its widest row's.
        public private(set) var columnWidths: [Double]
        /// Each column's height in points: its rows' heights added.
        public private(set) var columnHeights: [Double]
        /// The glyphs the rows' labels draw, in all.
        public private(set) var glyphs = 0

        /// A tally of `columns` columns with no rows.
        public init(columns: Int) {
            columnWidths = Array(repeating: 0, count: columns)
            columnHeights = Array(repeating: 0, count: columns)
        }

        /// The tally of a sheet's `columns`.
        init(_ columns: [[RowArrangement]]) {
            self.init(columns: columns.count)
            for (index, column) in columns.enumerated() {
                for row in column { add(row, toColumn: index) }
            }
        }

        /// Counts `row` at the bottom of column `column`.
        public mutating func add(_ row: RowArrangement, toColumn column: Int) {
            columnWidths[column] = max(columnWidths[column], row.width)
            columnHeights[column] += row.height
            glyphs += Self.glyphs(of: row)
        }

        /// The sheet's size in points: its columns side by side, ``RowSheet/gutter`` apart.
        public var size: LayoutSize {
            LayoutSize(
                width: columnWidths.reduce(0, +) + RowSheet.gutter * Double(max(0, columnWidths.count - 1)),
                height: columnHeights.max() ?? 0)
        }

        /// Throws what drawing the rows so far as `format` at `scale` would: the sheet too large
        /// (more than ``RenderedImage/maximumSide`` pixels a side or 64 Mi pixels in all, pixels
        /// being points in SVG and PDF) or more than `maximumGlyphs` glyphs.
        ///
        /// - Throws: ``RenderError/invalidScale(_:)``, ``RenderError/tooLarge(width:height:scale:)``
        ///   or ``RenderError/tooManyGlyphs(limit:)``.
        public func check(for format: RenderFormat, scale: Double, maximumGlyphs: Int) throws(RenderError) {
            guard scale.isFinite, scale > 0 else { throw .invalidScale(scale) }
            let size = size
            try CairoOutput.checkSize(width: size.width, height: size.height, scale: scale, pixelsAPoint: format == .png ? scale : 1)
            guard glyphs <= maximumGlyphs else { throw .tooManyGlyphs(limit: maximumGlyphs) }
        }

        /// The glyphs `row`'s labels draw: those of every label with a frame.
        static func glyphs(of row: RowArrangement) -> Int {
            row.nodes.reduce(0) { count, node in
                guard let label = node.label, label.frame != .zero, let layout = label.layout else { return count }
                return count + layout.glyphRuns.reduce(0) { $0 + $1.glyphs.count }
            }
        }
    }
}

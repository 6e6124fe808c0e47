// Rows stacked as a table shows them, one column per width: a contact sheet of a template.

import GalleyLayout
import GalleyText

/// Arranged rows drawn as a table shows them: each column a width's rows stacked with
/// separators, columns side by side.
///
///     let rows = try items.map { try template.measure($0, width: 375, environment: environment).arranged() }
///     let png = try RowSheet(columns: [rows], scale: 2).data(as: .png)
///
/// Drawing never shapes, breaks or measures text: it draws the glyph runs and frames the
/// arrangements hold, so what is drawn is what was measured. Rows must be measured with
/// their text layouts kept (`LayoutEnvironment.keepsTextLayouts`).
public struct RowSheet: Sendable {
    /// Each column's rows, top to bottom; a column is as wide as its widest row.
    public var columns: [[RowArrangement]]
    /// Device pixels a point: the scale the rows were measured and snapped at.
    public var scale: Double
    /// What the rows are drawn on; nil leaves it transparent (PNG) or empty (SVG, PDF).
    public var background: RenderColor?
    /// Whether a one-pixel separator is drawn inside each row's bottom edge.
    public var drawsSeparators: Bool
    /// Whether every node's frame and every line box is outlined, for debugging a template.
    public var showsFrames: Bool
    /// The folder images are read from (each image node's source a PNG in it); nil reads no
    /// file, and every image is drawn as a placeholder.
    public var imageFolder: ImageFolder?

    /// Points between columns.
    public static let gutter = 16.0

    /// A sheet of `columns`.
    public init(
        columns: [[RowArrangement]], scale: Double, background: RenderColor? = .white, drawsSeparators: Bool = true,
        showsFrames: Bool = false, imageFolder: ImageFolder? = nil
    ) {
        self.imageFolder = imageFolder
        self.columns = columns
        self.scale = scale
        self.background = background
        self.drawsSeparators = drawsSeparators
        self.showsFrames = showsFrames
    }

    /// Each column's width: its widest row's.
    private var columnWidths: [Double] { columns.map { $0.map(\.width).max() ?? 0 } }

    /// The sheet's size in points.
    public var size: LayoutSize {
        let widths = columnWidths
        let width = widths.reduce(0, +) + Self.gutter * Double(max(0, columns.count - 1))
        return LayoutSize(width: width, height: columns.map { $0.reduce(0) { $0 + $1.height } }.max() ?? 0)
    }

    /// A sheet drawn as a file, and what it could not draw.
    public struct Drawing: Sendable {
        /// The file's bytes.
        public var data: [UInt8]
        /// The images drawn as placeholders although the sheet has an ``RowSheet/imageFolder``,
        /// with why, in row order, each row's once; empty without a folder (every image is then
        /// a placeholder).
        public var imagesNotDrawn: [ImageNotDrawn]
        /// How many image files were decoded, for the tests.
        var imagesDecoded = 0
    }

    /// The sheet as a file of `format`: a PNG `scale` pixels a point, or SVG or PDF in points.
    ///
    /// - Throws: ``RenderError`` for a bad scale, a sheet too large for an image, a row without
    ///   its text layouts, or a cairo failure.
    public func data(as format: RenderFormat) throws(RenderError) -> [UInt8] {
        try drawing(as: format).data
    }

    /// The sheet as a file of `format`, as ``data(as:)`` makes it, with the images it drew as
    /// placeholders and why.
    ///
    /// - Throws: ``RenderError``, as ``data(as:)``.
    public func drawing(as format: RenderFormat) throws(RenderError) -> Drawing {
        try validate()
        let images = DrawingImages(tagsReferences: format == .svg)
        let painter = makePainter(images: images)
        let data: [UInt8]
        if format == .svg {
            // Each row drawn alone and joined: an SVG `g` a row, for tools that pick rows out.
            let size = size
            try CairoOutput.checkSize(width: size.width, height: size.height, scale: scale, pixelsAPoint: 1)
            var joined = SVGRows(width: size.width, height: size.height, background: background)
            try forEachRow { row, x, y throws(RenderError) in
                let drawing = try CairoOutput.file(.svg, width: row.width, height: row.height, scale: scale, images: images) { canvas throws(RenderError) in
                    try painter.draw(row, x: 0, y: 0, on: canvas)
                }
                joined.add(drawing, x: x, y: y)
            }
            data = try joined.document { place in images.all[place - 1].pngData() }
        } else {
            data = try CairoOutput.file(format, width: size.width, height: size.height, scale: scale, images: images) { canvas throws(RenderError) in
                try draw(on: canvas, with: painter)
            }
        }
        return Drawing(data: data, imagesNotDrawn: painter.images?.notDrawn ?? [], imagesDecoded: painter.images?.decodeCount ?? 0)
    }

    /// The sheet drawn in memory, `scale` pixels a point.
    public func image() throws(RenderError) -> RenderedImage {
        try validate()
        let images = DrawingImages()
        let painter = makePainter(images: images)
        return try CairoOutput.image(width: size.width, height: size.height, scale: scale, images: images) { canvas throws(RenderError) in
            try draw(on: canvas, with: painter)
        }
    }

    private func validate() throws(RenderError) {
        guard scale.isFinite, scale > 0 else { throw .invalidScale(scale) }
    }

    private func draw(on canvas: Canvas, with painter: RowPainter) throws(RenderError) {
        if let background { canvas.fill(LayoutRect(x: 0, y: 0, width: size.width, height: size.height), with: background) }
        try forEachRow { row, x, y throws(RenderError) in try painter.draw(row, x: x, y: y, on: canvas) }
    }

    /// A painter for one drawing, whose images go to `images`.
    private func makePainter(images: DrawingImages) -> RowPainter {
        RowPainter(
            scale: scale, drawsSeparators: drawsSeparators, showsFrames: showsFrames,
            images: imageFolder.map { ImageLoader(folder: $0, images: images) })
    }

    /// Calls `body` with every row and the top-left corner it is drawn at, column by column.
    private func forEachRow(_ body: (RowArrangement, Double, Double) throws(RenderError) -> Void) throws(RenderError) {
        var x = 0.0
        for (column, width) in zip(columns, columnWidths) {
            var y = 0.0
            for row in column {
                try body(row, x, y)
                y += row.height
            }
            x += width + Self.gutter
        }
    }
}

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
    /// The most glyphs a drawing of the sheet may draw, its labels' glyphs in all: as its size
    /// bounds its pixels, this bounds an SVG or PDF (in SVG about 60 bytes a glyph) and the time
    /// drawing takes. A sheet with more is refused (``RenderError/tooManyGlyphs(limit:)``).
    public var maximumGlyphs: Int

    /// Points between columns.
    public static let gutter = 16.0
    /// The default ``maximumGlyphs``: 2,000,000, what a thousand rows of a few hundred
    /// characters at four widths draw, twice over.
    public static let defaultMaximumGlyphs = 2_000_000

    /// A sheet of `columns`.
    public init(
        columns: [[RowArrangement]], scale: Double, background: RenderColor? = .white, drawsSeparators: Bool = true,
        showsFrames: Bool = false, imageFolder: ImageFolder? = nil, maximumGlyphs: Int = defaultMaximumGlyphs
    ) {
        self.imageFolder = imageFolder
        self.maximumGlyphs = maximumGlyphs
        self.columns = columns
        self.scale = scale
        self.background = background
        self.drawsSeparators = drawsSeparators
        self.showsFrames = showsFrames
    }

    /// What the sheet's rows add up to.
    public var tally: Tally { Tally(columns) }

    /// The sheet's size in points.
    public var size: LayoutSize { tally.size }

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
    /// - Throws: ``RenderError`` for a bad scale, a sheet too large for an image, more than
    ///   ``maximumGlyphs`` glyphs, a row without its text layouts, or a cairo failure.
    public func data(as format: RenderFormat) throws(RenderError) -> [UInt8] {
        try drawing(as: format).data
    }

    /// The sheet as a file of `format`, as ``data(as:)`` makes it, with the images it drew as
    /// placeholders and why.
    ///
    /// - Throws: ``RenderError``, as ``data(as:)``.
    public func drawing(as format: RenderFormat) throws(RenderError) -> Drawing {
        let tally = tally
        try tally.check(for: format, scale: scale, maximumGlyphs: maximumGlyphs)
        let size = tally.size
        let images = DrawingImages(tagsReferences: format == .svg)
        let painter = makePainter(images: images)
        let data: [UInt8]
        if format == .svg {
            // Each row drawn alone and joined: an SVG `g` a row, for tools that pick rows out.
            var joined = SVGRows(width: size.width, height: size.height, background: background)
            try forEachRow(columnWidths: tally.columnWidths) { row, x, y throws(RenderError) in
                let drawing = try CairoOutput.file(.svg, width: row.width, height: row.height, scale: scale, images: images) { canvas throws(RenderError) in
                    try painter.draw(row, x: 0, y: 0, on: canvas)
                }
                joined.add(drawing, x: x, y: y)
            }
            data = try joined.document { place in images.all[place - 1].pngData() }
        } else {
            data = try CairoOutput.file(format, width: size.width, height: size.height, scale: scale, images: images) { canvas throws(RenderError) in
                try draw(tally, on: canvas, with: painter)
            }
        }
        return Drawing(data: data, imagesNotDrawn: painter.images?.notDrawn ?? [], imagesDecoded: painter.images?.decodeCount ?? 0)
    }

    /// The sheet drawn in memory, `scale` pixels a point.
    ///
    /// - Throws: ``RenderError``, as ``data(as:)``.
    public func image() throws(RenderError) -> RenderedImage {
        let tally = tally
        try tally.check(for: .png, scale: scale, maximumGlyphs: maximumGlyphs)
        let images = DrawingImages()
        let painter = makePainter(images: images)
        return try CairoOutput.image(width: tally.size.width, height: tally.size.height, scale: scale, images: images) {
            canvas throws(RenderError) in try draw(tally, on: canvas, with: painter)
        }
    }

    /// Draws the rows, whose `tally` is given, on one canvas.
    private func draw(_ tally: Tally, on canvas: Canvas, with painter: RowPainter) throws(RenderError) {
        let size = tally.size
        if let background { canvas.fill(LayoutRect(x: 0, y: 0, width: size.width, height: size.height), with: background) }
        try forEachRow(columnWidths: tally.columnWidths) { row, x, y throws(RenderError) in try painter.draw(row, x: x, y: y, on: canvas) }
    }

    /// A painter for one drawing, whose images go to `images`.
    private func makePainter(images: DrawingImages) -> RowPainter {
        RowPainter(
            scale: scale, drawsSeparators: drawsSeparators, showsFrames: showsFrames,
            images: imageFolder.map { ImageLoader(folder: $0, images: images) })
    }

    /// Calls `body` with every row and the top-left corner it is drawn at, column by column.
    private func forEachRow(columnWidths: [Double], _ body: (RowArrangement, Double, Double) throws(RenderError) -> Void) throws(RenderError) {
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

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

    /// The sheet as a file of `format`: a PNG `scale` pixels a point, or SVG or PDF in points.
    ///
    /// - Throws: ``RenderError`` for a bad scale, a sheet too large for an image, a row without
    ///   its text layouts, or a cairo failure.
    public func data(as format: RenderFormat) throws(RenderError) -> [UInt8] {
        try validate()
        guard format == .svg else { return try CairoOutput.file(format, width: size.width, height: size.height, scale: scale, draw: draw) }
        // Each row drawn alone and joined: an SVG `g` a row, for tools that pick rows out.
        let size = size
        try CairoOutput.checkSize(width: size.width, height: size.height, scale: scale, pixelsAPoint: 1)
        var joined = SVGRows(width: size.width, height: size.height, background: background)
        let painter = makePainter()
        try forEachRow { row, x, y throws(RenderError) in
            let drawing = try CairoOutput.file(.svg, width: row.width, height: row.height, scale: scale) { canvas throws(RenderError) in
                try painter.draw(row, x: 0, y: 0, on: canvas)
            }
            joined.add(drawing, x: x, y: y)
        }
        return joined.document
    }

    /// The sheet drawn in memory, `scale` pixels a point.
    public func image() throws(RenderError) -> RenderedImage {
        try validate()
        return try CairoOutput.image(width: size.width, height: size.height, scale: scale, draw: draw)
    }

    /// The images this sheet draws as placeholders although it has an ``imageFolder``, with
    /// why, in row order; empty without a folder (every image is then a placeholder).
    public func imagesNotDrawn() -> [ImageNotDrawn] {
        guard let imageFolder else { return [] }
        let loader = ImageLoader(folder: imageFolder)
        var notDrawn: [ImageNotDrawn] = []
        var seen = Set<[String]>()
        for row in columns.joined() {
            for node in row.nodes where node.type == "image" && !node.isCollapsed {
                guard let source = node.imageSource, case .failure(let problem) = loader.image(for: source) else { continue }
                // A row drawn at several widths is reported once.
                if seen.insert([row.itemID, source]).inserted { notDrawn.append(ImageNotDrawn(itemID: row.itemID, source: source, problem: problem)) }
            }
        }
        return notDrawn
    }

    private func validate() throws(RenderError) {
        guard scale.isFinite, scale > 0 else { throw .invalidScale(scale) }
    }

    private func draw(on canvas: Canvas) throws(RenderError) {
        if let background { canvas.fill(LayoutRect(x: 0, y: 0, width: size.width, height: size.height), with: background) }
        let painter = makePainter()
        try forEachRow { row, x, y throws(RenderError) in try painter.draw(row, x: x, y: y, on: canvas) }
    }

    private func makePainter() -> RowPainter {
        RowPainter(scale: scale, drawsSeparators: drawsSeparators, showsFrames: showsFrames, images: imageFolder.map(ImageLoader.init(folder:)))
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

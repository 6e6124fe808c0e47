// A cairo context over one surface: the few drawing operations rows need.

import CCairo
import GalleyLayout
import GalleyText

/// Draws into one cairo surface, in points (the surface's device scale turns them into pixels).
final class Canvas {
    private let context: OpaquePointer
    /// Device pixels a point.
    private let scale: Double
    /// The drawing's images, where colour glyphs are kept, each made once a drawing.
    private let images: DrawingImages

    /// A canvas over `surface`, drawing `scale` device units a point, with the drawing's `images`.
    init(surface: OpaquePointer, scale: Double, images: DrawingImages) {
        context = cairo_create(surface)
        self.scale = scale
        self.images = images
        cairo_scale(context, scale, scale)
        // Unhinted outlines at unhinted advances, grey antialiasing: what was measured is what is
        // drawn, and the same on every machine.
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_set_font_options(context, options)
        cairo_font_options_destroy(options)
    }

    deinit { cairo_destroy(context) }

    /// cairo's status after the drawing so far.
    var status: cairo_status_t { cairo_status(context) }

    private func setColor(_ color: RenderColor) {
        cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
    }

    func fill(_ rect: LayoutRect, with color: RenderColor) {
        setColor(color)
        cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
        cairo_fill(context)
    }

    /// Outlines `rect` with a line `lineWidth` points wide, inside it.
    func outline(_ rect: LayoutRect, with color: RenderColor, lineWidth: Double) {
        guard rect.width > 0 || rect.height > 0 else { return }
        setColor(color)
        cairo_set_line_width(context, lineWidth)
        cairo_rectangle(
            context, rect.x + lineWidth / 2, rect.y + lineWidth / 2, max(0, rect.width - lineWidth), max(0, rect.height - lineWidth))
        cairo_stroke(context)
    }

    /// Draws `image` scaled to fill `rect`.
    func draw(_ image: CairoImage, in rect: LayoutRect) {
        guard image.width > 0, image.height > 0, rect.width > 0, rect.height > 0 else { return }
        cairo_save(context)
        cairo_rectangle(context, rect.x, rect.y, rect.width, rect.height)
        cairo_clip(context)
        cairo_translate(context, rect.x, rect.y)
        cairo_scale(context, rect.width / image.width, rect.height / image.height)
        cairo_set_source_surface(context, image.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_GOOD)
        cairo_paint(context)
        cairo_restore(context)
    }

    /// Strokes the lines through `points`, with round caps and joins.
    func stroke(_ points: [LayoutPoint], with color: RenderColor, lineWidth: Double) {
        guard let first = points.first else { return }
        setColor(color)
        cairo_set_line_width(context, lineWidth)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
        cairo_move_to(context, first.x, first.y)
        for point in points.dropFirst() { cairo_line_to(context, point.x, point.y) }
        cairo_stroke(context)
    }

    /// Strokes (or fills) a circle.
    func circle(center: LayoutPoint, radius: Double, with color: RenderColor, lineWidth: Double?) {
        setColor(color)
        cairo_new_sub_path(context)
        cairo_arc(context, center.x, center.y, radius, 0, 2 * Double.pi)
        if let lineWidth {
            cairo_set_line_width(context, lineWidth)
            cairo_stroke(context)
        } else {
            cairo_fill(context)
        }
    }

    /// Draws `layout`'s glyph runs with their top-left corner at (`x`, `y`): the positions the
    /// engine found, as they are; nothing is shaped or measured here. Each glyph takes the
    /// colour of the run of `colorRuns` its cluster is in, else `color`.
    func draw(_ layout: TextLayout, x: Double, y: Double, color: RenderColor, colorRuns: [(range: Range<Int>, color: RenderColor)] = []) {
        var glyphs: [cairo_glyph_t] = []
        for run in layout.glyphRuns where !run.glyphs.isEmpty {
            if run.face.hasColorGlyphs && drawColorGlyphs(of: run, x: x, y: y) { continue }
            let loaded = CairoFontFaces.shared.withFace(for: run.face) { face in
                if let face { cairo_set_font_face(context, face) }
                return face != nil
            }
            guard loaded else { continue }
            cairo_set_font_size(context, run.size)
            // Consecutive glyphs of one colour are shown together.
            var current: RenderColor?
            for index in run.glyphs.indices {
                // An ellipsis stands where text was cut, in the style of the text before it.
                let cluster = run.isEllipsis ? max(0, run.clusters[index] - 1) : run.clusters[index]
                let glyphColor = colorRuns.first { $0.range.contains(cluster) }?.color ?? color
                if glyphColor != current {
                    show(glyphs)
                    glyphs.removeAll(keepingCapacity: true)
                    setColor(glyphColor)
                    current = glyphColor
                }
                glyphs.append(cairo_glyph_t(index: UInt(run.glyphs[index]), x: x + run.positions[index].x, y: y + run.positions[index].y))
            }
            show(glyphs)
            glyphs.removeAll(keepingCapacity: true)
        }
    }

    /// Draws a run of a bitmap font's colour glyphs as images scaled to the run's size; false
    /// when the face has a bitmap for none of them (an outline font with colour tables). A
    /// glyph without one (a space the run took in) has no ink to draw.
    private func drawColorGlyphs(of run: GlyphRun, x: Double, y: Double) -> Bool {
        let pixelsPerEm = run.size * scale
        let glyphImages = run.glyphs.map { glyph in
            let key = "\(run.face.path)#\(run.face.faceIndex)#\(glyph)#\(pixelsPerEm)"
            if images.colorGlyphs[key] == nil {
                let bitmap = ColorGlyphs.shared.bitmap(of: glyph, in: run.face, pixelsPerEm: pixelsPerEm)
                let drawn = bitmap.flatMap { bitmap in
                    CairoImage(bitmap).map { (image: $0, left: bitmap.left, top: bitmap.top, pixelsPerEm: bitmap.pixelsPerEm) }
                }
                if let drawn { images.add(drawn.image) }
                images.colorGlyphs[key] = drawn
            }
            return images.colorGlyphs[key] ?? nil
        }
        guard glyphImages.contains(where: { $0 != nil }) else { return false }
        for (drawn, position) in zip(glyphImages, run.positions) {
            guard let drawn else { continue }
            // Strike pixels to points: the strike's em is the run's size.
            let points = run.size / drawn.pixelsPerEm
            draw(
                drawn.image,
                in: LayoutRect(
                    x: x + position.x + drawn.left * points, y: y + position.y - drawn.top * points, width: drawn.image.width * points,
                    height: drawn.image.height * points))
        }
        return true
    }

    private func show(_ glyphs: [cairo_glyph_t]) {
        guard !glyphs.isEmpty else { return }
        cairo_show_glyphs(context, glyphs, Int32(glyphs.count))
    }
}

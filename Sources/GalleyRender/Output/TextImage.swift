// One text layout drawn alone, for looking at a label's ink.

import GalleyLayout
import GalleyText

extension RenderedImage {
    /// `layout` drawn alone in `color` on a transparent image `size` points plus `margin` on
    /// every side (where ink past the layout's box shows), `scale` pixels a point; the layout's
    /// top-left corner is at (`margin`, `margin`).
    ///
    /// - Throws: ``RenderError`` for a bad scale, an image too large, or a cairo failure.
    public static func text(
        _ layout: TextLayout, size: LayoutSize, margin: Double, scale: Double, color: RenderColor = .black
    ) throws(RenderError) -> RenderedImage {
        try CairoOutput.image(width: size.width + 2 * margin, height: size.height + 2 * margin, scale: scale) { canvas in
            canvas.draw(layout, x: margin, y: margin, color: color)
        }
    }
}

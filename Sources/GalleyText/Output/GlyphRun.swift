// Positioned glyphs in one face, ready for a renderer.

/// A run of glyphs in one face and size, at their final positions.
public struct GlyphRun: Sendable, Hashable {
    /// The face to draw with.
    public var face: FontFace
    /// The size in points.
    public var size: Double
    /// The styled run of the laid-out text whose glyphs these are (its place in
    /// ``AttributedText/runs``), for drawing each in its own colour; an ellipsis takes the style
    /// of the text where it is.
    public var styleIndex: Int
    /// The line the run is on.
    public var lineIndex: Int
    /// The bidi level: even left-to-right, odd right-to-left.
    public var bidiLevel: UInt8
    /// Glyph ids, in visual order (left to right).
    public var glyphs: [UInt32]
    /// Each glyph's origin on the baseline, in layout coordinates.
    public var positions: [LayoutPoint]
    /// Each glyph's advance, letter spacing and justification included.
    public var advances: [Double]
    /// Each glyph's cluster: the UTF-16 offset of the text it draws (for an ellipsis, the
    /// offset where text was cut).
    public var clusters: [Int]
    /// Whether this run is a truncation ellipsis.
    public var isEllipsis: Bool
}

// What a row is measured in: the text engine, the device scale, the layout direction.

import GalleyText

/// The context rows are measured in.
public struct LayoutEnvironment: Sendable {
    /// Horizontal direction of a row.
    public enum Direction: String, Sendable, Hashable, Codable {
        /// Left to right, or right to left (mirrored), whatever the text.
        case leftToRight, rightToLeft
        /// The direction of the row's first label's text.
        case auto
    }

    /// Shapes and measures the labels' text; share one per process.
    public var textEngine: TextEngine
    /// Device pixels per point: 1, 2 or 3. Heights round up and frames snap to these pixels.
    public var scale: Double
    /// The row's writing direction: right-to-left rows are mirrored.
    public var direction: Direction
    /// Language of the rows' text (BCP 47), for line breaking and CJK fonts.
    public var language: String?
    /// Whether measurements keep each label's full text layout (glyph positions) for
    /// renderers. Height-only jobs turn this off: frames still come out, text layouts do not.
    public var keepsTextLayouts: Bool

    /// An environment for rows measured with `textEngine` at `scale` device pixels a point.
    public init(
        textEngine: TextEngine, scale: Double = 1, direction: Direction = .auto, language: String? = nil,
        keepsTextLayouts: Bool = true
    ) {
        self.textEngine = textEngine
        self.scale = scale
        self.direction = direction
        self.language = language
        self.keepsTextLayouts = keepsTextLayouts
    }
}

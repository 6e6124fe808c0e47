// A named text style in a stylesheet: font, size, line height and colour.

import GalleyText

/// A text style as a stylesheet or template states it.
public struct TextStyleSpec: Sendable, Hashable {
    /// A font family of the text engine's collection, or a font file path.
    public var family: String
    /// Size in points, before the stylesheet's content-size multiplier.
    public var size: Double
    /// Font weight, 1 to 1000 (400 regular, 700 bold).
    public var weight: Int
    /// Whether the face is italic.
    public var italic: Bool
    /// Multiple of the font's line height (0: natural).
    public var lineHeightMultiple: Double
    /// Extra space after each grapheme, in points.
    public var letterSpacing: Double
    /// Passed through to renderers: a colour name from the stylesheet, or `#RRGGBB[AA]`.
    public var color: String?

    /// A text style by font family and size, with optional weight, slant, spacing and colour.
    public init(
        family: String = "Noto Sans", size: Double, weight: Int = 400, italic: Bool = false,
        lineHeightMultiple: Double = 0, letterSpacing: Double = 0, color: String? = nil
    ) {
        self.family = family
        self.size = size
        self.weight = weight
        self.italic = italic
        self.lineHeightMultiple = lineHeightMultiple
        self.letterSpacing = letterSpacing
        self.color = color
    }

    /// The engine's text style at `multiplier` times the size (Dynamic Type).
    func textStyle(multiplier: Double) -> TextStyle {
        TextStyle(
            font: FontDescriptor.named(family, weight: weight, italic: italic), size: size * multiplier,
            letterSpacing: letterSpacing)
    }

    /// Why the style cannot be used, or nil.
    var problem: String? {
        if !ValueRanges.fontSize.contains(size) { return "size \(ValueRanges.problem(size, outside: ValueRanges.fontSize))" }
        if !(1...1000).contains(weight) { return "weight must be 1...1000, not \(weight)" }
        if !ValueRanges.lineHeightMultiple.contains(lineHeightMultiple) {
            return "lineHeightMultiple \(ValueRanges.problem(lineHeightMultiple, outside: ValueRanges.lineHeightMultiple))"
        }
        if !ValueRanges.letterSpacing.contains(letterSpacing) {
            return "letterSpacing \(ValueRanges.problem(letterSpacing, outside: ValueRanges.letterSpacing))"
        }
        return nil
    }
}

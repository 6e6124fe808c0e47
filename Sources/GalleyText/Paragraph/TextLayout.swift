// The full result of laying out text: lines, glyph runs and size.

/// Text laid out at a width: its lines, positioned glyph runs, and total size.
public struct TextLayout: Sendable, Hashable {
    /// The lines, top to bottom.
    public var lines: [TextLine]
    /// The glyphs of every line, each line's runs in visual order.
    public var glyphRuns: [GlyphRun]
    /// Exact size: the widest line (without trailing whitespace) and the bottom of the last line.
    public var size: Size
    /// Scalars no font could draw (measured with .notdef).
    public var missingCharacters: [Unicode.Scalar]

    /// ``size`` rounded up to device pixels at `scale`, as UIKit rounds.
    public func roundedSize(scale: Double) -> Size { size.roundedUp(toScale: scale) }

    /// Whether any line was truncated.
    public var isTruncated: Bool { lines.contains(where: \.isTruncated) }
}

/// The size of text at a width, without glyph positions: what a row height needs.
public struct TextMeasurement: Sendable, Hashable {
    /// Exact size: the widest line (without trailing whitespace) and the bottom of the last line.
    public var size: Size
    /// Number of lines.
    public var lineCount: Int
    /// UTF-16 offsets at which each line after the first starts.
    public var lineStartsUTF16: [Int]
    /// Unicode scalar offsets at which each line after the first starts.
    public var lineStarts: [Int]
    /// Baseline of the first line (0 when there are no lines).
    public var firstBaseline: Double
    /// Baseline of the last line (0 when there are no lines).
    public var lastBaseline: Double
    /// Whether the last line was truncated.
    public var isTruncated: Bool
    /// Scalars no font could draw (measured with .notdef).
    public var missingCharacters: [Unicode.Scalar]

    /// ``size`` rounded up to device pixels at `scale`, as UIKit rounds.
    public func roundedSize(scale: Double) -> Size { size.roundedUp(toScale: scale) }
}

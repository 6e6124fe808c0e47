// One laid-out line: its text range, width and vertical metrics.

/// A line of a ``TextLayout``.
public struct TextLine: Sendable, Hashable {
    /// The text the line covers, in UTF-16 offsets (trailing whitespace and separator
    /// included). A truncated line covers everything from its start to the end of the text.
    public var utf16Range: Range<Int>
    /// The same range in Unicode scalar offsets.
    public var scalarRange: Range<Int>
    /// Width of the line's content without trailing whitespace, ellipsis included.
    public var width: Double
    /// x of the line's left edge after alignment.
    public var x: Double
    /// Largest ascent of the fonts on the line.
    public var ascent: Double
    /// Largest descent of the fonts on the line.
    public var descent: Double
    /// y of the top of the line box.
    public var top: Double
    /// Height of the line box (after line height rules; spacing not included).
    public var height: Double
    /// y of the baseline.
    public var baseline: Double
    /// Whether text was cut and an ellipsis drawn on this line.
    public var isTruncated: Bool
    /// Whether the line ends its paragraph (a mandatory break or the end of the text).
    public var endsParagraph: Bool
    /// The bidi level of the line's paragraph: 0 left-to-right, 1 right-to-left.
    public var baseLevel: UInt8
}

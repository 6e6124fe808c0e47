// Vertical metrics of a font face, in font units, as its tables state them.

/// A face's vertical metrics in font units, read from its `head`, `hhea` and `OS/2` tables.
///
/// Ascender, descender and line gap come from the OS/2 typographic values when the face sets
/// `USE_TYPO_METRICS` (bit 7 of `fsSelection`), and from `hhea` otherwise, as CoreText and
/// HarfBuzz choose them. Use ``scaled(to:)`` for values at a point size.
public struct FontMetrics: Sendable, Hashable {
    /// Font units per em (`head.unitsPerEm`).
    public var unitsPerEm: Int
    /// Distance from the baseline up to the top of the line box; positive.
    public var ascender: Int
    /// Distance from the baseline down to the bottom of the line box; positive.
    public var descender: Int
    /// Extra space the font asks for between lines.
    public var lineGap: Int
    /// Height of flat capital letters (`OS/2.sCapHeight`), 0 when the table is too old to say.
    public var capHeight: Int
    /// Height of flat lowercase letters (`OS/2.sxHeight`), 0 when the table is too old to say.
    public var xHeight: Int
    /// Whether the face asked for its OS/2 typographic metrics to be used.
    public var usesTypographicMetrics: Bool

    /// Metrics from their values in font units.
    public init(
        unitsPerEm: Int, ascender: Int, descender: Int, lineGap: Int, capHeight: Int,
        xHeight: Int, usesTypographicMetrics: Bool
    ) {
        self.unitsPerEm = unitsPerEm
        self.ascender = ascender
        self.descender = descender
        self.lineGap = lineGap
        self.capHeight = capHeight
        self.xHeight = xHeight
        self.usesTypographicMetrics = usesTypographicMetrics
    }

    /// The metrics at `size` points (1 pt = 1 px at scale 1).
    public func scaled(to size: Double) -> ScaledFontMetrics {
        let scale = size / Double(unitsPerEm)
        return ScaledFontMetrics(
            size: size,
            ascent: Double(ascender) * scale,
            descent: Double(descender) * scale,
            lineGap: Double(lineGap) * scale,
            capHeight: Double(capHeight) * scale,
            xHeight: Double(xHeight) * scale)
    }
}

/// A face's vertical metrics at one size, in points.
public struct ScaledFontMetrics: Sendable, Hashable {
    /// The point size these metrics are for.
    public var size: Double
    /// Distance from the baseline up to the top of the line box; positive.
    public var ascent: Double
    /// Distance from the baseline down to the bottom of the line box; positive.
    public var descent: Double
    /// Extra space between lines.
    public var lineGap: Double
    /// Height of flat capital letters.
    public var capHeight: Double
    /// Height of flat lowercase letters.
    public var xHeight: Double

    /// The natural height of one line: ascent, descent and line gap (UIFont's `lineHeight`).
    public var lineHeight: Double { ascent + descent + lineGap }

    /// Whether a line holding text in either metrics is as tall, with the same baseline: the
    /// same ascent, descent and line gap.
    func hasSameLineBox(as other: ScaledFontMetrics) -> Bool {
        ascent == other.ascent && descent == other.descent && lineGap == other.lineGap
    }
}

// The full result of laying out text: lines, glyph runs and size.

/// Text laid out at a width: its lines, positioned glyph runs, and total size.
public struct TextLayout: Sendable, Hashable {
    /// The lines, top to bottom.
    public var lines: [TextLine]
    /// The glyphs of every line, each line's runs in visual order.
    public var glyphRuns: [GlyphRun]
    /// Exact size: the widest line (without trailing whitespace) and the bottom of the last line.
    public var size: LayoutSize
    /// Scalars no font could draw (measured with .notdef).
    public var missingCharacters: [Unicode.Scalar]

    /// ``size`` rounded up to device pixels at `scale`, as UIKit rounds.
    public func roundedSize(scale: Double) -> LayoutSize { size.roundedUp(toScale: scale) }

    /// Whether any line was truncated.
    public var isTruncated: Bool { lines.contains(where: \.isTruncated) }
}

/// The size of text at a width, without glyph positions: what a row height needs.
///
/// Making one allocates nothing: the line starts are not kept but worked out again, from the
/// paragraph, each time ``lineStartsUTF16`` or ``lineStarts`` is read (keep the result to use it
/// more than once).
public struct TextMeasurement: Sendable, Hashable {
    /// Exact size: the widest line (without trailing whitespace) and the bottom of the last line.
    public var size: LayoutSize
    /// Number of lines.
    public var lineCount: Int
    /// Baseline of the first line (0 when there are no lines).
    public var firstBaseline: Double
    /// Baseline of the last line (0 when there are no lines).
    public var lastBaseline: Double
    /// Whether the last line was truncated.
    public var isTruncated: Bool
    /// Scalars no font could draw (measured with .notdef).
    public var missingCharacters: [Unicode.Scalar]

    /// Where the line starts come from.
    let starts: LineStarts

    /// The line starts of a measurement: worked out again from its paragraph when asked for,
    /// or, for a text measured a window at a time (whose paragraphs are gone), found as it was.
    enum LineStarts: Sendable {
        case paragraph(ShapedParagraph, width: Double)
        case found(utf16: [Int], scalars: [Int])
    }

    init(
        size: LayoutSize, lineCount: Int, firstBaseline: Double, lastBaseline: Double, isTruncated: Bool,
        missingCharacters: [Unicode.Scalar], starts: LineStarts
    ) {
        self.size = size
        self.lineCount = lineCount
        self.firstBaseline = firstBaseline
        self.lastBaseline = lastBaseline
        self.isTruncated = isTruncated
        self.missingCharacters = missingCharacters
        self.starts = starts
    }

    /// UTF-16 offsets at which each line after the first starts.
    ///
    /// - Complexity: breaks the paragraph into lines again (no shaping), O(n).
    public var lineStartsUTF16: [Int] {
        switch starts {
        case .paragraph(let paragraph, let width): paragraph.lineStartsUTF16(width: width)
        case .found(let utf16, _): utf16
        }
    }

    /// Unicode scalar offsets at which each line after the first starts.
    ///
    /// - Complexity: breaks the paragraph into lines again (no shaping), O(n).
    public var lineStarts: [Int] {
        switch starts {
        case .paragraph(let paragraph, _): paragraph.scalarOffsets(ofUTF16Offsets: lineStartsUTF16)
        case .found(_, let scalars): scalars
        }
    }

    /// ``size`` rounded up to device pixels at `scale`, as UIKit rounds.
    public func roundedSize(scale: Double) -> LayoutSize { size.roundedUp(toScale: scale) }

    /// Whether the two are equal.
    public static func == (lhs: TextMeasurement, rhs: TextMeasurement) -> Bool {
        lhs.size == rhs.size && lhs.lineCount == rhs.lineCount && lhs.firstBaseline == rhs.firstBaseline
            && lhs.lastBaseline == rhs.lastBaseline && lhs.isTruncated == rhs.isTruncated
            && lhs.missingCharacters == rhs.missingCharacters && lhs.lineStartsUTF16 == rhs.lineStartsUTF16
    }

    /// Hashes what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(size)
        hasher.combine(lineCount)
        hasher.combine(isTruncated)
    }
}

/// The vertical part of a ``TextMeasurement``: what a caller that gives text all of a finite
/// width needs (see ``ShapedParagraph/measureHeight(width:)``).
package struct TextHeight: Sendable, Equatable {
    /// The bottom of the last line.
    package var height: Double
    package var lineCount: Int
    package var firstBaseline: Double
    package var lastBaseline: Double

    package init(height: Double, lineCount: Int, firstBaseline: Double, lastBaseline: Double) {
        (self.height, self.lineCount, self.firstBaseline, self.lastBaseline) = (height, lineCount, firstBaseline, lastBaseline)
    }
}

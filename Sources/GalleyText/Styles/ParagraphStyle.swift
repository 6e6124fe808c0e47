// Paragraph-level layout settings: line height, spacing, alignment, wrapping, limits.

/// How lines are laid out: their height and spacing, alignment, wrapping and limits, with the
/// meanings NSParagraphStyle gives them.
public struct ParagraphStyle: Sendable, Hashable {
    /// Multiplies each line's natural height (the tallest font's ascent, descent and line gap).
    /// 0 or 1 leaves it natural. The extra height goes above the text.
    public var lineHeightMultiple: Double
    /// A line is at least this tall, in points (0: no minimum).
    public var minimumLineHeight: Double
    /// A line is at most this tall, in points (0: no maximum).
    public var maximumLineHeight: Double
    /// Extra space between lines, in points.
    public var lineSpacing: Double
    /// Extra space between paragraphs (text separated by a mandatory break), in points.
    public var paragraphSpacing: Double
    /// Horizontal alignment of lines.
    public var alignment: TextAlignment
    /// How lines wrap, and what happens to the last line when text is left over.
    public var lineBreakMode: LineBreakMode
    /// At most this many lines (0: unlimited).
    public var maximumLines: Int
    /// Lines that would end below this height are dropped, though the first line is always
    /// kept, as a label too short for it still shows it clipped (nil: unlimited).
    public var maximumHeight: Double?
    /// Base direction of each paragraph.
    public var direction: WritingDirection
    /// The text's language as a BCP 47 tag or ICU locale ID ("th", "ja-JP-u-lb-strict",
    /// "ja@lb=loose"); it picks line-breaking rules and the CJK face. nil: root rules.
    public var language: String?

    /// A paragraph style; every setting defaults to UIKit's default.
    public init(
        lineHeightMultiple: Double = 0, minimumLineHeight: Double = 0, maximumLineHeight: Double = 0,
        lineSpacing: Double = 0, paragraphSpacing: Double = 0, alignment: TextAlignment = .natural,
        lineBreakMode: LineBreakMode = .wordWrap, maximumLines: Int = 0, maximumHeight: Double? = nil,
        direction: WritingDirection = .auto, language: String? = nil
    ) {
        self.lineHeightMultiple = lineHeightMultiple
        self.minimumLineHeight = minimumLineHeight
        self.maximumLineHeight = maximumLineHeight
        self.lineSpacing = lineSpacing
        self.paragraphSpacing = paragraphSpacing
        self.alignment = alignment
        self.lineBreakMode = lineBreakMode
        self.maximumLines = maximumLines
        self.maximumHeight = maximumHeight
        self.direction = direction
        self.language = language
    }

    /// A line's height under this style, given its natural height.
    func lineHeight(natural: Double) -> Double {
        var height = lineHeightMultiple > 0 ? natural * lineHeightMultiple : natural
        height = max(height, minimumLineHeight)
        if maximumLineHeight > 0 { height = min(height, maximumLineHeight) }
        return height
    }

    /// Why the style cannot be used, or nil when it can.
    var problem: String? {
        if !ValueRanges.lineHeightMultiple.contains(lineHeightMultiple) {
            return "lineHeightMultiple \(ValueRanges.problem(lineHeightMultiple, outside: ValueRanges.lineHeightMultiple))"
        }
        if let (name, value) = firstInvalidLength { return "\(name) \(ValueRanges.problem(value, outside: ValueRanges.length))" }
        if maximumLines < 0 { return "maximumLines must be ≥ 0, not \(maximumLines)" }
        return nil
    }

    /// The first length outside ``ValueRanges/length``, with its name. Checked one by one, with
    /// no list built: every paragraph shaped asks, and nearly all pass.
    private var firstInvalidLength: (String, Double)? {
        func isLength(_ value: Double) -> Bool { ValueRanges.length.contains(value) }
        if !isLength(minimumLineHeight) { return ("minimumLineHeight", minimumLineHeight) }
        if !isLength(maximumLineHeight) { return ("maximumLineHeight", maximumLineHeight) }
        if !isLength(lineSpacing) { return ("lineSpacing", lineSpacing) }
        if !isLength(paragraphSpacing) { return ("paragraphSpacing", paragraphSpacing) }
        if let maximumHeight, !isLength(maximumHeight) { return ("maximumHeight", maximumHeight) }
        return nil
    }
}

/// Horizontal alignment of the lines of a paragraph.
public enum TextAlignment: String, Sendable, Hashable, Codable, CaseIterable {
    /// Left for left-to-right paragraphs, right for right-to-left ones.
    case natural
    /// Every line against the left edge.
    case left
    /// Every line against the right edge.
    case right
    /// Every line centred.
    case center
    /// Spaces stretched so that every line but a paragraph's last fills the width.
    case justified
}

/// How a paragraph wraps, and what its last allowed line does with text left over.
public enum LineBreakMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Wrap at word boundaries (UAX #14); a word wider than the line breaks between graphemes.
    case wordWrap
    /// Wrap at any grapheme boundary.
    case charWrap
    /// Wrap at words; a word wider than the line is not broken but clipped.
    case clip
    /// Wrap at words; the last line shows "…" then the end of the text.
    case truncateHead
    /// Wrap at words; the last line shows its start, "…", and the end of the text.
    case truncateMiddle
    /// Wrap at words; the last line ends with "…".
    case truncateTail

    var isTruncating: Bool { self == .truncateHead || self == .truncateMiddle || self == .truncateTail }
}

/// The base direction of a paragraph.
public enum WritingDirection: String, Sendable, Hashable, Codable, CaseIterable {
    /// From the paragraph's first strong character (left-to-right if there is none).
    case auto
    /// Left to right, whatever the text.
    case leftToRight
    /// Right to left, whatever the text.
    case rightToLeft
}

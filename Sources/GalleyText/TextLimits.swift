// How much text one request may ask the engine to measure.

/// Limits on one text measured: an error for that text beyond them, before any work is done.
///
/// Measuring is linear in a text's length, and a paragraph holds about eight bytes of memory
/// per byte of its UTF-8 at its largest (see the README's "Limits"), so these bound the time
/// and memory one request costs. Set them to what the service's texts can be.
public struct TextLimits: Sendable, Hashable {
    /// The longest text, in UTF-16 units (a character of Latin, Greek or CJK text is one; an
    /// emoji two). At most ``largestTextLength``.
    public var maximumTextLength: Int
    /// The most styled runs in one attributed text.
    public var maximumRuns: Int

    /// The longest text the engine can measure at all: its offsets are kept in 30 bits.
    public static let largestTextLength = (1 << 30) - 1

    /// Limits from their parts.
    public init(maximumTextLength: Int = 64 << 20, maximumRuns: Int = 1 << 16) {
        self.maximumTextLength = min(max(maximumTextLength, 0), Self.largestTextLength)
        self.maximumRuns = max(maximumRuns, 1)
    }

    /// Why `text` is over the limits, or nil.
    func problem(with text: AttributedText) -> TextError? {
        let length = text.runs.last?.range.upperBound ?? 0
        if length > maximumTextLength { return .overLimit("the text is \(length) UTF-16 units long, more than the limit of \(maximumTextLength)") }
        if text.runs.count > maximumRuns { return .overLimit("the text has \(text.runs.count) styled runs, more than the limit of \(maximumRuns)") }
        return nil
    }
}

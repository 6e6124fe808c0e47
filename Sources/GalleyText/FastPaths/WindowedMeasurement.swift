// Measuring a long text a window at a time, so that it costs the memory of a window, not of
// the whole text's paragraph.

/// Measures a long text by shaping and breaking a window of it at a time.
///
/// A shaped paragraph holds about twenty bytes for each UTF-16 unit of its text (every unit's
/// advance and flags, its words, their shaped segments), so a whole long text's would take
/// twenty times its size. Lines are broken greedily, each from where the last ended, so a long text's
/// lines can be found window by window: every line of a window but its last is the whole
/// text's, and the next window starts where that last line does. Each window is then dropped;
/// what is kept is the text's UTF-16 and one offset per line.
///
/// A window starts and ends only where the text's analysis cannot differ from the whole
/// text's: at a letter (line-break class AL, general category L, so a script of its own) that
/// follows a line feed (a mandatory break, and the start of a bidi paragraph: levels are
/// resolved paragraph by paragraph), or, in text that nothing can make right to left (every
/// bidi level 0), that follows spaces after another letter (a break opportunity no UAX #14 rule
/// looks across, and a grapheme boundary). Words are shaped one at a time, without their
/// neighbours, so their shapes do not depend on the window either. A line's top is carried from window to window and each
/// line placed from it as the whole text's would be, so every number comes out the same, to
/// the bit (the tests compare them).
enum WindowedMeasurement {
    /// Texts of at least this many UTF-16 units are measured in windows, when they can be.
    static let threshold = 1 << 20
    /// How many UTF-16 units a window reaches past the line it starts with, at least.
    static let windowLength = 1 << 18

    /// `text` measured at `width` a window at a time, the first font's line height, and how many
    /// windows were shaped (a window that held less than a line is shaped again, longer); nil
    /// when it is not measured so: shorter than `threshold`, or limited in lines or height (a
    /// visible start does that).
    static func measure(
        _ text: AttributedText, utf16: [UInt16], paragraph: ParagraphStyle, width: Double, shaper: ParagraphShaper,
        threshold: Int = threshold, windowLength: Int = windowLength
    ) throws(TextError) -> (measurement: TextMeasurement, baseLineHeight: Double, windows: Int)? {
        guard utf16.count >= threshold, paragraph.maximumLines == 0, paragraph.maximumHeight == nil, windowLength > 0 else { return nil }
        let leftToRight = utf16.withUnsafeBufferPointer { TextAnalysis.isLeftToRightThroughout($0, direction: paragraph.direction) }
        let available = width.isNaN ? 0 : max(width, 0)
        var windowStart = 0
        var lineStart = 0
        var top = 0.0
        var reach = windowLength
        var summary = Summary()
        var baseLineHeight: Double?
        var windows = 0
        while true {
            windows += 1
            let end = utf16.withUnsafeBufferPointer { safeCut(in: $0, from: lineStart + reach, leftToRight: leftToRight) } ?? utf16.count
            let window = windowStart..<end
            let part = AttributedText(string: String(decoding: utf16[window], as: UTF16.self), runs: text.runs(in: window))
            let shaped = try shaper.shape(part, utf16: Array(utf16[window]), paragraph: paragraph, showing: nil, heightsOnly: true)
            if baseLineHeight == nil { baseLineHeight = shaped.baseLineHeight }
            var lines: [Line] = []
            LineStacker(paragraph: shaped, width: available).stack(from: shaped.units.unit(startingAt: lineStart - windowStart), top: top) { line in
                lines.append(
                    Line(
                        start: windowStart + shaped.units.start(ofUnit: line.span.start), top: line.top, height: line.height,
                        baseline: line.baseline, width: line.width))
            }
            let isLast = end == utf16.count
            // A window must hold a whole line and the start of the next, to end in one it may cut.
            if !isLast && lines.count < 2 {
                reach *= 2
                continue
            }
            for line in isLast ? lines[...] : lines.dropLast() { summary.add(line) }
            summary.add(missing: shaped.missingCharacters)
            guard !isLast, let next = lines.last else { break }
            lineStart = next.start
            top = next.top
            windowStart =
                utf16.withUnsafeBufferPointer {
                    latestSafeCut(in: $0, atOrBefore: lineStart, notBefore: windowStart, leftToRight: leftToRight)
                } ?? windowStart
            reach = windowLength
        }
        let widest = paragraph.lineBreakMode == .clip ? min(summary.widest, available) : summary.widest
        let scalars = ShapedParagraph.scalarOffsets(ofUTF16Offsets: summary.lineStarts, in: utf16)
        let measurement = TextMeasurement(
            size: LayoutSize(width: widest, height: summary.bottom), lineCount: summary.count, firstBaseline: summary.firstBaseline,
            lastBaseline: summary.lastBaseline, isTruncated: false, missingCharacters: summary.missing,
            starts: .found(utf16: summary.lineStarts, scalars: scalars))
        return (measurement, baseLineHeight ?? 0, windows)
    }

    /// What a measurement keeps of a line.
    private struct Line {
        /// Its first UTF-16 offset in the whole text.
        var start: Int
        var top: Double
        var height: Double
        var baseline: Double
        var width: Double
    }

    /// The lines taken so far, as a measurement reports them.
    private struct Summary {
        var count = 0
        var lineStarts: [Int] = []
        var firstBaseline = 0.0
        var lastBaseline = 0.0
        var bottom = 0.0
        var widest = 0.0
        var missing: [Unicode.Scalar] = []
        var missingSeen = Set<Unicode.Scalar>()

        mutating func add(_ line: Line) {
            if count == 0 { firstBaseline = line.baseline } else { lineStarts.append(line.start) }
            lastBaseline = line.baseline
            bottom = line.top + line.height
            widest = max(widest, line.width)
            count += 1
        }

        /// A window's missing characters: those not seen before, in order. (Windows follow one
        /// another, so a character first met in a later one is met later in the text.)
        mutating func add(missing scalars: [Unicode.Scalar]) {
            for scalar in scalars where missingSeen.insert(scalar).inserted { missing.append(scalar) }
        }
    }

    /// The first safe cut at or after `offset` (see the type's discussion), or nil when there is
    /// none before the text's last few units.
    static func safeCut(in utf16: UnsafeBufferPointer<UInt16>, from offset: Int, leftToRight: Bool) -> Int? {
        var cut = max(offset, 1)
        while cut < utf16.count - 16 {
            if isSafeCut(utf16, at: cut, leftToRight: leftToRight) { return cut }
            cut += 1
        }
        return nil
    }

    /// The last safe cut at or before `offset` and after `lowest`; nil when there is none.
    static func latestSafeCut(
        in utf16: UnsafeBufferPointer<UInt16>, atOrBefore offset: Int, notBefore lowest: Int, leftToRight: Bool
    ) -> Int? {
        var cut = offset
        while cut > lowest {
            if isSafeCut(utf16, at: cut, leftToRight: leftToRight) { return cut }
            cut -= 1
        }
        return nil
    }

    /// Whether a letter starts at `cut` after a line feed, or (`leftToRight`) after spaces
    /// that follow a letter.
    private static func isSafeCut(_ utf16: UnsafeBufferPointer<UInt16>, at cut: Int, leftToRight: Bool) -> Bool {
        guard cut > 1, cut < utf16.count, isLetter(utf16[cut]) else { return false }
        if utf16[cut - 1] == 0x0A { return true }
        guard leftToRight, utf16[cut - 1] == 0x20 else { return false }
        var before = cut - 1
        while before > 0 && utf16[before] == 0x20 { before -= 1 }
        return isLetter(utf16[before])
    }

    /// Whether `unit` is a letter of line-break class AL: a script of its own, no rule looking across it.
    private static func isLetter(_ unit: UInt16) -> Bool {
        guard SimpleLineBreaks.isAlphabetic(unit), let scalar = Unicode.Scalar(unit) else { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter: return true
        default: return false
        }
    }
}

extension BreakUnits {
    /// The unit that starts at UTF-16 offset `offset` (a unit's start), or the unit count at the end.
    func unit(startingAt offset: Int) -> Int {
        guard !isOneUnitEach else { return offset }
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if start(ofUnit: middle) < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

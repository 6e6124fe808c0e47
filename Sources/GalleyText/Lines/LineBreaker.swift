// Greedy line breaking over a shaped paragraph's grapheme units.

/// One line's share of the units, before vertical placement.
struct LineSpan: Sendable, Hashable {
    /// Units `start..<end` belong to the line, trailing whitespace and separators included.
    var start: Int
    var end: Int
    /// Units after `contentEnd` are trailing whitespace, which hangs.
    var contentEnd: Int
    /// Width of `start..<contentEnd`.
    var width: Double
    /// Whether the line ends its paragraph (a mandatory break, or the end of the text).
    var endsParagraph: Bool
    /// Whether the line starts and its content ends between shaped segments, so that it cuts no
    /// word and `width` is exact as summed (false when not known).
    var isWordAligned = false
    /// The index of the word that starts at `end`, when the breaker knows it (-1 otherwise): the
    /// next line starts its words there, without searching them.
    var nextWord = -1
}

/// Breaks units into lines first-fit, as UIKit and Pango do.
///
/// A line takes units while its width without trailing whitespace fits, then breaks at the
/// last break opportunity. A word wider than the line starts on a fresh line and is broken
/// between graphemes (in ``LineBreakMode/clip`` it runs on, to be clipped). Every line takes at
/// least one unit, so a width narrower than a grapheme still terminates: one grapheme per line.
struct LineBreaker {
    let units: BreakUnits
    let width: Double
    let breaksLongWords: Bool

    /// Widths within this much of the limit count as fitting, absorbing rounding in sums.
    static let tolerance = 1e-6

    init(units: BreakUnits, width: Double, mode: LineBreakMode) {
        self.units = units
        self.width = width
        breaksLongWords = mode != .clip
    }

    /// The line starting at unit `start` (which must be below `units.count`); `firstWord` may
    /// say which word starts there (the previous line's ``LineSpan/nextWord``).
    ///
    /// Steps word by word; only a line whose first word does not fit (an over-long word, or
    /// one after leading whitespace) goes through the grapheme-by-grapheme breaker.
    func line(from start: Int, firstWord: Int = -1) -> LineSpan {
        // The hot loop of every re-layout: raw buffers, no bounds checks or reference counting.
        units.words.withUnsafeBufferPointer { words in
            // The word the line starts with: told, the first, or searched for (a search reads
            // words across the array, each likely a cache line no measurement had touched yet).
            let first =
                if firstWord >= 0 && firstWord < words.count && words[firstWord].start == start {
                    firstWord
                } else if start == 0 && !words.isEmpty {
                    0
                } else {
                    words.partitionPoint { $0.start <= start } - 1
                }
            // A line starting inside a word (after an over-long word was cut) goes unit by unit.
            guard first >= 0, words[first].start == start else { return unitLine(from: start) }
            let limit = width + Self.tolerance
            var x = 0.0
            var contentEnd = start
            var contentWidth = 0.0
            // Whether the line's edges fall between shaped segments (an empty line's do).
            let startsSegment = words[first].startsSegment
            var contentEndsSegment = true
            var index = first
            while index < words.count {
                let word = words[index]
                if index > first && word.startsWithMandatoryBreak {
                    return LineSpan(
                        start: start, end: word.start, contentEnd: contentEnd, width: contentWidth, endsParagraph: true,
                        isWordAligned: startsSegment && contentEndsSegment, nextWord: index)
                }
                if word.contentEnd > word.start && x + word.contentWidth > limit {
                    // The word overflows: break before it if the line already shows something.
                    if index > first && contentEnd > start {
                        return LineSpan(
                            start: start, end: word.start, contentEnd: contentEnd, width: contentWidth, endsParagraph: false,
                            isWordAligned: startsSegment && contentEndsSegment, nextWord: index)
                    }
                    return unitLine(from: start)
                }
                if word.contentEnd > word.start {
                    contentWidth = x + word.contentWidth
                    contentEnd = word.contentEnd
                    contentEndsSegment = word.contentEndsSegment
                }
                x += word.width
                index += 1
            }
            return LineSpan(
                start: start, end: units.count, contentEnd: contentEnd, width: contentWidth, endsParagraph: true,
                isWordAligned: startsSegment && contentEndsSegment)
        }
    }

    /// The line starting at unit `start`, grapheme by grapheme.
    private func unitLine(from start: Int) -> LineSpan {
        units.advances.withUnsafeBufferPointer { advances in
            units.flags.withUnsafeBufferPointer { flags in
                line(from: start, advances: advances, flags: flags)
            }
        }
    }

    private func line(from start: Int, advances: UnsafeBufferPointer<Double>, flags: UnsafeBufferPointer<UnitFlags>) -> LineSpan {
        let limit = width + Self.tolerance
        let count = advances.count
        var x = 0.0
        var contentEnd = start
        var contentWidth = 0.0
        var lastBreak = -1
        var widthAtBreak = 0.0
        var contentEndAtBreak = start
        var index = start
        while index < count {
            let unitFlags = flags[index]
            if index > start {
                if unitFlags.contains(.mandatoryBreakBefore) {
                    return LineSpan(start: start, end: index, contentEnd: contentEnd, width: contentWidth, endsParagraph: true)
                }
                if unitFlags.contains(.breakBefore) {
                    lastBreak = index
                    widthAtBreak = contentWidth
                    contentEndAtBreak = contentEnd
                }
            }
            let advance = advances[index]
            if unitFlags.contains(.whitespace) {
                x += advance
                index += 1
                continue
            }
            if x + advance > limit && index > start {
                // Break at the last opportunity that leaves something besides whitespace behind.
                if lastBreak > start && contentEndAtBreak > start {
                    return LineSpan(start: start, end: lastBreak, contentEnd: contentEndAtBreak, width: widthAtBreak, endsParagraph: false)
                }
                if breaksLongWords && contentEnd > start {
                    return LineSpan(start: start, end: index, contentEnd: contentEnd, width: contentWidth, endsParagraph: false)
                }
            }
            x += advance
            contentWidth = x
            contentEnd = index + 1
            index += 1
        }
        return LineSpan(start: start, end: count, contentEnd: contentEnd, width: contentWidth, endsParagraph: true)
    }
}

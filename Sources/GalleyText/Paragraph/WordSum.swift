// A break word's width summed unit by unit, as the line breaker sums a line's.

/// A word's units summed as they come, as ``LineBreaker`` sums a line's (in order): its width,
/// and its width up to its last unit that is not whitespace.
struct WordSum {
    let start: Int
    let flags: UnitFlags
    var width = 0.0
    var contentWidth = 0.0
    var contentEnd: Int

    /// A word starting at unit `start`, whose flags are `flags`.
    init(start: Int, flags: UnitFlags) {
        self.start = start
        self.flags = flags
        contentEnd = start
    }

    @inline(__always)
    mutating func add(_ advance: Double, isWhitespace: Bool, at index: Int) {
        width += advance
        if !isWhitespace {
            contentWidth = width
            contentEnd = index + 1
        }
    }

    func finished(contentEndsSegment: Bool) -> BreakWord {
        BreakWord(
            start: start, contentEnd: contentEnd, width: width, contentWidth: contentWidth,
            startsWithMandatoryBreak: flags.contains(.mandatoryBreakBefore), startsSegment: flags.contains(.segmentStart),
            contentEndsSegment: contentEndsSegment)
    }
}

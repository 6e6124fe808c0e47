// Stacks lines vertically, applying line height rules, limits and truncation.

/// A line with its vertical placement, before glyphs are positioned.
struct PlacedLine: Sendable {
    var span: LineSpan
    var truncation: Truncation?
    /// Pieces of words cut at the line's ends (or by truncation), reshaped on their own.
    var cuts: [SegmentCut]
    /// Width without trailing whitespace (with the ellipsis, when truncated).
    var width: Double
    var ascent: Double
    var descent: Double
    var top: Double
    var height: Double
    var baseline: Double
}

/// Breaks a shaped paragraph into lines at one width and places them top to bottom.
///
/// A line's natural height comes from the tallest run on it (the largest ascent, descent and
/// line gap of its fonts); the paragraph style's multiple and limits apply to that, line spacing
/// goes between lines, and paragraph spacing after a line that ends a paragraph. Lines stop at
/// the maximum number of lines or height; with a truncating mode the last kept line then shows
/// an ellipsis. Lines are made lazily, so a short limit on a long text stays cheap.
struct LineStacker {
    let paragraph: ShapedParagraph
    let width: Double
    /// The paragraph's style, read in place: a copy retains its language.
    private var style: ParagraphStyle { paragraph.paragraphStyle }

    init(paragraph: ShapedParagraph, width: Double) {
        self.paragraph = paragraph
        self.width = width
    }

    /// Every line, top to bottom, and the unit the line after them would start at.
    func lines() -> (lines: [PlacedLine], nextLineUnit: Int) {
        var lines: [PlacedLine] = []
        let next = stack { lines.append($0) }
        return (lines, next)
    }

    /// Calls `visit` with each line, top to bottom, without keeping them: measuring a height
    /// allocates nothing. A line is handed over once the next one is known, so that the last
    /// allowed line can be replaced by its truncated form first.
    ///
    /// - Parameter exactTruncation: false for callers that read only heights and baselines: a
    ///   last line whose truncation cannot change its height is then handed over untruncated
    ///   (its width and cuts are not the truncated line's), which saves working out which
    ///   graphemes an ellipsis leaves room for and reshaping a cut word.
    /// - Returns: The unit the line after the last would start at (the unit count when the
    ///   lines hold every unit).
    /// - Parameters:
    ///   - unit: The unit the first line starts at (a line start of the text, for a window of
    ///     a long text measured a window at a time).
    ///   - top: Where the first line's top is.
    @discardableResult
    func stack(exactTruncation: Bool = true, from unit: Int = 0, top: Double = 0, _ visit: (PlacedLine) -> Void) -> Int {
        let units = paragraph.units
        let breaker = LineBreaker(units: units, width: width, mode: style.lineBreakMode)
        var pending: PlacedLine?
        var count = 0
        var start = unit
        var nextTop = top
        var nextWord = -1
        var limited = false
        while start < units.count {
            let (span, cuts) = fitCutWord(breaker.line(from: start, firstWord: nextWord))
            let line = place(span, truncation: nil, cuts: cuts, top: nextTop)
            if let maximumHeight = style.maximumHeight, count > 0,
                line.top + line.height > maximumHeight + LineBreaker.tolerance
            {
                limited = true
                break
            }
            start = span.end
            nextWord = span.nextWord
            nextTop = line.top + line.height + style.lineSpacing + (span.endsParagraph ? style.paragraphSpacing : 0)
            // Moved out and in, not copied: a copy retains the line's cuts and truncation.
            if let previous = pending.take() { visit(previous) }
            pending = consume line
            count += 1
            if style.maximumLines > 0 && count == style.maximumLines && start < units.count {
                limited = true
                break
            }
        }
        guard var last = pending.take() else { return start }
        if limited, style.lineBreakMode.isTruncating, exactTruncation || !paragraph.truncationKeepsLineHeight {
            let truncation = Truncator(paragraph: paragraph, width: width)
                .truncate(from: last.span.start, mode: style.lineBreakMode)
            last = place(last.span, truncation: truncation, cuts: truncation.cuts, top: last.top)
        }
        visit(last)
        return start
    }

    /// Makes a line that starts or ends inside a word exact: the cut pieces are reshaped, and
    /// graphemes go back to the next line while the reshaped line overflows (never below one
    /// grapheme). Lines between words are returned as they are, with no cuts.
    private func fitCutWord(_ proposed: LineSpan) -> (LineSpan, [SegmentCut]) {
        // Most lines: whole words, exact as summed (what `exactWidth` would find, without
        // reading the units' flags).
        if proposed.isWordAligned { return (proposed, []) }
        var span = proposed
        var exact = paragraph.exactWidth(of: span.start..<span.contentEnd, summed: span.width)
        span.width = exact.width
        // Reads the paragraph's units in place: no local copy to retain and release.
        func endsInsideWord(_ span: LineSpan) -> Bool {
            !span.endsParagraph && span.end < paragraph.units.count && !paragraph.units.flags[span.end].contains(.breakBefore)
        }
        while endsInsideWord(span) && span.width > width + LineBreaker.tolerance && span.contentEnd - span.start > 1 {
            span.end -= 1
            span.contentEnd = span.end
            exact = paragraph.exactWidth(of: span.start..<span.contentEnd)
            span.width = exact.width
        }
        return (span, exact.cuts)
    }

    private func place(_ span: LineSpan, truncation: Truncation?, cuts: [SegmentCut], top: Double) -> PlacedLine {
        var ascent = 0.0
        var descent = 0.0
        var lineGap = 0.0
        func include(_ metrics: ScaledFontMetrics) {
            ascent = max(ascent, metrics.ascent)
            descent = max(descent, metrics.descent)
            lineGap = max(lineGap, metrics.lineGap)
        }
        func includeUnits(_ range: Range<Int>) {
            if let metrics = paragraph.uniformMetrics {
                if !range.isEmpty { include(metrics) }
                return
            }
            // Item by item, not unit by unit: a line holds few items.
            var unit = range.lowerBound
            // Through a buffer: subscripting the array would copy the whole item to read a field.
            paragraph.items.withUnsafeBufferPointer { items in
                while unit < range.upperBound {
                    let item = paragraph.units.item(ofUnit: unit)
                    include(items[item].metrics)
                    unit = paragraph.itemUnitEnds[item]
                }
            }
        }
        if let truncation {
            truncation.kept.forEach(includeUnits)
            include(paragraph.ellipses[truncation.styleIndex].metrics)
        } else {
            includeUnits(span.start..<span.end)
        }
        let (height, baseline) = box(ascent: ascent, descent: descent, lineGap: lineGap, top: top)
        return PlacedLine(
            span: span, truncation: truncation, cuts: cuts, width: truncation?.width ?? span.width, ascent: ascent,
            descent: descent, top: top, height: height, baseline: baseline)
    }

    /// The height and baseline of a line at `top` whose tallest runs reach these metrics.
    private func box(ascent: Double, descent: Double, lineGap: Double, top: Double) -> (height: Double, baseline: Double) {
        Self.box(ascent: ascent, descent: descent, lineGap: lineGap, top: top, style: style)
    }

    private static func box(
        ascent: Double, descent: Double, lineGap: Double, top: Double, style: ParagraphStyle
    ) -> (height: Double, baseline: Double) {
        let height = style.lineHeight(natural: ascent + descent + lineGap)
        return (height, top + height - descent - lineGap)
    }

    /// What ``stack(exactTruncation:_:)`` without exact truncation gives a paragraph in `style`
    /// whose ``ShapedParagraph/heightIgnoresWidth`` is true, at any width: its one line, in `metrics`.
    static func onlyLineHeight(metrics: ScaledFontMetrics, style: ParagraphStyle) -> TextHeight {
        let (height, baseline) = box(ascent: metrics.ascent, descent: metrics.descent, lineGap: metrics.lineGap, top: 0, style: style)
        return TextHeight(height: height, lineCount: 1, firstBaseline: baseline, lastBaseline: baseline)
    }
}

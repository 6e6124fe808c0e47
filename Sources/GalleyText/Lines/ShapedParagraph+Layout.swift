// Breaking a shaped paragraph into lines at a width: measure (sizes only) and layout (glyphs).

extension ShapedParagraph {
    /// The size and line starts of the paragraph at `width`, without positioning glyphs.
    ///
    /// - Parameter width: The available width in points; `.infinity` for no wrapping.
    /// - Complexity: O(n) in the text's graphemes. No shaping and no ICU calls, except for a
    ///   paragraph shaped only as far as its line limit shows (a style's maximum line count lets
    ///   the rest go unshaped): when `width` shows past that prefix, a longer one is shaped first.
    public func measure(width: Double) -> TextMeasurement {
        let available = sanitized(width)
        guard let lines = stackLines(at: available, exactTruncation: true) else {
            return visiblePrefix!.longer(than: self, toShow: available).measure(width: width)
        }
        return TextMeasurement(
            size: LayoutSize(width: contentWidth(widest: lines.widest, within: width), height: lines.bottom),
            lineCount: lines.count, firstBaseline: lines.firstBaseline, lastBaseline: lines.lastBaseline,
            isTruncated: lines.isTruncated, missingCharacters: missingCharacters, starts: .paragraph(self, width: available))
    }

    /// The height, line count and baselines ``measure(width:)`` gives at a finite `width`, for
    /// callers that give the text all of that width (a row's label): a truncated last line's
    /// width is then not needed, and when the ellipsis cannot change its height, not worked out.
    package func measureHeight(width: Double) -> TextHeight {
        if heightIgnoresWidth, let metrics = uniformMetrics {
            return LineStacker.onlyLineHeight(metrics: metrics, style: paragraphStyle)
        }
        let available = sanitized(width)
        guard let lines = stackLines(at: available, exactTruncation: false) else {
            return visiblePrefix!.longer(than: self, toShow: available).measureHeight(width: width)
        }
        return TextHeight(
            height: lines.bottom, lineCount: lines.count, firstBaseline: lines.firstBaseline, lastBaseline: lines.lastBaseline)
    }

    /// What a measurement reports about the lines at `available`, or nil when this is the start
    /// of a text and those lines need more of it (without `exactTruncation`, only the heights
    /// and baselines need be the whole text's). Only these numbers are kept, not the lines.
    @inline(__always)
    private func stackLines(at available: Double, exactTruncation: Bool) -> LineSummary? {
        counters.lineBreakPasses.wrappingAdd(1, ordering: .relaxed)
        var summary = LineSummary()
        let next = LineStacker(paragraph: self, width: available).stack(exactTruncation: exactTruncation) { line in
            if summary.count == 0 { summary.firstBaseline = line.baseline }
            summary.lastBaseline = line.baseline
            summary.bottom = line.top + line.height
            summary.isTruncated = line.truncation != nil
            summary.count += 1
            summary.widest = max(summary.widest, line.width)
        }
        if let visiblePrefix, !visiblePrefix.shows(nextLineUnit: next),
            exactTruncation || !visiblePrefix.givesWholeHeights(lineCount: summary.count, of: self)
        {
            return nil
        }
        return summary
    }

    /// Whether the height ``measureHeight(width:)`` gives is the same at every width: the text
    /// is limited to one line, every item has the same line box, and so has the ellipsis when
    /// one can end the line. That line is then never broken (a row's one-line labels, at each
    /// of its widths), nor the rest of a text shaped only as far as its start.
    package var heightIgnoresWidth: Bool {
        paragraphStyle.maximumLines == 1 && units.count > 0 && linesShareOneBox
    }

    /// Whether ``measureHeight(width:)`` gives one height at every width the text does not fit
    /// on one line at (see ``fitsOnOneLine(width:)``), as it does at every width it fits: a
    /// label measured at several widths is then measured once each way.
    ///
    /// True for text limited to one or two lines whose lines all have one box (the ellipsis's
    /// too, when it can end a line). Text that does not fit on one line then takes the most
    /// lines allowed at any such width, or one when it has a single unit that is not whitespace
    /// or (clipped) a single word; a height limit keeps a second line at every width or at none.
    /// Only where the first line ends can differ, and that moves the second only by the
    /// paragraph spacing when it ends at a mandatory break: so without paragraph spacing, or
    /// without mandatory breaks (in the whole text: one shaped only as far as its start may
    /// have one further on).
    package var heightDependsOnlyOnFitting: Bool {
        let style = paragraphStyle
        return (style.maximumLines == 1 || style.maximumLines == 2) && linesShareOneBox
            && (style.paragraphSpacing == 0 || (units.mandatoryBreaks.isEmpty && visiblePrefix == nil))
    }

    /// Whether every line has the same box: the items' metrics are alike, and so are the
    /// ellipsis's when one can end a line.
    var linesShareOneBox: Bool {
        uniformMetrics != nil && (truncationKeepsLineHeight || !paragraphStyle.lineBreakMode.isTruncating)
    }

    private struct LineSummary {
        var count = 0
        var widest = 0.0
        var firstBaseline = 0.0
        var lastBaseline = 0.0
        var bottom = 0.0
        var isTruncated = false
    }

    /// Whether the whole paragraph fits on one line at `width` (no mandatory break, no word
    /// reaching past it). Measuring at any two such widths gives the same line, so callers that
    /// measure one text at many widths (a row's label at each row width) can measure it once.
    ///
    /// - Complexity: O(1); for a paragraph shaped only as far as a line limit shows, whose start
    ///   fits, the rest of the text is shaped once first.
    public func fitsOnOneLine(width: Double) -> Bool {
        guard let extent = units.unbrokenExtent else { return false }
        guard extent <= sanitized(width) + LineBreaker.tolerance else { return false }
        // A start that fits may be followed by text that does not.
        guard let visiblePrefix else { return true }
        return visiblePrefix.longer(than: self, toShow: sanitized(width)).fitsOnOneLine(width: width)
    }

    /// The width where ``fitsOnOneLine(width:)`` turns true: below it the text does not fit,
    /// above it (when `holdsAbove`) it does, give or take the rounding of the width itself.
    /// Infinite for text that fits at no width. A paragraph shaped only as far as a line limit
    /// shows cannot say above (the rest of its text may not fit): `holdsAbove` is then false.
    package var oneLineThreshold: (width: Double, holdsAbove: Bool) {
        guard let extent = units.unbrokenExtent else { return (.infinity, true) }
        return (extent - LineBreaker.tolerance, visiblePrefix == nil)
    }

    /// UTF-16 offsets where each line after the first starts at `width`.
    func lineStartsUTF16(width: Double) -> [Int] {
        var starts: [Int] = []
        var isFirst = true
        LineStacker(paragraph: self, width: width).stack { line in
            if !isFirst { starts.append(units.start(ofUnit: line.span.start)) }
            isFirst = false
        }
        return starts
    }

    /// The paragraph laid out at `width`: lines, positioned glyph runs and size.
    ///
    /// - Parameter width: The available width in points; `.infinity` for no wrapping.
    /// - Complexity: O(n) in the text's glyphs. As ``measure(width:)``, no shaping and no ICU
    ///   calls unless a line-limited paragraph's prefix must grow to show `width`'s lines.
    public func layout(width: Double) -> TextLayout {
        counters.lineBreakPasses.wrappingAdd(1, ordering: .relaxed)
        let (placed, next) = LineStacker(paragraph: self, width: sanitized(width)).lines()
        if let visiblePrefix, !visiblePrefix.shows(nextLineUnit: next) {
            return visiblePrefix.longer(than: self, toShow: sanitized(width)).layout(width: width)
        }
        // Line starts and ends, interleaved: ascending, since each line ends where the next starts.
        // (Gathered in one loop with the widest line: mapping would make an array per line.)
        var bounds: [Int] = []
        bounds.reserveCapacity(2 * placed.count)
        var widest: Double?
        for line in placed {
            bounds.append(units.start(ofUnit: line.span.start))
            bounds.append(line.truncation != nil ? utf16Count : units.start(ofUnit: line.span.end))
            widest = max(widest ?? line.width, line.width)
        }
        let contentWidth = contentWidth(widest: widest ?? 0, within: width)
        let containerWidth = width.isFinite ? width : contentWidth
        let builder = GlyphRunBuilder(paragraph: self, containerWidth: containerWidth)
        var lines: [TextLine] = []
        lines.reserveCapacity(placed.count)
        var runs: [GlyphRun] = []
        let scalarBounds = scalarOffsets(ofUTF16Offsets: bounds)
        for (index, line) in placed.enumerated() {
            let x = builder.appendRuns(for: line, lineIndex: index, to: &runs)
            lines.append(
                TextLine(
                    utf16Range: bounds[2 * index]..<bounds[2 * index + 1],
                    scalarRange: scalarBounds[2 * index]..<scalarBounds[2 * index + 1],
                    width: line.width, x: x, ascent: line.ascent, descent: line.descent, top: line.top,
                    height: line.height, baseline: line.baseline, isTruncated: line.truncation != nil,
                    endsParagraph: line.span.endsParagraph, baseLevel: baseLevel(at: bounds[2 * index])))
        }
        return TextLayout(
            lines: lines, glyphRuns: runs,
            size: LayoutSize(width: contentWidth, height: placed.last.map { $0.top + $0.height } ?? 0),
            missingCharacters: missingCharacters)
    }

    // MARK: - Private helpers

    private func sanitized(_ width: Double) -> Double { width.isNaN ? 0 : max(width, 0) }

    /// The width of the widest line; clipped lines count no wider than the width.
    private func contentWidth(widest: Double, within width: Double) -> Double {
        paragraphStyle.lineBreakMode == .clip ? min(widest, max(width, 0)) : widest
    }

    /// Scalar offsets of ascending UTF-16 offsets (a surrogate pair is one scalar). Past the end
    /// of a visible prefix, whose text has no surrogates, each unit is a scalar.
    func scalarOffsets(ofUTF16Offsets offsets: [Int]) -> [Int] {
        Self.scalarOffsets(ofUTF16Offsets: offsets, in: utf16)
    }

    /// Scalar offsets of ascending UTF-16 offsets of `utf16`; past its end each unit is a scalar.
    static func scalarOffsets(ofUTF16Offsets offsets: [Int], in utf16: [UInt16]) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(offsets.count)
        var scalars = 0
        var position = 0
        for offset in offsets {
            while position < min(offset, utf16.count) {
                let unit = utf16[position]
                let isTrailingHalf = unit & 0xFC00 == 0xDC00 && position > 0 && utf16[position - 1] & 0xFC00 == 0xD800
                if !isTrailingHalf { scalars += 1 }
                position += 1
            }
            if offset > position {
                scalars += offset - position
                position = offset
            }
            result.append(scalars)
        }
        return result
    }
}

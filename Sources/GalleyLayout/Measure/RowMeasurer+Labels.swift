// The measure pass for labels: each label's text shaped once a row, measured at each width.

import GalleyText

extension RowMeasurer {
    /// Measures node `id`, label `index` (see ``CompiledLabel/index``): its compiled label is
    /// read only to shape its text, once a row.
    mutating func measureLabel(_ id: Int, _ index: Int, width: Double) throws(LayoutError) -> MeasuredNode {
        let available = width.isNaN ? 0 : max(width, 0)
        let paragraph: ShapedParagraph
        if let cached = labels[index].shaped {
            paragraph = cached
        } else {
            let shapedText: ShapedParagraph?
            switch try text(ofLabel: template.labels[index], node: id, showing: available) {
            case .shaped(let shaped): shapedText = shaped
            case .oneLine(let line):
                // The same line at every width (see `TextEngine.oneLineHeight(of:prepared:)`).
                if firstText.map({ id < $0.nodeID }) ?? true { firstText = (id, false) }
                lastSpan = .within(0, .infinity, form: .offer)
                return MeasuredNode(
                    id: id, size: LayoutSize(width: available, height: pixelCeil(line.height)), firstBaseline: line.firstBaseline,
                    lastBaseline: line.lastBaseline, text: MeasuredText(offeredWidth: available, lineCount: line.lineCount))
            case nil: shapedText = nil
            }
            guard let shapedText else {
                lastSpan = .all
                return .collapsed(id)
            }
            paragraph = shapedText
            labels[index].shaped = paragraph
            if firstText.map({ id < $0.nodeID }) ?? true { firstText = (id, paragraph.isRightToLeft) }
        }
        // Only sizes here: the glyphs of the labels that end up in the row are laid out once
        // the row is measured (see `layOutText`), not those of every width a label was offered.
        // Text that fits one line at this width has the same line at every such width: a label
        // measured once that way (often at its natural width) answers the row's other widths.
        // So does one measured where it does not fit, when its height cannot depend on more
        // than that (see `heightDependsOnlyOnFitting`: most two-line previews).
        let fitsOneLine = paragraph.fitsOnOneLine(width: available)
        if available.isFinite, let line = fitsOneLine ? labels[index].oneLine : labels[index].wrapped {
            lastSpan = Self.span(of: paragraph, fitting: fitsOneLine)
            return MeasuredNode(
                id: id, size: LayoutSize(width: available, height: line.height), firstBaseline: line.firstBaseline,
                lastBaseline: line.lastBaseline, text: MeasuredText(offeredWidth: available, lineCount: line.lineCount))
        }
        // A label fills the width it is offered, as a cell's text label fills its content area
        // (so only the text's height is needed); offered unlimited width, it is as wide as its
        // text. Heights round up to pixels, as UIKit's sizeThatFits does.
        let lines: TextHeight
        let labelWidth: Double
        if available.isFinite {
            lines = paragraph.measureHeight(width: available)
            labelWidth = available
        } else {
            let measurement = paragraph.measure(width: available)
            lines = TextHeight(
                height: measurement.size.height, lineCount: measurement.lineCount,
                firstBaseline: measurement.firstBaseline, lastBaseline: measurement.lastBaseline)
            labelWidth = pixelCeil(measurement.size.width)
        }
        let size = LayoutSize(width: labelWidth, height: pixelCeil(lines.height))
        let kept = LabelLines(
            height: size.height, firstBaseline: lines.firstBaseline, lastBaseline: lines.lastBaseline, lineCount: lines.lineCount)
        if fitsOneLine {
            labels[index].oneLine = kept
        } else if available.isFinite && paragraph.heightDependsOnlyOnFitting {
            labels[index].wrapped = kept
        }
        // Every finite offer that fits (or not) as this one does measures the same way.
        lastSpan =
            available.isFinite && (fitsOneLine || paragraph.heightDependsOnlyOnFitting)
            ? Self.span(of: paragraph, fitting: fitsOneLine) : .none
        return MeasuredNode(
            id: id, size: size, firstBaseline: lines.firstBaseline, lastBaseline: lines.lastBaseline,
            text: MeasuredText(offeredWidth: available, lineCount: lines.lineCount))
    }

    /// The offers at which a label of `paragraph` fits on one line (or not, as `fits` says):
    /// where the memo of ``LabelState`` answers it, filling the offer. Every offer, for a
    /// paragraph whose height ignores the width (one line, one line box, ellipsis or not).
    static func span(of paragraph: ShapedParagraph, fitting fits: Bool) -> WidthSpan {
        if paragraph.heightIgnoresWidth { return .within(0, .infinity, form: .offer) }
        let threshold = paragraph.oneLineThreshold
        guard fits else { return .within(0, threshold.width, form: .offer) }
        return threshold.holdsAbove ? .within(threshold.width, .infinity, form: .offer) : .none
    }

    /// What a label's text gives its measurement: the text shaped, or the height of its one line.
    enum LabelText {
        case shaped(ShapedParagraph)
        case oneLine(TextHeight)
    }

    /// The label's text shaped for lines of `width` first (see
    /// ``TextEngine/shape(_:paragraph:showing:heightsOnly:)``), or nil when it is empty (the
    /// label collapses). A measurer that keeps no children reads only the text's heights, and
    /// those of a label limited to one line may come without shaping (see
    /// ``TextEngine/oneLineHeight(of:prepared:)``) when it is offered a finite width.
    func text(ofLabel label: CompiledLabel, node: Int, showing width: Double) throws(LayoutError) -> LabelText? {
        let engine = environment.textEngine
        let heightsOnly = !keepsChildren
        let text: AttributedText
        switch label.content {
        case .runs(let runs):
            text = try item.attributedText(runs: runs, node: node, of: template)
        case .styledField(let field):
            text = try item.attributedText(styledField: field, label: label, node: node, of: template)
        case .field, .literal, .format:
            // One string in the label's style: a cache hit builds no attributed text (and, in
            // no particular language, no paragraph style either).
            guard let string = try item.string(for: label.content, node: node, of: template) else { return nil }
            do {
                guard environment.language != nil else {
                    if heightsOnly && width.isFinite, let line = engine.oneLineHeight(of: string, prepared: label.prepared) {
                        return .oneLine(line)
                    }
                    return .shaped(try engine.shape(string, prepared: label.prepared, showing: width, heightsOnly: heightsOnly))
                }
                return .shaped(
                    try engine.shape(
                        string, style: label.style.style, paragraph: paragraphStyle(of: label), showing: width, heightsOnly: heightsOnly))
            } catch { throw .text(error) }
        }
        guard !text.string.isEmpty else { return nil }
        do {
            return .shaped(try engine.shape(text, paragraph: paragraphStyle(of: label), showing: width, heightsOnly: heightsOnly))
        } catch { throw .text(error) }
    }

    /// The label's paragraph style in the row's language.
    func paragraphStyle(of label: CompiledLabel) -> ParagraphStyle {
        var style = label.paragraph
        style.language = environment.language
        return style
    }
}

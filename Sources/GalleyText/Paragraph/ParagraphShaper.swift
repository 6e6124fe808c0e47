// Turns attributed text into a ShapedParagraph: the whole text or a visible start, by the plain
// or the general builder.

/// Builds ``ShapedParagraph`` values for a ``TextEngine``.
///
/// A class, made once per engine: a start of a text keeps its shaper (see ``VisiblePrefix``),
/// and as a struct of five references it would be five retains and releases for every start.
final class ParagraphShaper: Sendable {
    let fonts: FontCollection
    let shaper: HarfBuzzShaper
    let cache: ShapeCache?
    let iterators: BreakIteratorPool
    let counters: CounterStore
    let limits: TextLimits
    /// Whether plain text goes to ``PlainParagraphBuilder`` (the tests turn it off to compare
    /// the two builders).
    let usesPlainBuilder: Bool

    init(
        fonts: FontCollection, shaper: HarfBuzzShaper, cache: ShapeCache?, iterators: BreakIteratorPool,
        counters: CounterStore, limits: TextLimits = TextLimits(), usesPlainBuilder: Bool = true
    ) {
        self.limits = limits
        self.fonts = fonts
        self.shaper = shaper
        self.cache = cache
        self.iterators = iterators
        self.counters = counters
        self.usesPlainBuilder = usesPlainBuilder
    }

    /// `text` shaped whole, or, when `width` is given and the paragraph style limits lines, only
    /// the start of it that lines of that width can show (see ``VisiblePrefix``). `utf16`: the
    /// text's UTF-16 units, when the caller has them.
    ///
    /// A caller that reads only heights (`heightsOnly`) gets a start a line shorter: the last
    /// line allowed need only begin in it (see ``VisiblePrefix/givesWholeHeights(lineCount:of:)``),
    /// which for a two-line preview halves the text shaped. Its lines themselves, when asked
    /// for, take a longer start.
    func shape(
        _ text: AttributedText, utf16: consuming [UInt16]? = nil, paragraph: ParagraphStyle, showing width: Double? = nil,
        heightsOnly: Bool = false
    ) throws(TextError) -> ShapedParagraph {
        if let problem = limits.problem(with: text) { throw problem }
        if let problem = paragraph.problem { throw .invalidStyle(problem) }
        // The styles read in place: a copy of each run would retain its strings.
        for index in text.runs.indices {
            if let problem = text.runs[index].style.problem { throw .invalidStyle(problem) }
            // Interned here, where too many can be an error: items and ellipses find them later.
            if !text.runs[index].style.features.isEmpty || text.runs[index].style.letterSpacing != 0 {
                try internFeatures(of: text.runs[index].style)
            }
        }
        var startLength: Int?
        if let width, paragraph.maximumLines > 0, let size = text.runs.lazy.map(\.style.size).min() {
            let lines = heightsOnly ? max(paragraph.maximumLines - 1, 1) : paragraph.maximumLines
            startLength = VisiblePrefix.length(toShow: width, lines: lines, advance: VisiblePrefix.smallAdvance(size: size))
        }
        return try shapeValidated(
            text, utf16: consume utf16, paragraph: paragraph, startLength: startLength, keepingSegments: !heightsOnly)
    }

    /// Interns `style`'s feature sets (see ``HarfBuzzShaper/featureSetID(_:)``).
    ///
    /// - Throws: ``TextError/invalidStyle(_:)`` when the engine has all the sets it takes.
    private func internFeatures(of style: TextStyle) throws(TextError) {
        guard shaper.featureSetID(style.shapingFeatures) != nil, shaper.featureSetID(style.features) != nil else {
            throw .invalidStyle("more than \(HarfBuzzShaper.maximumFeatureSets) distinct sets of OpenType features in one engine")
        }
    }

    /// `text` shaped whole, or a start of it at least `startLength` units long when one can
    /// stand for the whole, in what a shorter start of it resolved (its locale, its language
    /// and its runs' fallback chains), so that no lookup of a font or a language can fail.
    func shape(_ text: AttributedText, paragraph: ParagraphStyle, startLength: Int, resolved: Resolved) -> ShapedParagraph {
        do {
            return try shapeResolved(
                text, utf16: text.string.utf16Units, paragraph: paragraph, startLength: startLength, keepingSegments: true, resolved: resolved)
        } catch {
            // Only ICU can fail here, opening an iterator for a locale it opened one for before:
            // that is memory running out, which Swift stops the process for anyway.
            preconditionFailure("reshaping text that shaped before failed: \(error)")
        }
    }

    /// What shaping a text resolved from its styles: its language, and each run's fallback chain.
    struct Resolved: Sendable {
        var language: TextLanguage
        var chains: [FallbackChain]
    }

    /// `text`, its styles valid, shaped whole or from the start (see ``VisiblePrefix/cut(_:atLeast:paragraph:chains:)``).
    /// Without `keepingSegments`, plain text's items are built without their segments (see
    /// ``ShapedParagraph/segments(ofItem:)``).
    private func shapeValidated(
        _ text: AttributedText, utf16: consuming [UInt16]?, paragraph: ParagraphStyle, startLength: Int?,
        keepingSegments: Bool
    ) throws(TextError) -> ShapedParagraph {
        let language = try TextLanguage.resolve(paragraph.language)
        // The styles read from the runs where needed: an array of them would copy every style.
        var chains: [FallbackChain] = []
        chains.reserveCapacity(text.runs.count)
        do {
            for run in text.runs {
                chains.append(try fonts.fallbackChain(for: run.style.font, fallbacks: run.style.fallbacks, language: language.tag))
            }
        } catch { throw .font(error) }
        // Taken over rather than copied: a start cut short in place must be its only holder.
        return try shapeResolved(
            text, utf16: (consume utf16) ?? text.string.utf16Units, paragraph: paragraph, startLength: startLength,
            keepingSegments: keepingSegments, resolved: Resolved(language: language, chains: chains))
    }

    /// ``shapeValidated(_:utf16:paragraph:startLength:keepingSegments:)`` with its locale,
    /// language and chains resolved.
    private func shapeResolved(
        _ text: AttributedText, utf16: consuming [UInt16], paragraph: ParagraphStyle, startLength: Int?,
        keepingSegments: Bool, resolved: Resolved
    ) throws(TextError) -> ShapedParagraph {
        var utf16 = consume utf16
        let (language, chains) = (resolved.language, resolved.chains)
        let found = startLength.flatMap { length in
            utf16.withUnsafeBufferPointer { VisiblePrefix.cut($0, atLeast: length, paragraph: paragraph, chains: chains) }
        }
        guard let (cut, restBelowEmoji) = found else {
            return try shape(
                utf16, isCut: false, styleRuns: text.runs, chains: chains, paragraph: paragraph,
                language: language, knownLeftToRight: false, keepingSegments: keepingSegments,
                visiblePrefix: { _ in nil })
        }
        let restBox = restBelowEmoji ? Self.lineBox(of: text.runs, from: cut, chains: chains) : nil
        // The start is the units' array cut short when it keeps most of it (no copy; the rest of
        // its room stays with the paragraph), else a copy (a long text's room would).
        let wholeLength = utf16.count
        if 2 * cut >= wholeLength {
            utf16.removeSubrange(cut...)
        } else {
            utf16 = Array(utf16[..<cut])
        }
        // A cut text is left to right throughout (see `VisiblePrefix`), and so is its start.
        return try shape(
            utf16, isCut: true, styleRuns: text.runs, chains: chains, paragraph: paragraph,
            language: language, knownLeftToRight: true, keepingSegments: keepingSegments
        ) { units in
            VisiblePrefix(
                text: text, paragraph: paragraph, shaper: self, resolved: resolved, wholeLength: wholeLength,
                lastWordUnit: units.words.last?.start ?? 0, restBox: restBox)
        }
    }

    /// The metrics of the line box that text in `runs` from unit `start` on is set in, when it
    /// is one, for a start whose rest has no unit that asks for emoji presentation. Past a
    /// start's cut every character is one its run's primary face has (see ``VisiblePrefix``),
    /// and so takes that face unless it asks for emoji (from U+231A on: the colour face is tried
    /// first), so the runs there that share a size and primary face's box share it.
    private static func lineBox(of runs: [AttributedText.Run], from start: Int, chains: [FallbackChain]) -> ScaledFontMetrics? {
        var box: ScaledFontMetrics?
        for (index, run) in runs.enumerated() where run.range.upperBound > start {
            let metrics = chains[index].primary.metrics.scaled(to: run.style.size)
            if let box, !box.hasSameLineBox(as: metrics) { return nil }
            box = metrics
        }
        return box
    }

    /// `utf16`, the text in `styleRuns` or (`isCut`) a start of it, shaped. The items' style
    /// indices name the runs (and `chains` follow them). `visiblePrefix` says, given the break units,
    /// what it is the start of. `knownLeftToRight`: every bidi level is known to be 0 (see
    /// ``TextAnalysis/analyze``).
    private func shape(
        _ utf16: [UInt16], isCut: Bool, styleRuns: [AttributedText.Run], chains: [FallbackChain],
        paragraph: ParagraphStyle, language: TextLanguage, knownLeftToRight: Bool, keepingSegments: Bool,
        visiblePrefix: (BreakUnits) -> VisiblePrefix?
    ) throws(TextError) -> ShapedParagraph {
        let baseLineHeight =
            styleRuns.first.map { run in
                paragraph.lineHeight(natural: chains[0].primary.metrics.scaled(to: run.style.size).lineHeight)
            } ?? 0
        let locale = language.breakLocale
        let segmentShaper = SegmentShaper(shaper: shaper, cache: cache, language: language.harfBuzz)
        var paragraphLevels = TextAnalysis.leftToRight
        let plain =
            usesPlainBuilder && styleRuns.count == 1 && paragraph.lineBreakMode != .charWrap
                && paragraph.direction != .rightToLeft && SimpleLineBreaks.applies(toLocale: locale)
            ? utf16.withUnsafeBufferPointer { buffer in
                PlainParagraphBuilder.build(
                    buffer, style: styleRuns[0].style, chain: chains[0], segmentShaper: segmentShaper,
                    keepingSegments: keepingSegments)
            }
            : nil
        let parts: ParagraphParts
        if let plain {
            parts = plain
        } else {
            let analysis = try utf16.withUnsafeBufferPointer { buffer throws(TextError) in
                try TextAnalysis.analyze(
                    buffer, locale: locale, lineBreakMode: paragraph.lineBreakMode, direction: paragraph.direction,
                    knownLeftToRight: knownLeftToRight, iterators: iterators)
            }
            paragraphLevels = analysis.paragraphLevels
            var builder = ParagraphBuilder(
                utf16: utf16, analysis: analysis, styles: styleRuns.map(\.style), chains: chains, segmentShaper: segmentShaper)
            // A start's runs end where it does (made here: the plain builder needs none).
            var runs = styleRuns
            if isCut {
                runs = styleRuns.filter { $0.range.lowerBound < utf16.count }.map { run in
                    AttributedText.Run(range: run.range.clamped(to: 0..<utf16.count), style: run.style)
                }
            }
            parts = utf16.withUnsafeBufferPointer { buffer in builder.build(buffer, runs: runs) }
        }
        let ellipses =
            paragraph.lineBreakMode.isTruncating
            ? styleRuns.indices.map { segmentShaper.ellipsis(style: styleRuns[$0].style, chain: chains[$0]) } : []
        return ShapedParagraph(
            paragraphStyle: paragraph, missingCharacters: parts.missing, baseLineHeight: baseLineHeight,
            utf16: utf16, paragraphLevels: paragraphLevels, items: parts.items, itemUnitEnds: parts.itemUnitEnds,
            units: parts.units, ellipses: ellipses, segmentShaper: segmentShaper, counters: counters,
            visiblePrefix: visiblePrefix(parts.units), defersSegments: plain != nil && !keepingSegments)
    }
}

/// What a builder makes of a paragraph's text: its items, its break units, and the characters
/// no face of the fallback chain has.
struct ParagraphParts {
    var items: [ShapedItem]
    /// Per item: the index of the first unit after it.
    var itemUnitEnds: [Int]
    var units: BreakUnits
    var missing: [Unicode.Scalar]
}

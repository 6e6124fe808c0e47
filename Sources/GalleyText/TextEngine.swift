// The text engine: the long-lived context that measures and lays out text.

import GalleyLocks

/// Measures and lays out text with HarfBuzz, FreeType and ICU.
///
/// An engine owns the expensive, reusable state: the font collection, the shape cache, pooled
/// ICU break iterators and HarfBuzz buffers. Make one per process (or per font configuration)
/// and share it: every method is safe to call from many threads at once, and gives the same
/// result as a serial call.
///
///     let engine = try TextEngine()
///     let body = TextStyle(font: .family("Noto Sans"), size: 15)
///     let size = try engine.measure("Hello, world", style: body, width: 320).size
///
/// Shaped paragraphs are cached by their text and styles, so measuring the same text again,
/// at any width, only breaks lines. Measuring is two steps, which callers can also take apart: ``shape(_:paragraph:)`` analyses
/// and shapes the text (the costly part, mostly served from the shape cache), then
/// ``ShapedParagraph/measure(width:)`` or ``ShapedParagraph/layout(width:)`` breaks it into lines.
public final class TextEngine: Sendable {
    /// The fonts text is shaped with.
    public let fonts: FontCollection
    /// How much text one call may measure.
    public let limits: TextLimits
    private let shapeCache: ShapeCache?
    private let paragraphCache: BoundedCache<ParagraphKey, ShapedParagraph>?
    private let counterStore: CounterStore
    let paragraphShaper: ParagraphShaper
    /// The fallback chains of prepared styles measured lately (see ``oneLineHeight(of:prepared:)``).
    let preparedChains = Locked(PreparedChains())

    /// The shape cache's memory bound when none is given: 32 MiB.
    public static let defaultShapeCacheByteLimit = 32 << 20
    /// The paragraph cache's memory bound when none is given: 16 MiB.
    public static let defaultParagraphCacheByteLimit = 16 << 20

    /// Which shaped paragraphs the paragraph cache keeps.
    public enum ParagraphAdmission: Sendable, Hashable {
        /// Every one: measuring a text a second time is nearly free. For measuring the same
        /// texts again and again (a table re-measuring rows as they scroll back, a renderer
        /// laying text out again on resize).
        case every
        /// Those whose text and styles come back: a text is kept from its second shaping on,
        /// when its first is still remembered (the cache remembers about as many texts it did
        /// not keep as it holds paragraphs of a sentence or two). For a batch that sees most
        /// texts once: a paragraph of a text that never recurs is freed as soon as its row is
        /// done, where kept it would hold memory for nothing and push out what does recur (names,
        /// captions, timestamps). `galley` runs its engines this way.
        case recurring
    }

    /// An engine over `fonts`.
    ///
    /// - Parameters:
    ///   - fonts: The font collection.
    ///   - shapeCacheByteLimit: Memory bound of the word-level shape cache in bytes; 0 disables it.
    ///   - paragraphCacheByteLimit: Memory bound of the paragraph cache (shaped paragraphs by text
    ///     and styles, which makes measuring the same text again nearly free); 0 disables it.
    ///   - paragraphAdmission: Which paragraphs that cache keeps (every one when not given).
    ///   - limits: How long a text, with how many runs, one call may measure.
    public init(
        fonts: FontCollection, shapeCacheByteLimit: Int = defaultShapeCacheByteLimit,
        paragraphCacheByteLimit: Int = defaultParagraphCacheByteLimit, paragraphAdmission: ParagraphAdmission = .every,
        limits: TextLimits = TextLimits()
    ) {
        self.limits = limits
        self.fonts = fonts
        let shapeCache = shapeCacheByteLimit > 0 ? ShapeCache(byteLimit: shapeCacheByteLimit) : nil
        self.shapeCache = shapeCache
        let counterStore = CounterStore()
        self.counterStore = counterStore
        paragraphShaper = ParagraphShaper(
            fonts: fonts, shaper: HarfBuzzShaper(), cache: shapeCache, iterators: BreakIteratorPool(), counters: counterStore,
            limits: limits)
        paragraphCache =
            paragraphCacheByteLimit > 0
            ? BoundedCache(byteLimit: paragraphCacheByteLimit, admitsOnlyRecurring: paragraphAdmission == .recurring) : nil
    }

    /// An engine over the bundled fonts; see ``init(fonts:shapeCacheByteLimit:paragraphCacheByteLimit:paragraphAdmission:limits:)``.
    ///
    /// - Throws: ``FontError`` if the bundled fonts cannot be found.
    public convenience init(
        shapeCacheByteLimit: Int = defaultShapeCacheByteLimit, paragraphCacheByteLimit: Int = defaultParagraphCacheByteLimit
    ) throws(FontError) {
        self.init(fonts: try FontCollection.bundled(), shapeCacheByteLimit: shapeCacheByteLimit, paragraphCacheByteLimit: paragraphCacheByteLimit)
    }

    // MARK: - Measuring

    /// Analyses and shapes `text`, ready to be broken into lines at any width.
    ///
    /// - Throws: ``TextError`` for an unknown font, an invalid style or language.
    public func shape(_ text: AttributedText, paragraph: ParagraphStyle = ParagraphStyle()) throws(TextError) -> ShapedParagraph {
        try shape(text.string, styles: .runs(text.runs), paragraph: paragraph, showing: nil) { (text, nil) }
    }

    /// Analyses and shapes a string in one style; see ``shape(_:paragraph:)``. A cache hit
    /// builds neither attributed text nor a key.
    ///
    /// - Throws: ``TextError`` for an unknown font, an invalid style or language.
    public func shape(_ string: String, style: TextStyle, paragraph: ParagraphStyle = ParagraphStyle()) throws(TextError) -> ShapedParagraph {
        try shape(string, styles: .single(style), paragraph: paragraph, showing: nil) { Self.text(string, style: style) }
    }

    /// ``shape(_:paragraph:)`` for text about to be broken at `width` (the widest first, when
    /// there are several): with a line limit, a long text may be shaped only as far as lines of
    /// that width show it. The paragraph answers every width as the whole text would.
    ///
    /// - Parameter heightsOnly: Whether the caller reads only heights and baselines
    ///   (``ShapedParagraph/measureHeight(width:)``): the start shaped can then stop a line
    ///   sooner (see ``ParagraphShaper/shape(_:utf16:paragraph:showing:heightsOnly:)``).
    package func shape(
        _ text: AttributedText, paragraph: ParagraphStyle, showing width: Double, heightsOnly: Bool = false
    ) throws(TextError) -> ShapedParagraph {
        try shape(text.string, styles: .runs(text.runs), paragraph: paragraph, showing: width, heightsOnly: heightsOnly) { (text, nil) }
    }

    /// ``shape(_:style:paragraph:)`` for text about to be broken at `width`; see ``shape(_:paragraph:showing:heightsOnly:)``.
    package func shape(
        _ string: String, style: TextStyle, paragraph: ParagraphStyle, showing width: Double, heightsOnly: Bool = false
    ) throws(TextError) -> ShapedParagraph {
        try shape(string, styles: .single(style), paragraph: paragraph, showing: width, heightsOnly: heightsOnly) {
            Self.text(string, style: style)
        }
    }

    /// ``shape(_:style:paragraph:showing:heightsOnly:)`` for a string in styles prepared for
    /// many strings: the paragraph cache's lookup hashes and compares the string alone.
    package func shape(
        _ string: String, prepared: PreparedTextStyle, showing width: Double, heightsOnly: Bool = false
    ) throws(TextError) -> ShapedParagraph {
        try shape(
            string, hash: ParagraphKey.hash(string: string, resuming: prepared.stateBeforeText),
            matching: { $0.matches(string: string, prepared: prepared) },
            key: { ParagraphKey(string: string, prepared: prepared, hash: $0) },
            paragraph: prepared.paragraph, showing: width, heightsOnly: heightsOnly,
            make: { Self.text(string, style: prepared.style) })
    }

    /// The paragraph cache's entry for `string` in `styles`, or the text `make` gives (with its
    /// UTF-16 units when it has them), shaped and cached.
    private func shape(
        _ string: String, styles: ParagraphKey.Styles, paragraph: ParagraphStyle, showing width: Double?,
        heightsOnly: Bool = false, make: () -> (AttributedText, utf16: [UInt16]?)
    ) throws(TextError) -> ShapedParagraph {
        try shape(
            string, hash: ParagraphKey.hash(string: string, styles: styles, paragraph: paragraph),
            matching: { $0.matches(string: string, styles: styles, paragraph: paragraph) },
            key: { ParagraphKey(string: string, styles: styles, paragraph: paragraph, hash: $0) },
            paragraph: paragraph, showing: width, heightsOnly: heightsOnly, make: make)
    }

    /// The paragraph cache's entry whose key has `hash` and is `matching`, or the text `make`
    /// gives shaped, counted and cached under `key(hash)`. A cache hit needs no key built: the
    /// stored keys are compared with the text as it is.
    private func shape(
        _ string: String, hash: Int, matching: @Sendable (ParagraphKey) -> Bool, key: (Int) -> ParagraphKey,
        paragraph: ParagraphStyle, showing width: Double?, heightsOnly: Bool,
        make: () -> (AttributedText, utf16: [UInt16]?)
    ) throws(TextError) -> ShapedParagraph {
        if let cached = paragraphCache?.value(hash: hash, where: matching) { return cached }
        counterStore.paragraphsShaped.wrappingAdd(1, ordering: .relaxed)
        let (text, utf16) = make()
        let shaped = try paragraphShaper.shape(text, utf16: consume utf16, paragraph: paragraph, showing: width, heightsOnly: heightsOnly)
        paragraphCache?.insert(shaped, for: key(hash), bytes: shaped.byteCount + string.utf8.count)
        return shaped
    }

    /// `string` in `style` and its UTF-16 units, transcoded once: they give its length too.
    private static func text(_ string: String, style: TextStyle) -> (AttributedText, utf16: [UInt16]?) {
        let utf16 = string.utf16Units
        return (AttributedText(string, style: style, utf16Count: utf16.count), utf16)
    }

    /// The size of `text` at `width`, with its line count and line starts; cheaper than
    /// ``layout(_:width:paragraph:)`` because no glyph is positioned.
    ///
    /// - Parameters:
    ///   - text: The text, in runs of styles.
    ///   - width: Available width in points (`.infinity` for no wrapping).
    ///   - paragraph: Alignment, line breaking, line limit and spacing.
    /// - Throws: ``TextError`` for a width outside ``ValueRanges/length``, an unknown font, an
    ///   invalid style, or a size beyond ``ValueRanges/largestResult``.
    public func measure(_ text: AttributedText, width: Double, paragraph: ParagraphStyle = ParagraphStyle()) throws(TextError) -> TextMeasurement {
        try measureWithLineHeight(text, width: width, paragraph: paragraph).measurement
    }

    /// ``measure(_:width:paragraph:)``, and the first font's line height under the paragraph
    /// style (what `galley measure` reports as `lineHeight`).
    ///
    /// A long text with no line or height limit, left to right, is measured a window at a time
    /// (see ``WindowedMeasurement``): its memory is then its UTF-16 and a window's, not a whole
    /// paragraph's; it is not kept in the paragraph cache.
    package func measureWithLineHeight(
        _ text: AttributedText, width: Double, paragraph: ParagraphStyle
    ) throws(TextError) -> (measurement: TextMeasurement, baseLineHeight: Double) {
        try Self.validate(width)
        let length = text.runs.last?.range.upperBound ?? 0
        if length >= WindowedMeasurement.threshold && paragraph.maximumLines == 0 && paragraph.maximumHeight == nil {
            if let problem = limits.problem(with: text) { throw problem }
            if let windowed = try WindowedMeasurement.measure(
                text, utf16: text.string.utf16Units, paragraph: paragraph, width: width, shaper: paragraphShaper)
            {
                return (try Self.checked(windowed.measurement), windowed.baseLineHeight)
            }
        }
        let shaped = try shape(text, paragraph: paragraph, showing: width)
        return (try Self.checked(shaped.measure(width: width)), shaped.baseLineHeight)
    }

    /// `text` laid out at `width`: lines, glyph runs for renderers, and size.
    ///
    /// - Throws: as ``measure(_:width:paragraph:)`` does.
    public func layout(_ text: AttributedText, width: Double, paragraph: ParagraphStyle = ParagraphStyle()) throws(TextError) -> TextLayout {
        try Self.validate(width)
        return try Self.checked(shape(text, paragraph: paragraph, showing: width).layout(width: width))
    }

    /// Measures a string in one style; see ``measure(_:width:paragraph:)``.
    public func measure(_ string: String, style: TextStyle, width: Double, paragraph: ParagraphStyle = ParagraphStyle()) throws(TextError) -> TextMeasurement {
        // A string of a million UTF-8 bytes or more may be long enough to measure in windows.
        if string.utf8.count >= WindowedMeasurement.threshold {
            return try measure(AttributedText(string, style: style), width: width, paragraph: paragraph)
        }
        try Self.validate(width)
        return try Self.checked(shape(string, style: style, paragraph: paragraph, showing: width).measure(width: width))
    }

    /// Lays out a string in one style; see ``layout(_:width:paragraph:)``.
    public func layout(_ string: String, style: TextStyle, width: Double, paragraph: ParagraphStyle = ParagraphStyle()) throws(TextError) -> TextLayout {
        try Self.validate(width)
        return try Self.checked(shape(string, style: style, paragraph: paragraph, showing: width).layout(width: width))
    }

    /// The engine's shaper and iterators, for the tests of their tables' bounds.
    var shaper: HarfBuzzShaper { paragraphShaper.shaper }
    var iterators: BreakIteratorPool { paragraphShaper.iterators }

    // MARK: - Cache

    /// The shape cache's counters (all zero when the cache is disabled).
    public var shapeCacheStatistics: CacheStatistics { shapeCache?.statistics ?? .zero }

    /// The paragraph cache's counters (all zero when the cache is disabled).
    public var paragraphCacheStatistics: CacheStatistics { paragraphCache?.statistics ?? .zero }

    /// How many paragraphs this engine has shaped and broken into lines so far.
    public var counters: TextEngineCounters { counterStore.snapshot }

    /// Empties the shape and paragraph caches, for memory pressure.
    public func removeCachedShapes() {
        shapeCache?.removeAll()
        paragraphCache?.removeAll()
    }

    /// `measurement`, when its size is within ``ValueRanges/largestResult``.
    private static func checked(_ measurement: TextMeasurement) throws(TextError) -> TextMeasurement {
        try checkSize(measurement.size)
        return measurement
    }

    /// `layout`, when its size is within ``ValueRanges/largestResult``.
    private static func checked(_ layout: TextLayout) throws(TextError) -> TextLayout {
        try checkSize(layout.size)
        return layout
    }

    private static func checkSize(_ size: LayoutSize) throws(TextError) {
        // Written this way round so that NaN fails too.
        guard size.width <= ValueRanges.largestResult && size.height <= ValueRanges.largestResult else { throw .resultTooLarge(size) }
    }

    private static func validate(_ width: Double) throws(TextError) {
        guard ValueRanges.length.contains(width) || width == .infinity else { throw .invalidWidth(width) }
    }
}

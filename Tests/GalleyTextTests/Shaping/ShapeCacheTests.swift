// The shape cache: hits, bounds, size independence, and equality with the uncached path.

import GalleyText
import Testing

@Suite("Shape cache")
struct ShapeCacheTests {
    static let uncached = TextEngine(fonts: Shared.engine.fonts, shapeCacheByteLimit: 0, paragraphCacheByteLimit: 0)

    @Test("The cached path gives the same layouts as the uncached path, across the corpus")
    func cachedEqualsUncached() throws {
        let cached = TextEngine(fonts: Shared.engine.fonts)
        for entry in CorpusEntry.all {
            for width in [90.0, 240] {
                let paragraph = ParagraphStyle(language: entry.lang)
                let first = try cached.layout(entry.text, style: Shared.style(15), width: width, paragraph: paragraph)
                let again = try cached.layout(entry.text, style: Shared.style(15), width: width, paragraph: paragraph)
                let fresh = try Self.uncached.layout(entry.text, style: Shared.style(15), width: width, paragraph: paragraph)
                #expect(first == fresh, "\(entry.text)")
                #expect(again == fresh, "\(entry.text)")
            }
        }
        #expect(cached.shapeCacheStatistics.hits > cached.shapeCacheStatistics.misses)
    }

    @Test("A second measurement shapes nothing; another size reuses the same shapes")
    func reuseAcrossSizes() throws {
        // Without the paragraph cache, so that the second measurement goes to the shape cache.
        let engine = TextEngine(fonts: Shared.engine.fonts, paragraphCacheByteLimit: 0)
        let text = "Shaping results are reused across sizes"
        let small = try engine.measure(text, style: Shared.style(12), width: .infinity)
        let afterFirst = engine.shapeCacheStatistics
        #expect(afterFirst.misses > 0)
        _ = try engine.measure(text, style: Shared.style(12), width: .infinity)
        let large = try engine.measure(text, style: Shared.style(24), width: .infinity)
        let afterAll = engine.shapeCacheStatistics
        #expect(afterAll.misses == afterFirst.misses)
        #expect(afterAll.hits >= afterFirst.hits + 2 * afterFirst.misses)
        // Unhinted advances scale linearly.
        #expect(abs(large.size.width - 2 * small.size.width) < 1e-9)
    }

    @Test("The cache stays within its byte limit, evicting the least recently used")
    func bounded() throws {
        let limit = 64 * 1024
        let engine = TextEngine(fonts: Shared.engine.fonts, shapeCacheByteLimit: limit)
        for entry in CorpusEntry.all {
            _ = try engine.measure(entry.text, style: Shared.style(15), width: 200)
        }
        let statistics = engine.shapeCacheStatistics
        #expect(statistics.evictions > 0)
        #expect(statistics.bytes <= limit)
        engine.removeCachedShapes()
        #expect(engine.shapeCacheStatistics.entries == 0)
        #expect(engine.shapeCacheStatistics.bytes == 0)
    }

    @Test("Under steady eviction, what the cache keeps can still be found and is the right shape")
    func findableUnderEviction() throws {
        // Small enough that the corpus evicts thousands of entries, large enough that one
        // string's words all stay: measured again at once, it must shape nothing new.
        let limit = 256 * 1024
        let engine = TextEngine(fonts: Shared.engine.fonts, shapeCacheByteLimit: limit, paragraphCacheByteLimit: 0)
        for entry in CorpusEntry.all where entry.text.utf16.count < 200 {
            let first = try engine.layout(entry.text, style: Shared.style(15), width: 160)
            let misses = engine.shapeCacheStatistics.misses
            let again = try engine.layout(entry.text, style: Shared.style(15), width: 160)
            #expect(engine.shapeCacheStatistics.misses == misses, "\(entry.text)")
            #expect(again == first)
            #expect(first == (try Self.uncached.layout(entry.text, style: Shared.style(15), width: 160)), "\(entry.text)")
        }
        let statistics = engine.shapeCacheStatistics
        #expect(statistics.evictions > 1000)
        #expect(statistics.bytes <= limit)
    }

    @Test("Pieces of words cut by lines stay with their paragraph, out of the shared shape cache")
    func cutPiecesStayWithTheirParagraph() throws {
        let engine = TextEngine(fonts: Shared.engine.fonts)
        let word = "AVAWAYToyWaVe"  // kerning pairs: cuts between them must be reshaped
        let shaped = try engine.shape(AttributedText(word, style: Shared.style(17)), paragraph: ParagraphStyle(lineBreakMode: .charWrap))
        let full = shaped.measure(width: .infinity).size.width
        var cuts = 0
        for step in 1...6 {
            let layout = shaped.layout(width: full * Double(step) / 7)
            cuts += layout.lines.count - 1
            // Measuring and laying out at the same width agree (the second asks for the same pieces).
            #expect(shaped.measure(width: full * Double(step) / 7).lineCount == layout.lines.count)
        }
        #expect(cuts > 6)
        #expect(engine.shapeCacheStatistics.entries == 1)  // the whole word, and no piece of it
    }

    @Test("An engine keeping only recurring paragraphs shapes a text twice, then never again; texts seen once are not kept")
    func recurringParagraphs() throws {
        let engine = TextEngine(fonts: Shared.engine.fonts, paragraphAdmission: .recurring)
        let text = AttributedText("Kept from its second measurement on", style: Shared.style(15))
        let first = try engine.measure(text, width: 200)
        #expect(engine.counters.paragraphsShaped == 1 && engine.paragraphCacheStatistics.entries == 0)
        let second = try engine.measure(text, width: 200)
        #expect(engine.counters.paragraphsShaped == 2 && engine.paragraphCacheStatistics.entries == 1)
        let third = try engine.measure(text, width: 120)
        #expect(engine.counters.paragraphsShaped == 2 && engine.paragraphCacheStatistics.hits == 1)
        let uncachedThird = try Self.uncached.measure(text, width: 120)
        #expect(first == second && third == uncachedThird)
        // A stream of texts each measured once: every one shaped, none kept.
        for index in 0..<300 { _ = try engine.measure("Row \(index) of a batch, seen once", style: Shared.style(15), width: 200) }
        #expect(engine.counters.paragraphsShaped == 302 && engine.paragraphCacheStatistics.entries == 1)
    }

    @Test("The paragraph cache makes measuring the same text again skip shaping altogether")
    func paragraphCache() throws {
        let engine = TextEngine(fonts: Shared.engine.fonts)
        let text = AttributedText("Measured once, then served from the paragraph cache", style: Shared.style(15))
        let first = try engine.measure(text, width: 200)
        let shaped = engine.counters.paragraphsShaped
        let again = try engine.measure(text, width: 200)
        let narrower = try engine.measure(text, width: 120)
        #expect(engine.counters.paragraphsShaped == shaped)
        #expect(engine.paragraphCacheStatistics.hits == 2)
        #expect(first == again)
        #expect(narrower == (try Self.uncached.measure(text, width: 120)))
        // A plain string in one style is the same paragraph as that attributed text.
        _ = try engine.measure("Measured once, then served from the paragraph cache", style: Shared.style(15), width: 90)
        #expect(engine.counters.paragraphsShaped == shaped)
        _ = try engine.measure("Measured once, then served from the paragraph cache!", style: Shared.style(15), width: 90)
        #expect(engine.counters.paragraphsShaped == shaped + 1)
        let afterPlain = engine.counters.paragraphsShaped
        _ = try engine.measure(AttributedText("Measured once, then served from the paragraph cache!", style: Shared.style(15)), width: 90)
        #expect(engine.counters.paragraphsShaped == afterPlain)
        // Shaping a string in one style finds that same paragraph object, and the other way round.
        let plainShaped = try engine.shape("Measured once, then served from the paragraph cache!", style: Shared.style(15))
        #expect(plainShaped === (try engine.shape(AttributedText("Measured once, then served from the paragraph cache!", style: Shared.style(15)))))
        #expect(engine.counters.paragraphsShaped == afterPlain)
        // A different style is a different paragraph.
        _ = try engine.measure(AttributedText("Measured once, then served from the paragraph cache", style: Shared.style(16)), width: 200)
        #expect(engine.counters.paragraphsShaped == afterPlain + 1)
        // So are other paragraph styles, and the same string in two styled runs, until seen.
        _ = try engine.measure(text, width: 200, paragraph: ParagraphStyle(maximumLines: 1))
        #expect(engine.counters.paragraphsShaped == afterPlain + 2)
        var runs = AttributedText("Measured once, ", style: Shared.style(15))
        runs.append("then served from the paragraph cache", style: Shared.style(16))
        _ = try engine.measure(runs, width: 200)
        _ = try engine.measure(runs, width: 120)
        #expect(engine.counters.paragraphsShaped == afterPlain + 3)
    }

    @Test("Styles prepared once find the paragraphs the same styles find, and others do not")
    func preparedStyles() throws {
        let engine = TextEngine(fonts: Shared.engine.fonts)
        let paragraph = ParagraphStyle(lineHeightMultiple: 1.2)
        let prepared = PreparedTextStyle(style: Shared.style(15), paragraph: paragraph)
        let text = "Prepared once, then looked up by the text alone"
        let byStyles = try engine.shape(text, style: Shared.style(15), paragraph: paragraph)
        let shaped = engine.counters.paragraphsShaped
        #expect(try engine.shape(text, prepared: prepared, showing: 200) === byStyles)
        // Made with prepared styles, a paragraph is found by its styles and by equal prepared ones.
        let other = "Shaped first with prepared styles"
        let byPrepared = try engine.shape(other, prepared: prepared, showing: 200)
        #expect(engine.counters.paragraphsShaped == shaped + 1)
        #expect(try engine.shape(other, style: Shared.style(15), paragraph: paragraph) === byPrepared)
        let equal = PreparedTextStyle(style: Shared.style(15), paragraph: paragraph)
        #expect(try engine.shape(other, prepared: equal, showing: 200) === byPrepared)
        #expect(try engine.shape(other, prepared: prepared, showing: 90) === byPrepared)
        #expect(engine.counters.paragraphsShaped == shaped + 1)
        // Another size, paragraph style or string is another paragraph.
        let larger = PreparedTextStyle(style: Shared.style(16), paragraph: paragraph)
        #expect(try engine.shape(other, prepared: larger, showing: 200) !== byPrepared)
        let tighter = PreparedTextStyle(style: Shared.style(15), paragraph: ParagraphStyle(lineHeightMultiple: 1.1))
        #expect(try engine.shape(other, prepared: tighter, showing: 200) !== byPrepared)
        #expect(try engine.shape(other + ".", prepared: prepared, showing: 200) !== byPrepared)
        #expect(engine.counters.paragraphsShaped == shaped + 4)
        #expect(
            try engine.shape(other, prepared: prepared, showing: 200).measure(width: 200)
                == (try Self.uncached.measure(other, style: Shared.style(15), width: 200, paragraph: paragraph)))
    }

    @Test("Re-laying out a shaped paragraph at new widths shapes nothing new")
    func relayout() throws {
        let engine = TextEngine(fonts: Shared.engine.fonts)
        let text = AttributedText(CorpusEntry.all.last!.text, style: Shared.style(15))
        let shaped = try engine.shape(text)
        let before = engine.shapeCacheStatistics
        for width in stride(from: 100.0, through: 400, by: 25) {
            #expect(shaped.measure(width: width) == (try engine.measure(text, width: width)))
        }
        #expect(engine.shapeCacheStatistics.misses == before.misses)
    }
}

// A paragraph shaped for heights keeps no segments: asked for glyphs or cut words, it must
// answer as one that kept them.

import Dispatch
import GalleyLocks
import Testing

@testable import GalleyText

@Suite("Deferred segments: a paragraph shaped for heights finds its words again when asked")
struct DeferredSegmentsTests {
    static let style = VisiblePrefixTests.style

    /// The test sentences of three scripts, and a word too long for narrow lines.
    static let texts = VisiblePrefixTests.texts + ["Supercalifragilisticexpialidocious antidisestablishmentarianism, twice over."]

    /// `text` shaped keeping its segments, by an engine of its own.
    static func kept(_ text: String, _ paragraph: ParagraphStyle) throws -> ShapedParagraph {
        let shaped = try TextEngine(paragraphCacheByteLimit: 0).shape(text, style: style, paragraph: paragraph)
        #expect(!shaped.defersSegments)
        return shaped
    }

    @Test(
        "Heights, measurements, layouts and segments equal a kept paragraph's, cut words included",
        arguments: [LineBreakMode.wordWrap, .clip, .truncateTail])
    func answersAsKept(mode: LineBreakMode) throws {
        #expect(Self.texts.count == 4)
        var deferred = 0
        for text in Self.texts {
            for lines in [0, 2] {
                let paragraph = ParagraphStyle(lineBreakMode: mode, maximumLines: lines)
                let kept = try Self.kept(text, paragraph)
                // Shown at infinite width, a text is shaped whole, never a start.
                let engine = try TextEngine()
                let shaped = try engine.shape(text, style: Self.style, paragraph: paragraph, showing: .infinity, heightsOnly: true)
                #expect(shaped.visiblePrefix == nil)
                if shaped.defersSegments { deferred += 1 }
                // Heights first (narrow widths cut the long word: its pieces need its segment),
                // then everything else.
                for width in [25.0, 90, 200, 600] {
                    #expect(shaped.measureHeight(width: width) == kept.measureHeight(width: width), "\(mode) \(lines) at \(width)")
                }
                for width in [25.0, 90, 200, 600, .infinity] {
                    #expect(shaped.measure(width: width) == kept.measure(width: width), "\(mode) \(lines) at \(width)")
                    #expect(shaped.layout(width: width) == kept.layout(width: width), "\(mode) \(lines) at \(width)")
                }
                #expect(shaped.items.count == kept.items.count)
                for index in kept.items.indices {
                    let found = shaped.segments(ofItem: index)
                    let held = kept.segments(ofItem: index)
                    #expect(found.map(\.start) == held.map(\.start))
                    #expect(found.map(\.segment.glyphs.count) == held.map(\.segment.glyphs.count))
                    #expect(found.map { $0.segment.totalAdvance } == held.map { $0.segment.totalAdvance })
                }
            }
        }
        // The Greek, the Cyrillic and the long words are plain text, shaped without their
        // segments; the French (its em dash) takes the general builder, which keeps them.
        #expect(deferred == 6)
    }

    @Test("Threads laying out one such paragraph at once all get a kept paragraph's layouts")
    func concurrentLayouts() throws {
        let text = VisiblePrefixTests.texts[1]
        let paragraph = ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 3)
        let widths = [25.0, 90, 200, 600]
        let kept = try Self.kept(text, paragraph)
        let expected = widths.map { kept.layout(width: $0) }
        let shaped = try TextEngine().shape(text, style: Self.style, paragraph: paragraph, showing: .infinity, heightsOnly: true)
        #expect(shaped.defersSegments)
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            for offset in widths.indices {
                let index = (offset + worker) % widths.count
                if shaped.layout(width: widths[index]) != expected[index] { failures.withLock { $0 += 1 } }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }
}

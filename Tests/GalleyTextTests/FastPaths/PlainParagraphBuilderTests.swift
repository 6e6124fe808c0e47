// The plain-text builder must make exactly what the general builder makes of the same text.

import Foundation
import Testing

@testable import GalleyText

@Suite("Plain paragraph builder: the general builder's paragraph, in three passes")
struct PlainParagraphBuilderTests {
    static let fonts: FontCollection = {
        do { return try FontCollection.bundled() } catch { fatalError("cannot load the bundled fonts: \(error)") }
    }()

    /// Two shapers over one shape cache (so that equal segments are the same objects), one
    /// sending plain text to the plain builder and one not.
    static func shapers() -> (plain: ParagraphShaper, general: ParagraphShaper) {
        let cache = ShapeCache(byteLimit: 32 << 20)
        let shaper = HarfBuzzShaper()
        let iterators = BreakIteratorPool()
        func make(_ plain: Bool) -> ParagraphShaper {
            ParagraphShaper(
                fonts: fonts, shaper: shaper, cache: cache, iterators: iterators, counters: CounterStore(),
                usesPlainBuilder: plain)
        }
        return (make(true), make(false))
    }

    /// A fixed sequence (a linear congruential generator): the same texts every run.
    struct Texts {
        var state: UInt64

        mutating func random(_ count: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % count
        }

        /// Words and punctuation of every class the pair table handles, in Latin, Greek and
        /// Cyrillic (one script after another makes items), with runs of spaces. (A number
        /// starts after a space: the pair table leaves a full stop or comma before a digit to ICU.)
        static let plainPieces = [
            "word", "Wörter", "λέξη", "слово", "naïve", "Ελλάδα", "Москва", "(aside)", "[x]", "{y}", "«quote»", "“q”",
            "A-B", "-5", "e.g.", "don’t", "’", "…", "x", "supercalifragilisticexpialidocious", ",", ".", "!",
            "?", ";", ":", "\"", "'", "-", "(", ")", " 20", "Three20", "ΑΒΓ", "Жж", " ", " ", "  ", "   ",
        ]

        /// Pieces the plain builder must turn down: marks, joiners, right-to-left text, CJK,
        /// emoji, line ends, tabs, no-break and other spaces, dashes, soft hyphens, slashes, %,
        /// and a full stop before a digit (which the pair table leaves to ICU).
        static let otherPieces = [
            "e\u{301}", "a\u{200D}b", "שלום", "مرحبا", "東京", "🎉", "\n", "\r\n", "\t", "a\u{A0}b", "a\u{2009}b", "—",
            "co\u{AD}op", "a/b", "10%", "$5", "\u{2028}", "3.14",
        ]

        mutating func text(pieces: Int, includingOther: Bool) -> String {
            var text = ""
            for _ in 0..<pieces {
                let choices = includingOther && random(6) == 0 ? Self.otherPieces : Self.plainPieces
                text += choices[random(choices.count)]
                if random(3) > 0 { text += " " }
            }
            return text
        }
    }

    static let style = Shared.style(15)
    static let styles = [
        style,
        TextStyle(font: .family("Noto Sans", weight: 700), size: 13, letterSpacing: 1.5),
        TextStyle(font: .family("Noto Sans", italic: true), size: 21, features: [FontFeature("smcp"), FontFeature("-kern")]),
    ]
    static let paragraphs = [
        ParagraphStyle(),
        ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 2),
        ParagraphStyle(direction: .leftToRight, language: "de"),
    ]

    @Test("Plain texts: the plain builder takes them, and its paragraphs are the general builder's")
    func plainTexts() throws {
        let (plain, general) = Self.shapers()
        var texts = Texts(state: 20_261_124)
        for index in 0..<300 {
            let text = texts.text(pieces: 1 + texts.random(40), includingOther: false)
            let style = Self.styles[index % Self.styles.count]
            let paragraph = Self.paragraphs[index / Self.styles.count % Self.paragraphs.count]
            let attributed = AttributedText(text, style: style)
            let chain = try Self.fonts.fallbackChain(for: style.font, fallbacks: [], language: "")
            let units = Array(text.utf16)
            let segmentShaper = SegmentShaper(shaper: plain.shaper, cache: plain.cache, language: nil)
            let built = units.withUnsafeBufferPointer {
                PlainParagraphBuilder.build($0, style: style, chain: chain, segmentShaper: segmentShaper)
            }
            #expect(built != nil, "not taken as plain: \(text.debugDescription)")
            try expectSame(plain.shape(attributed, paragraph: paragraph), general.shape(attributed, paragraph: paragraph), text)
        }
    }

    @Test("Texts with anything else: the plain builder turns them down, and they shape as before")
    func otherTexts() throws {
        let (plain, general) = Self.shapers()
        let chain = try Self.fonts.fallbackChain(for: Self.style.font, fallbacks: [], language: "")
        let segmentShaper = SegmentShaper(shaper: plain.shaper, cache: plain.cache, language: nil)
        func isPlain(_ text: String) -> Bool {
            Array(text.utf16).withUnsafeBufferPointer {
                PlainParagraphBuilder.build($0, style: Self.style, chain: chain, segmentShaper: segmentShaper) != nil
            }
        }
        for piece in Texts.otherPieces {
            let text = "Plain words " + piece + " then more"
            #expect(!isPlain(text), "taken as plain: \(text.debugDescription)")
            try expectSame(
                plain.shape(AttributedText(text, style: Self.style), paragraph: ParagraphStyle()),
                general.shape(AttributedText(text, style: Self.style), paragraph: ParagraphStyle()), text)
        }
        #expect(!isPlain(""))
        // A plain unit the primary face lacks (found in the face, not assumed): not plain.
        let lacking = (0x80..<PlainUnits.limit).first { unit in
            PlainUnits.entries[unit] & PlainUnits.plainBit != 0 && !chain.primary.covers(UInt32(unit))
        }
        if let lacking {
            let text = "Plain " + String(Character(Unicode.Scalar(UInt32(lacking))!)) + " words"
            #expect(!isPlain(text), "U+\(String(lacking, radix: 16)) is not in \(chain.primary)")
        }
        // And one inside a word, after a letter of its script that the face has (letters after
        // a letter take a shorter path through the builder's scan): in a face with only some
        // of the Latin letters (the CJK face's), "aaĄa".
        let partialStyle = TextStyle(font: .family("Noto Sans CJK JP"), size: 15)
        let partialChain = try Self.fonts.fallbackChain(for: partialStyle.font, fallbacks: [], language: "")
        let letterBits = PlainUnits.plainBit | PlainUnits.ownScriptBit | UInt16(SimpleLineBreaks.alphabetic)
        func isLetter(_ unit: Int) -> Bool { PlainUnits.entries[unit] & (PlainUnits.letterMask & 0xFF) == letterBits }
        let latin = PlainUnits.scriptIndex(PlainUnits.entries[Int(UInt8(ascii: "a"))])
        let lackingLetter = (0x80..<PlainUnits.limit).first { unit in
            isLetter(unit) && PlainUnits.scriptIndex(PlainUnits.entries[unit]) == latin && !partialChain.primary.covers(UInt32(unit))
        }
        if let lackingLetter {
            let text = "Plain aa" + String(Character(Unicode.Scalar(UInt32(lackingLetter))!)) + "a words"
            let taken = Array(text.utf16).withUnsafeBufferPointer {
                PlainParagraphBuilder.build($0, style: partialStyle, chain: partialChain, segmentShaper: segmentShaper) != nil
            }
            #expect(!taken, "U+\(String(lackingLetter, radix: 16)) is not in \(partialChain.primary)")
        } else {
            Issue.record("\(partialChain.primary) has every Latin letter: choose another face for this check")
        }
        // Random mixtures, and paragraph styles the plain builder is never asked about.
        var texts = Texts(state: 7)
        let others = [
            ParagraphStyle(lineBreakMode: .charWrap), ParagraphStyle(direction: .rightToLeft),
            ParagraphStyle(language: "ja"), ParagraphStyle(language: "en@lb=strict"),
        ]
        for index in 0..<200 {
            let text = texts.text(pieces: 1 + texts.random(30), includingOther: true)
            let paragraph = index % 2 == 0 ? Self.paragraphs[index / 2 % Self.paragraphs.count] : others[index / 2 % others.count]
            let attributed = AttributedText(text, style: Self.styles[index % Self.styles.count])
            try expectSame(plain.shape(attributed, paragraph: paragraph), general.shape(attributed, paragraph: paragraph), text)
        }
    }

    @Test("Text in several styles goes to the general builder, and shapes as before")
    func styledTexts() throws {
        let (plain, general) = Self.shapers()
        var text = AttributedText("Plain words ", style: Self.style)
        text.append("in bold", style: Self.styles[1])
        text.append(" and back", style: Self.style)
        try expectSame(plain.shape(text, paragraph: ParagraphStyle()), general.shape(text, paragraph: ParagraphStyle()), text.string)
    }

    /// Every part of the two paragraphs, compared.
    func expectSame(_ plain: ShapedParagraph, _ general: ShapedParagraph, _ text: String) {
        let context = Comment(rawValue: text.debugDescription)
        #expect(plain.utf16 == general.utf16, context)
        #expect(plain.paragraphLevels.map(\.start) == general.paragraphLevels.map(\.start), context)
        #expect(plain.paragraphLevels.map(\.level) == general.paragraphLevels.map(\.level), context)
        #expect(plain.missingCharacters == general.missingCharacters, context)
        #expect(plain.baseLineHeight == general.baseLineHeight, context)
        #expect(plain.itemUnitEnds == general.itemUnitEnds, context)
        #expect(plain.items.count == general.items.count, context)
        for (a, b) in zip(plain.items, general.items) {
            #expect(a.range == b.range && a.styleIndex == b.styleIndex && a.face === b.face && a.level == b.level, context)
            #expect(a.size == b.size && a.scale == b.scale && a.letterSpacing == b.letterSpacing && a.metrics == b.metrics, context)
            #expect(a.shapeKey == b.shapeKey, context)
            #expect(a.segments.map(\.start) == b.segments.map(\.start), context)
            #expect(zip(a.segments, b.segments).allSatisfy { $0.segment === $1.segment }, context)
        }
        let (a, b) = (plain.units, general.units)
        #expect(a.count == b.count, context)
        #expect(a.advances == b.advances, context)
        #expect(a.flags.map(\.rawValue) == b.flags.map(\.rawValue), context)
        #expect((0...a.count).map(a.start(ofUnit:)) == (0...b.count).map(b.start(ofUnit:)), context)
        #expect((0..<a.count).map(a.item(ofUnit:)) == (0..<b.count).map(b.item(ofUnit:)), context)
        #expect(a.words.map(Self.fields) == b.words.map(Self.fields), context)
        #expect(a.mandatoryBreaks == b.mandatoryBreaks && a.unbrokenExtent == b.unbrokenExtent, context)
        #expect(plain.ellipses.map(\.width) == general.ellipses.map(\.width), context)
        #expect(zip(plain.ellipses, general.ellipses).allSatisfy { $0.segment === $1.segment }, context)
        #expect(plain.uniformMetrics == general.uniformMetrics, context)
        #expect(plain.truncationKeepsLineHeight == general.truncationKeepsLineHeight, context)
    }

    static func fields(_ word: BreakWord) -> [Double] {
        [
            Double(word.start), Double(word.contentEnd), word.width, word.contentWidth,
            word.startsWithMandatoryBreak ? 1 : 0, word.startsSegment ? 1 : 0, word.contentEndsSegment ? 1 : 0,
        ]
    }
}

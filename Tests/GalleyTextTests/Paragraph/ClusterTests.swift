// Grapheme clusters: emoji sequences, flags, combining marks, and font fallback per cluster.

import GalleyTestSupport
import GalleyText
import Testing

@Suite("Clusters and fallback")
struct ClusterTests {
    @Test("Emoji ZWJ sequences, flags and skin tones are single colour glyphs", arguments: ["👨‍👩‍👧‍👦", "🇯🇵", "👍🏽", "🏳️‍🌈", "❤️"])
    func emojiSequences(_ emoji: String) throws {
        let layout = try Shared.engine.layout("a\(emoji)b", style: Shared.style(17), width: 500)
        let emojiRuns = layout.glyphRuns.filter { $0.face.hasColorGlyphs }
        #expect(emojiRuns.count == 1)
        #expect(emojiRuns.first?.glyphs.count == 1)
        #expect(emojiRuns.first?.face.familyName == "Noto Color Emoji")
        // The sequence is one grapheme: a width of 0 puts it on one line of its own.
        let narrow = try Shared.engine.measure("a\(emoji)b", style: Shared.style(17), width: 0)
        #expect(narrow.lineStarts == [1, 1 + emoji.unicodeScalars.count])
    }

    @Test("A space after an emoji is the primary face's space, not the colour font's emoji-wide one", arguments: ["A 😀 B", "😀 x", "مرحبا 😀 x"])
    func spaceAfterEmoji(_ text: String) throws {
        let layout = try Shared.engine.layout(text, style: Shared.style(17), width: 500)
        // Clusters are UTF-16 offsets: the space's is the emoji's end.
        let emoji = try #require(text.unicodeScalars.firstIndex { $0.properties.isEmojiPresentation })
        let spaceOffset = text.utf16.distance(from: text.startIndex, to: text.unicodeScalars.index(after: emoji))
        let run = try #require(layout.glyphRuns.first { $0.clusters.contains(spaceOffset) })
        #expect(!run.face.hasColorGlyphs, "the space after the emoji is in \(run.face)")
        let index = try #require(run.clusters.firstIndex(of: spaceOffset))
        let space = try #require(run.face.glyph(for: " "))
        #expect(run.glyphs[index] == space)
        // The advance read from the font itself, at 17 points.
        let expected = Double(run.face.advance(ofGlyph: space)) * 17 / Double(run.face.metrics.unitsPerEm)
        #expect(abs(run.advances[index] - expected) < 0.01, "\(run.advances[index]) against \(expected)")
    }

    @Test("Combining marks stay with their base and measure like the precomposed letter")
    func combiningMarks() throws {
        let decomposed = try Shared.engine.measure("Cafe\u{301}", style: Shared.style(17), width: 500)
        let precomposed = try Shared.engine.measure("Café", style: Shared.style(17), width: 500)
        #expect(abs(decomposed.size.width - precomposed.size.width) < 0.5)
        let narrow = try Shared.engine.measure("e\u{301}\u{323}x", style: Shared.style(17), width: 0)
        #expect(narrow.lineStarts == [3])
    }

    @Test("Each script falls back to the bundled font that covers it")
    func fallbackByScript() throws {
        let samples: [(String, String)] = [
            ("Ελληνικά", "Noto Sans"), ("Русский", "Noto Sans"), ("العربية", "Noto Sans Arabic"),
            ("עברית", "Noto Sans Hebrew"), ("हिन्दी", "Noto Sans Devanagari"), ("ภาษาไทย", "Noto Sans Thai"),
            ("漢字", "Noto Sans CJK JP"), ("かな", "Noto Sans CJK JP"), ("한글", "Noto Sans CJK JP"),
        ]
        for (text, family) in samples {
            let layout = try Shared.engine.layout(text, style: Shared.style(17), width: 500)
            #expect(layout.glyphRuns.map(\.face.familyName) == [family], "\(text)")
            #expect(!layout.glyphRuns.flatMap(\.glyphs).contains(0), "\(text) has .notdef")
        }
    }

    @Test("The language picks the CJK face; the caller's fallbacks come before the bundled order")
    func fallbackOrder() throws {
        func family(_ text: String, language: String?, fallbacks: [FontDescriptor] = []) throws -> String? {
            var style = Shared.style(17)
            style.fallbacks = fallbacks
            return try Shared.engine.layout(text, style: style, width: 500, paragraph: ParagraphStyle(language: language))
                .glyphRuns.first?.face.familyName
        }
        #expect(try family("漢字", language: "zh-Hans") == "Noto Sans CJK SC")
        #expect(try family("漢字", language: "zh-Hant-TW") == "Noto Sans CJK TC")
        #expect(try family("漢字", language: "ko") == "Noto Sans CJK KR")
        #expect(try family("漢字", language: "ja@lb=strict") == "Noto Sans CJK JP")
        #expect(try family("漢字", language: nil, fallbacks: [.family("Noto Sans CJK KR")]) == "Noto Sans CJK KR")
        // The requested font comes first, even for characters later fonts also have.
        #expect(try family("Latin", language: "ja", fallbacks: [.family("Noto Sans CJK KR")]) == "Noto Sans")
    }

    @Test("Text its primary face covers stays in it, a run per style and script; a character it lacks still falls back")
    func primaryFaceThroughout() throws {
        // Greek, Latin and Cyrillic, a soft hyphen (default ignorable) and an ellipsis: all in
        // Noto Sans, a run per script (punctuation and spaces with the script before them).
        let greek = try Shared.engine.layout("Καλημέρα, world\u{AD}wide… Привет", style: Shared.style(17), width: 500)
        #expect(greek.glyphRuns.map(\.face.familyName) == ["Noto Sans", "Noto Sans", "Noto Sans"])
        #expect(greek.glyphRuns.map { $0.clusters.first } == [0, 10, 22])
        let alternating = try Shared.engine.layout("aΩbΔΣc", style: Shared.style(17), width: 500)
        #expect(alternating.glyphRuns.map { $0.clusters.first } == [0, 1, 2, 3, 5])
        #expect(greek.missingCharacters.isEmpty)
        // Two styles: a run each, both in their primary faces.
        var text = AttributedText("Ada ", style: TextStyle(font: .family("Noto Sans", weight: 700), size: 17))
        text.append("replied", style: Shared.style(17))
        let styled = try Shared.engine.layout(text, width: 500)
        #expect(styled.glyphRuns.map(\.face.styleName) == ["Bold", "Regular"])
        #expect(styled.glyphRuns.map { $0.clusters.first } == [0, 4])
        // A character the primary face lacks goes to the fallback, and the space after it stays there.
        let mixed = try Shared.engine.layout("ab 漢 cd", style: Shared.style(17), width: 500)
        #expect(mixed.glyphRuns.map(\.face.familyName) == ["Noto Sans", "Noto Sans CJK JP", "Noto Sans"])
        #expect(mixed.glyphRuns.map { $0.clusters.first } == [0, 3, 5])
        // In a right-to-left paragraph, still all in the primary face, items part at each bidi
        // level: the words and the comma between them at 2, the final "!" (between a letter and
        // the paragraph's end, so of its direction, UAX #9 N1-N2) at 1.
        let forced = try Shared.engine.layout(
            "Hello, world!", style: Shared.style(17), width: 500, paragraph: ParagraphStyle(direction: .rightToLeft))
        #expect(forced.glyphRuns.allSatisfy { $0.face.familyName == "Noto Sans" })
        #expect(Set(forced.glyphRuns.map { "\($0.bidiLevel):\($0.clusters.min() ?? -1)" }) == ["2:0", "1:12"])
    }

    @Test("Characters no font covers are measured with .notdef and reported")
    func missingCharacters() throws {
        let text = "ሰላም x"  // Ethiopic: not in the bundled fonts
        let layout = try Shared.engine.layout(text, style: Shared.style(17), width: 500)
        #expect(layout.missingCharacters == Array("ሰላም".unicodeScalars))
        let run = try #require(layout.glyphRuns.first)
        #expect(run.face.familyName == "Noto Sans")
        let ethiopic = run.glyphs.indices.filter { run.clusters[$0] < 3 }
        #expect(ethiopic.count == 3)
        #expect(ethiopic.allSatisfy { run.glyphs[$0] == 0 })
        let notdef = Double(run.face.advance(ofGlyph: 0)) * 17 / Double(run.face.metrics.unitsPerEm)
        #expect(ethiopic.allSatisfy { abs(run.advances[$0] - notdef) < 1e-9 })
    }

    @Test("A font given by path is loaded and used")
    func fontByPath() throws {
        let style = TextStyle(font: .file(PackagePaths.font("NotoSans-Bold.ttf")), size: 17)
        let layout = try Shared.engine.layout("Bold", style: style, width: 500)
        #expect(layout.glyphRuns.first?.face.styleName == "Bold")
        #expect(throws: TextError.self) {
            try Shared.engine.measure("x", style: TextStyle(font: .file("/nonexistent.ttf"), size: 17), width: 10)
        }
        #expect(throws: TextError.font(.unknownFamily("No Such Family"))) {
            try Shared.engine.measure("x", style: TextStyle(font: .family("No Such Family"), size: 17), width: 10)
        }
    }
}

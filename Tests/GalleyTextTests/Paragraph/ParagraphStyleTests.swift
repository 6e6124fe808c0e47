// Line height rules, spacing, letter spacing, features, alignment and pixel rounding.

import GalleyText
import Testing

@Suite("Paragraph and text styles")
struct ParagraphStyleTests {
    static let text = "Line height and spacing rules apply to every line of this paragraph"
    static let metrics = try! Shared.engine.fonts.face(for: .family("Noto Sans")).metrics.scaled(to: 17)

    static func layout(_ paragraph: ParagraphStyle, text: String = text, style: TextStyle = Shared.style(17)) throws -> TextLayout {
        try Shared.engine.layout(text, style: style, width: 160, paragraph: paragraph)
    }

    @Test("Natural line height is ascent + descent + line gap; the baseline sits ascent below the top")
    func naturalLineHeight() throws {
        let layout = try Self.layout(ParagraphStyle())
        let natural = Self.metrics.ascent + Self.metrics.descent + Self.metrics.lineGap
        for (index, line) in layout.lines.enumerated() {
            #expect(abs(line.top - Double(index) * natural) < 1e-9)
            #expect(abs(line.height - natural) < 1e-9)
            #expect(abs(line.baseline - (line.top + Self.metrics.ascent)) < 1e-9)
        }
        #expect(abs(layout.size.height - Double(layout.lines.count) * natural) < 1e-9)
    }

    @Test("A line height multiple scales each line; the extra space goes above the text")
    func lineHeightMultiple() throws {
        let plain = try Self.layout(ParagraphStyle())
        let tall = try Self.layout(ParagraphStyle(lineHeightMultiple: 1.5))
        #expect(tall.lines.count == plain.lines.count)
        let natural = Self.metrics.lineHeight
        #expect(abs(tall.size.height - Double(plain.lines.count) * natural * 1.5) < 1e-9)
        #expect(abs(tall.lines[0].baseline - (natural * 0.5 + Self.metrics.ascent)) < 1e-9)
    }

    @Test("Minimum and maximum line heights clamp each line")
    func lineHeightLimits() throws {
        let count = Double(try Self.layout(ParagraphStyle()).lines.count)
        #expect(abs(try Self.layout(ParagraphStyle(minimumLineHeight: 30)).size.height - count * 30) < 1e-9)
        #expect(abs(try Self.layout(ParagraphStyle(maximumLineHeight: 18)).size.height - count * 18) < 1e-9)
        let both = try Self.layout(ParagraphStyle(lineHeightMultiple: 2, maximumLineHeight: 40))
        #expect(abs(both.size.height - count * 40) < 1e-9)
    }

    @Test("Line spacing goes between lines; paragraph spacing between paragraphs")
    func spacing() throws {
        let natural = Self.metrics.lineHeight
        let spaced = try Self.layout(ParagraphStyle(lineSpacing: 4), text: "one\ntwo\nthree")
        #expect(abs(spaced.size.height - (3 * natural + 2 * 4)) < 1e-9)
        let paragraphs = try Self.layout(ParagraphStyle(lineSpacing: 4, paragraphSpacing: 10), text: "one\ntwo\nthree")
        #expect(abs(paragraphs.size.height - (3 * natural + 2 * (4 + 10))) < 1e-9)
        #expect(abs(paragraphs.lines[1].top - (natural + 14)) < 1e-9)
    }

    @Test("Letter spacing adds after every cluster")
    func letterSpacing() throws {
        var style = Shared.style(17)
        let plain = try Shared.engine.measure("spacing", style: style, width: 500)
        style.letterSpacing = 2
        let tracked = try Shared.engine.measure("spacing", style: style, width: 500)
        #expect(abs(tracked.size.width - (plain.size.width + 7 * 2)) < 1e-9)
    }

    @Test("OpenType features reach HarfBuzz: ligatures on by default, off on request")
    func features() throws {
        let ligated = try Shared.engine.layout("office", style: Shared.style(17), width: 500)
        var style = Shared.style(17)
        style.features = [FontFeature("-liga")]
        let plain = try Shared.engine.layout("office", style: style, width: 500)
        #expect(ligated.glyphRuns[0].glyphs.count < plain.glyphRuns[0].glyphs.count)
        #expect(FontFeature("tnum") == FontFeature(tag: "tnum", value: 1))
        #expect(FontFeature("salt=2") == FontFeature(tag: "salt", value: 2))
    }

    @Test("Alignment places lines within the width", arguments: [TextAlignment.left, .right, .center, .justified, .natural])
    func alignment(_ alignment: TextAlignment) throws {
        let layout = try Self.layout(ParagraphStyle(alignment: alignment))
        for line in layout.lines {
            let expected: Double =
                switch alignment {
                case .left, .natural: 0
                case .right: 160 - line.width
                case .center: (160 - line.width) / 2
                case .justified: 0
                }
            #expect(abs(line.x - expected) < 1e-9)
        }
        if alignment == .justified {
            // Every line but the last ends at the width: its last glyph's right edge is at 160.
            for (index, line) in layout.lines.enumerated().dropLast() {
                let runs = layout.glyphRuns.filter { $0.lineIndex == index }
                let last = try #require(runs.last)
                let right = last.positions.last!.x + last.advances.last!
                #expect(abs(right - 160) < 1e-6, "line \(index): \(line)")
            }
        }
    }

    @Test("Sizes round up to device pixels as UIKit rounds", arguments: [1.0, 2.0, 3.0])
    func rounding(_ scale: Double) throws {
        let measurement = try Shared.engine.measure(Self.text, style: Shared.style(17), width: 160)
        let rounded = measurement.roundedSize(scale: scale)
        #expect(rounded.height == (measurement.size.height * scale).rounded(.up) / scale)
        #expect(rounded.height >= measurement.size.height && rounded.height - measurement.size.height < 1 / scale)
        #expect(LayoutSize(width: 20, height: 20.000000000001).roundedUp(toScale: scale) == LayoutSize(width: 20, height: 20))
    }

    @Test("Styled runs: a line is as tall as its tallest run")
    func attributedRuns() throws {
        var text = AttributedText("Ada ", style: Shared.style(17, weight: 700))
        text.append("replied", style: Shared.style(15))
        text.append(" 2m", style: Shared.style(30))
        let layout = try Shared.engine.layout(text, width: 500)
        let large = Self.metrics.lineHeight / 17 * 30
        #expect(abs(layout.size.height - large) < 1e-9)
        #expect(layout.glyphRuns.map(\.face.styleName) == ["Bold", "Regular", "Regular"])
        #expect(layout.glyphRuns.map(\.size) == [17, 15, 30])
        let single = try Shared.engine.layout(AttributedText("Ada replied", style: Shared.style(15)), width: 500)
        #expect(abs(single.size.height - Self.metrics.lineHeight / 17 * 15) < 1e-9)
    }

    @Test("Invalid widths and styles are clear errors")
    func invalidInput() throws {
        #expect(throws: TextError.invalidWidth(-1)) { try Shared.engine.measure("x", style: Shared.style(), width: -1) }
        #expect(throws: TextError.self) { try Shared.engine.measure("x", style: Shared.style(.nan), width: 10) }
        #expect(throws: TextError.self) { try Shared.engine.measure("x", style: Shared.style(), width: 10, paragraph: ParagraphStyle(maximumLines: -1)) }
        #expect(throws: TextError.invalidLanguage("not a tag!")) {
            try Shared.engine.measure("x", style: Shared.style(), width: 10, paragraph: ParagraphStyle(language: "not a tag!"))
        }
        // Infinity means no wrapping.
        #expect(try Shared.engine.measure(Self.text, style: Shared.style(), width: .infinity).lineCount == 1)
    }

    @Test("Sizes, spacings, multiples and widths outside what a display can use are errors naming the value, at both ends")
    func valueRanges() throws {
        let engine = Shared.engine
        func style(size: Double = 17, letterSpacing: Double = 0, weight: Int = 400) -> TextStyle {
            TextStyle(font: .family("Noto Sans", weight: weight), size: size, letterSpacing: letterSpacing)
        }
        // Each range's ends are accepted and give finite sizes; just past them, an error.
        for size in [ValueRanges.fontSize.lowerBound, 0.01, ValueRanges.fontSize.upperBound] {
            let measured = try engine.measure(Self.text, style: style(size: size), width: 320)
            #expect(measured.size.height.isFinite && measured.size.width.isFinite && measured.size.height > 0, "\(size)")
        }
        for size in [0, -1, 10_000.5, 1e308, .infinity, .nan] as [Double] {
            #expect(throws: TextError.self, "\(size)") { try engine.measure("x", style: style(size: size), width: 10) }
        }
        for spacing in [1e308, -10_001, .nan] as [Double] {
            #expect(throws: TextError.invalidStyle("letterSpacing must be a number ≥ -10000 and ≤ 10000, not \(spacing)")) {
                try engine.measure("x", style: style(letterSpacing: spacing), width: 10)
            }
        }
        for weight in [0, 1001, .min, .max] {
            #expect(throws: TextError.invalidStyle("weight must be 1...1000, not \(weight)")) {
                try engine.measure("x", style: style(weight: weight), width: 10)
            }
        }
        #expect(throws: TextError.invalidStyle("lineHeightMultiple must be a number ≥ 0 and ≤ 100, not 1e+308")) {
            try engine.measure("x", style: style(), width: 10, paragraph: ParagraphStyle(lineHeightMultiple: 1e308))
        }
        let tallest = try engine.measure("x", style: style(size: 10_000), width: 10, paragraph: ParagraphStyle(lineHeightMultiple: 100))
        #expect(tallest.size.height.isFinite && tallest.size.height > 1_000_000)
        for paragraph in [
            ParagraphStyle(lineSpacing: 1e7), ParagraphStyle(paragraphSpacing: -1), ParagraphStyle(minimumLineHeight: .infinity),
            ParagraphStyle(maximumLineHeight: 1e300), ParagraphStyle(maximumHeight: .nan),
        ] {
            #expect(throws: TextError.self) { try engine.measure("x", style: style(), width: 10, paragraph: paragraph) }
        }
        for width in [1e6 + 1, 1e308, -0.5, -.infinity] as [Double] {
            #expect(throws: TextError.invalidWidth(width)) { try engine.measure("x", style: style(), width: width) }
        }
        #expect(throws: TextError.self) { try engine.measure("x", style: style(), width: .nan) }
        #expect(try engine.measure("x", style: style(), width: 1e6).lineCount == 1)
    }
}

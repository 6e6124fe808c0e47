// Line breaking: ICU opportunities, greedy fitting checked against whole-run HarfBuzz widths.

import GalleyText
import Testing

@Suite("Line breaking")
struct LineBreakingTests {
    static let widths: [Double] = [80, 150, 240, 375]

    /// Latin, Greek and Cyrillic corpus strings that Noto Sans covers entirely.
    static let coveredCorpus = CorpusEntry.all.filter {
        ["Latn", "Grek", "Cyrl"].contains($0.script) && HarfBuzzReference.notoSans.covers($0.text)
    }

    @Test("Every line fits, breaks where ICU allows, and the next word would not fit")
    func greedyBreaksAtICUOpportunities() throws {
        let size = 15.0
        let reference = HarfBuzzReference.notoSans
        var linesChecked = 0
        for entry in Self.coveredCorpus {
            let opportunities = ICUReference.lineBreaks(entry.text)
            for width in Self.widths {
                let layout = try Shared.engine.layout(entry.text, style: Shared.style(size), width: width)
                for (index, line) in layout.lines.enumerated() {
                    let content = entry.text.utf16Slice(line.utf16Range).trimmingTrailingWhitespace
                    let wholeRunWidth = reference.width(of: content, size: size)
                    // Segment-cached widths agree with shaping the line as one run.
                    #expect(abs(line.width - wholeRunWidth) <= 0.5, "\(content) at \(width)")
                    guard index + 1 < layout.lines.count else { continue }
                    let next = layout.lines[index + 1].utf16Range.lowerBound
                    if opportunities.contains(next) {
                        #expect(line.width <= width + 1e-6, "line \(index) of '\(entry.text)' overflows \(width)")
                        // The next word (up to ICU's next opportunity) would not have fitted.
                        let nextBreak = opportunities.filter { $0 > next }.min() ?? entry.text.utf16.count
                        let longer = entry.text.utf16Slice(line.utf16Range.lowerBound..<nextBreak).trimmingTrailingWhitespace
                        #expect(reference.width(of: longer, size: size) > width - 0.5, "'\(longer)' fits in \(width)")
                    } else {
                        // Only an over-long word may break between ICU opportunities.
                        let wordStart = opportunities.filter { $0 <= line.utf16Range.lowerBound }.max() ?? 0
                        let wordEnd = opportunities.filter { $0 > next }.min() ?? entry.text.utf16.count
                        let word = entry.text.utf16Slice(wordStart..<wordEnd).trimmingTrailingWhitespace
                        #expect(reference.width(of: word, size: size) > width, "'\(word)' broken though it fits \(width)")
                    }
                    linesChecked += 1
                }
            }
        }
        #expect(linesChecked > 1000)
    }

    @Test("In every script, a line set in one font is as wide as HarfBuzz shapes it as one run")
    func wholeRunWidthsAcrossScripts() throws {
        var references: [String: HarfBuzzReference] = [:]
        var checked: [String: Int] = [:]
        for entry in CorpusEntry.all where entry.script != "Zsye" {
            for width in Self.widths {
                let layout = try Shared.engine.layout(entry.text, style: Shared.style(15), width: width, paragraph: ParagraphStyle(language: entry.lang))
                for (index, line) in layout.lines.enumerated() {
                    let faces = Set(layout.glyphRuns.filter { $0.lineIndex == index && !$0.glyphs.isEmpty }.map(\.face))
                    guard faces.count == 1, let face = faces.first else { continue }
                    let key = "\(face.path)#\(face.faceIndex)"
                    let reference = references[key] ?? HarfBuzzReference(path: face.path, index: face.faceIndex)
                    references[key] = reference
                    let content = entry.text.utf16Slice(line.utf16Range).trimmingTrailingWhitespace
                    let expected = reference.width(of: content, size: 15, language: entry.lang)
                    #expect(abs(line.width - expected) <= 0.5, "[\(entry.script)] '\(content)': \(line.width) against \(expected)")
                    checked[entry.script, default: 0] += 1
                }
            }
        }
        // Every script of the corpus had single-font lines to check.
        #expect(Set(checked.keys).isSuperset(of: ["Latn", "Grek", "Cyrl", "Arab", "Hebr", "Deva", "Thai", "Hani", "Jpan", "Hang"]))
    }

    @Test("A word cut between lines is exactly as wide as HarfBuzz shapes each piece alone")
    func cutPiecesMatchHarfBuzz() throws {
        // Kerning pairs, ligatures and plain letters, cut at every grapheme by char wrap: where
        // HarfBuzz marks a cut unsafe the piece is reshaped, where safe the word's own glyphs are
        // kept; either way each line must be what shaping its text alone gives.
        let reference = HarfBuzzReference.notoSans
        var checked = 0
        for word in ["AVAWAYToyWaVe", "office-affluent-fjord", "Typography", "ΑΥΤΟΚΙΝΗΤΟ", "Привет-Мир"] {
            let full = reference.width(of: word, size: 17)
            for step in 1...12 {
                let width = full * Double(step) / 13
                let layout = try Shared.engine.layout(word, style: Shared.style(17), width: width, paragraph: ParagraphStyle(lineBreakMode: .charWrap))
                for line in layout.lines {
                    let piece = word.utf16Slice(line.utf16Range)
                    #expect(abs(line.width - reference.width(of: piece, size: 17)) < 1e-6, "'\(piece)' of \(word) at \(width)")
                    checked += 1
                }
            }
        }
        #expect(checked > 100)
    }

    @Test("An over-long word starts on a fresh line and breaks between graphemes")
    func overlongWord() throws {
        let text = "Hi Donaudampfschifffahrtsgesellschaftskapitän"
        let layout = try Shared.engine.layout(text, style: Shared.style(17), width: 120)
        #expect(layout.lines[0].utf16Range == 0..<3)
        #expect(layout.lines.count >= 3)
        for line in layout.lines { #expect(line.width <= 120 + 1e-6) }
        let rejoined = layout.lines.map { text.utf16Slice($0.utf16Range) }.joined()
        #expect(rejoined == text)
    }

    @Test("A width narrower than one grapheme gives one grapheme per line")
    func narrowerThanAGrapheme() throws {
        let text = "Wéll"  // 4 graphemes, the second a precomposed letter
        let measurement = try Shared.engine.measure(text, style: Shared.style(17), width: 1)
        #expect(measurement.lineCount == 4)
        #expect(measurement.lineStarts == [1, 2, 3])
        let zero = try Shared.engine.measure("e\u{301}e\u{301}", style: Shared.style(17), width: 0)
        #expect(zero.lineStarts == [2])  // the combining accent stays with its letter
    }

    @Test("Over-long text breaks between grapheme clusters exactly where ICU's character iterator does")
    func graphemeBoundariesMatchICU() throws {
        // Letters, punctuation, quotes, dashes, currency, symbols and arrows (no spaces, which
        // hang at line ends, and no mandatory breaks), each range forwards and backwards, and
        // with combining marks, joiners and selectors mixed in so that ICU must be asked.
        let ranges: [ClosedRange<UInt32>] = [
            0x21...0x7E, 0xA1...0xAC, 0xAE...0x2FF, 0x370...0x482, 0x1E00...0x1FFF, 0x2010...0x2027, 0x2030...0x205E,
            0x20A0...0x20C0, 0x2100...0x21FF,
        ]
        for range in ranges {
            let forwards = String(String.UnicodeScalarView(range.compactMap(Unicode.Scalar.init)))
            for text in [forwards, String(forwards.reversed()), forwards + "e\u{301}\u{200D}a\u{FE0F}"] {
                let measurement = try Shared.engine.measure(text, style: Shared.style(17), width: 0)
                let expected = ICUReference.graphemeBoundaries(text).subtracting([text.utf16.count]).sorted()
                #expect(measurement.lineStarts == expected, "U+\(String(range.lowerBound, radix: 16))…")
            }
        }
    }

    @Test("CR LF is one cluster: nothing breaks between them, whatever the mode or width", arguments: [LineBreakMode.wordWrap, .charWrap])
    func crlfIsOneCluster(_ mode: LineBreakMode) throws {
        let text = "ab\r\ncd\r\n\r\ne"
        let layout = try Shared.engine.layout(text, style: Shared.style(17), width: 0, paragraph: ParagraphStyle(lineBreakMode: mode))
        // Every line starts at a grapheme boundary ICU reports; none between a CR and its LF.
        let boundaries = ICUReference.graphemeBoundaries(text).union([0])
        for line in layout.lines { #expect(boundaries.contains(line.utf16Range.lowerBound), "\(line.utf16Range)") }
        #expect(layout.lines.map(\.utf16Range.lowerBound) == [0, 1, 4, 5, 8, 10])
    }

    @Test("Mandatory breaks at LF, CR, CRLF, NEL, U+2028 and U+2029")
    func mandatoryBreaks() throws {
        let text = "a\nb\rc\r\nd\u{85}e\u{2028}f\u{2029}g"
        let measurement = try Shared.engine.measure(text, style: Shared.style(17), width: 1000)
        #expect(measurement.lineCount == 7)
        #expect(measurement.lineStarts == [2, 4, 7, 9, 11, 13])
        let lineHeight = try Shared.engine.fonts.face(for: .family("Noto Sans")).metrics.scaled(to: 17).lineHeight
        #expect(abs(measurement.size.height - 7 * lineHeight) < 1e-9)
        let widest = ["a", "b", "c", "d", "e", "f", "g"].map { HarfBuzzReference.notoSans.width(of: $0, size: 17) }.max()!
        #expect(abs(measurement.size.width - widest) < 1e-9)
    }

    @Test("Empty lines between paragraphs count; a trailing newline does not add a line")
    func emptyLines() throws {
        let style = Shared.style(17)
        #expect(try Shared.engine.measure("a\n\nb", style: style, width: 100).lineCount == 3)
        #expect(try Shared.engine.measure("a\n", style: style, width: 100).lineCount == 1)
        #expect(try Shared.engine.measure("\n", style: style, width: 100).lineCount == 1)
    }

    @Test("Empty text has no lines and no height")
    func emptyText() throws {
        let measurement = try Shared.engine.measure("", style: Shared.style(17), width: 100)
        #expect(measurement.lineCount == 0)
        #expect(measurement.size == .zero)
        let layout = try Shared.engine.layout("", style: Shared.style(17), width: 100)
        #expect(layout.lines.isEmpty && layout.glyphRuns.isEmpty && layout.size == .zero)
    }

    @Test("Fitting on one line: exactly when breaking gives one line, and HarfBuzz's width fits")
    func fitsOnOneLine() throws {
        var checked = 0
        let size = 15.0
        for entry in Self.coveredCorpus {
            let text = AttributedText(entry.text, style: Shared.style(size))
            let shaped = try Shared.engine.shape(text)
            let truncating = try Shared.engine.shape(text, paragraph: ParagraphStyle(lineBreakMode: .truncateTail, maximumLines: 1))
            let unlimited = shaped.measure(width: .infinity)
            let hasBreak = entry.text.contains { $0.isNewline }
            let wholeRun = HarfBuzzReference.notoSans.width(of: entry.text.trimmingTrailingWhitespace, size: size)
            for width in Self.widths + [unlimited.size.width - 0.01, unlimited.size.width, unlimited.size.width + 0.01] {
                let fits = shaped.fitsOnOneLine(width: width)
                #expect(fits == (!hasBreak && shaped.measure(width: width).lineCount == 1), "'\(entry.text)' at \(width)")
                // Independently: the text shaped as one run fits, or it does not.
                if !hasBreak && wholeRun <= width - 0.5 { #expect(fits, "'\(entry.text)' at \(width)") }
                if wholeRun > width + 0.5 { #expect(!fits, "'\(entry.text)' at \(width)") }
                // Where it fits, a one-line limit truncates nothing: the line is the unlimited one.
                if truncating.fitsOnOneLine(width: width) {
                    let limited = truncating.measure(width: width)
                    #expect(!limited.isTruncated && limited.size.height == unlimited.size.height)
                    #expect(limited.firstBaseline == unlimited.firstBaseline && limited.size.width == unlimited.size.width)
                }
                checked += 1
            }
        }
        #expect(checked > 100)
        // A mandatory break never fits one line; empty text has no line to fit.
        #expect(!(try Shared.engine.shape(AttributedText("a\nb", style: Shared.style(size)))).fitsOnOneLine(width: 1000))
        #expect(!(try Shared.engine.shape(AttributedText("", style: Shared.style(size)))).fitsOnOneLine(width: 1000))
        #expect((try Shared.engine.shape(AttributedText("a   ", style: Shared.style(size)))).fitsOnOneLine(width: 10))
    }

    @Test("Trailing whitespace hangs: it does not count toward a line's width")
    func trailingWhitespaceHangs() throws {
        let style = Shared.style(17)
        let plain = try Shared.engine.measure("word", style: style, width: 500)
        let spaced = try Shared.engine.measure("word     ", style: style, width: 500)
        #expect(plain.size.width == spaced.size.width)
        // Spaces beyond the width do not force a break.
        let wordWidth = HarfBuzzReference.notoSans.width(of: "word", size: 17)
        let tight = try Shared.engine.measure("word          next", style: style, width: wordWidth + 1)
        #expect(tight.lineCount == 2)
        #expect(tight.lineStarts == [14])
    }

    @Test("Char wrap breaks inside words; word wrap does not")
    func charWrap() throws {
        let text = "alpha beta gamma"
        let style = Shared.style(17)
        let wordWidth = HarfBuzzReference.notoSans.width(of: "alpha be", size: 17)
        let words = try Shared.engine.measure(text, style: style, width: wordWidth + 0.5)
        #expect(words.lineStarts.first == 6)
        let chars = try Shared.engine.measure(text, style: style, width: wordWidth + 0.5, paragraph: ParagraphStyle(lineBreakMode: .charWrap))
        #expect(chars.lineStarts.first == 8)
    }

    @Test("A 1 MB paragraph is measured in one linear pass", .timeLimit(.minutes(2)))
    func megabyteParagraph() throws {
        let sentence = "The quick brown fox jumps over the lazy dog, again and again. "
        let text = String(repeating: sentence, count: 1_000_000 / sentence.utf8.count + 1)
        #expect(text.utf8.count >= 1_000_000)
        let measurement = try Shared.engine.measure(text, style: Shared.style(15), width: 320)
        // Lines are as many as in one sentence's worth, times the repetitions, within one line per sentence.
        let perSentence = try Shared.engine.measure(String(repeating: sentence, count: 100), style: Shared.style(15), width: 320)
        let expected = Double(perSentence.lineCount) / 100 * Double(text.utf8.count / sentence.utf8.count)
        #expect(abs(Double(measurement.lineCount) - expected) < expected * 0.02)
    }
}

extension String {
    var trimmingTrailingWhitespace: String {
        var scalars = unicodeScalars[...]
        while let last = scalars.last, last.properties.isWhitespace { scalars = scalars.dropLast() }
        return String(String.UnicodeScalarView(scalars))
    }
}

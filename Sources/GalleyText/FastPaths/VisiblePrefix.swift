// Shaping only the start of a long text that a line limit cuts short.

import GalleyLocks

/// The start of a paragraph's text, shaped alone because a line limit shows no more of it, and
/// the way to the rest when a width shows more.
///
/// A label limited to a few lines (a message preview, the first lines of a post) shows a small
/// start of its text, yet analysing, shaping and keeping the rest is most of the cost of a new
/// row. A start is used only where every line the limit shows, and the truncation of the last,
/// come out as they do for the whole text:
/// - the cut falls after spaces between two letters (line-break class AL), a break opportunity
///   that no UAX #14 rule looks across, so the breaks and graphemes before it are the whole
///   text's, and so are its words, segments, shapes and scripts;
/// - nothing in the text can make it right-to-left, so the whole text and its start are both
///   analysed with every bidi level 0 (see ``TextAnalysis/isLeftToRightThroughout(_:direction:)``);
/// - every character after the cut is in every style's primary face, so the whole text's
///   missing characters are the start's (and none is a surrogate: past the cut a UTF-16
///   offset is a scalar offset);
/// - a width's lines count only if the line after the last shown starts at or before the
///   start's last word: the line breaker and the truncator then never read past that word.
///
/// Heights ask less: lines that reach the limit have the whole text's heights once the last
/// one begins in the start (see ``givesWholeHeights(lineCount:of:)``).
///
/// A width that shows more goes to a longer start (shaped once, kept), and in the end to the
/// whole text, so every answer is the whole text's. The longer start lives with this one, outside
/// the paragraph cache's byte count: at most the whole text's paragraph more per cached start.
final class VisiblePrefix: Sendable {
    /// The whole text's length in UTF-16 units.
    let wholeLength: Int
    /// The unit where the start's last word begins.
    let lastWordUnit: Int
    /// The line box of the text past the start, when all of it has one (one style and no
    /// character that asks for emoji presentation: most text).
    let restBox: ScaledFontMetrics?
    private let text: AttributedText
    private let paragraph: ParagraphStyle
    private let shaper: ParagraphShaper
    /// What the start was shaped in, for the longer one (see ``ParagraphShaper/Resolved``).
    private let resolved: ParagraphShaper.Resolved
    private let longer = Locked<ShapedParagraph?>(nil)

    init(
        text: AttributedText, paragraph: ParagraphStyle, shaper: ParagraphShaper, resolved: ParagraphShaper.Resolved,
        wholeLength: Int, lastWordUnit: Int, restBox: ScaledFontMetrics?
    ) {
        self.text = text
        self.paragraph = paragraph
        self.shaper = shaper
        self.resolved = resolved
        self.wholeLength = wholeLength
        self.lastWordUnit = lastWordUnit
        self.restBox = restBox
    }

    /// Whether lines that stop with the next one starting at `nextLineUnit` (the unit count when
    /// none is left) are the whole text's.
    func shows(nextLineUnit: Int) -> Bool { nextLineUnit <= lastWordUnit }

    /// Whether `lineCount` lines of `start` (the paragraph of this start) at a width have the
    /// whole text's heights and baselines, even where the last of them would read past the start.
    ///
    /// So when they are as many as the limit allows and every line has one box, the rest of the
    /// text's too. Each line before the last ends where the whole text's does: a word that
    /// does not fit, or a break, ends it, and the next line starts in the start, so both come
    /// from it (the cut is where the whole text breaks too; the start's words are the whole
    /// text's). The last begins where the whole text's does, and with more text would still be
    /// the last allowed, in the same box; its truncation cannot change its height either.
    func givesWholeHeights(lineCount: Int, of start: ShapedParagraph) -> Bool {
        guard let restBox, let box = start.uniformMetrics else { return false }
        return lineCount == paragraph.maximumLines && start.linesShareOneBox && box.hasSameLineBox(as: restBox)
    }

    /// A longer start of the text (or the whole of it) for a width that `current`, this start,
    /// does not show enough of; made once, then kept.
    func longer(than current: ShapedParagraph, toShow width: Double) -> ShapedParagraph {
        longer.withLock { longer in
            if let longer { return longer }
            // Sized from the advances shaped so far, and at least doubled so that a chain of
            // longer starts stays short.
            let advance = current.units.advances.reduce(0, +) / Double(max(current.utf16.count, 1))
            let wanted = Self.length(toShow: width, lines: paragraph.maximumLines, advance: advance)
            let made = shaper.shape(text, paragraph: paragraph, startLength: max(wanted, 2 * current.utf16.count), resolved: resolved)
            shaper.counters.paragraphsShaped.wrappingAdd(1, ordering: .relaxed)
            longer = made
            return made
        }
    }

    /// UTF-16 units of text that fill `lines` lines of `width` at `advance` points per unit, with
    /// room for the next line's first word. (Lines hold less: each ends short of a word.)
    static func length(toShow width: Double, lines: Int, advance: Double) -> Int {
        guard width.isFinite, advance > 0 else { return .max }
        let units = (Double(lines) * width / advance).rounded(.up)
        return units < 1e9 ? Int(units) + 16 : .max
    }

    /// Points per UTF-16 unit to expect of text in a face of `size` points, on the small side:
    /// 0.45 em. In Noto Sans, sentences in Latin script average 0.41 to 0.53 em a unit (Greek and
    /// Cyrillic over 0.5), and lines end short of a word, so the first start is seldom too short;
    /// one that is costs a second, longer one.
    static func smallAdvance(size: Double) -> Double { 0.45 * size }

    /// The offset to cut `utf16` at, at or after `length`, for a start to stand for the whole
    /// text, and whether every unit past it is below U+231A (none asks for emoji presentation,
    /// so each takes its primary face: see ``restBox``); nil when the whole text must be shaped
    /// (too short, right-to-left, no safe cut, a character past the cut that a primary face lacks).
    static func cut(
        _ utf16: UnsafeBufferPointer<UInt16>, atLeast length: Int, paragraph: ParagraphStyle, chains: [FallbackChain]
    ) -> (offset: Int, restBelowEmoji: Bool)? {
        guard paragraph.maximumLines > 0, paragraph.lineBreakMode != .truncateHead,
            paragraph.lineBreakMode != .truncateMiddle, length < utf16.count - 16,
            TextAnalysis.isLeftToRightThroughout(utf16, direction: paragraph.direction)
        else { return nil }
        var cut = max(length, 2)
        while cut < utf16.count && !isSafeCut(utf16, at: cut) { cut += 1 }
        guard cut < utf16.count else { return nil }
        // Noted as the units are checked: units skipped as printable ASCII are below it.
        var restBelowEmoji = true
        func isCovered(_ unit: UInt16) -> Bool {
            if unit >= 0x231A { restBelowEmoji = false }
            return unit == 0x0A || unit == 0x0D || chains.allSatisfy { $0.primary.covers(UInt32(unit)) }
        }
        let rest = UnsafeBufferPointer(rebasing: utf16[cut...])
        // Printable ASCII a word at a time when every primary face has it (most).
        let covered =
            chains.allSatisfy(\.primaryCoversPrintableASCII)
            ? rest.allSatisfyPastPrintableASCII(isCovered) : rest.allSatisfy(isCovered)
        return covered ? (cut, restBelowEmoji) : nil
    }

    /// Whether `cut` follows spaces that follow a letter, and a letter starts there.
    private static func isSafeCut(_ utf16: UnsafeBufferPointer<UInt16>, at cut: Int) -> Bool {
        guard utf16[cut - 1] == 0x20, SimpleLineBreaks.isAlphabetic(utf16[cut]) else { return false }
        var before = cut - 1
        while before > 0 && utf16[before] == 0x20 { before -= 1 }
        return utf16[before] != 0x20 && SimpleLineBreaks.isAlphabetic(utf16[before])
    }
}

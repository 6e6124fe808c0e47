// Fits the text left over after the last allowed line onto that line, with an ellipsis.

/// What a truncated line shows: kept stretches of units and where the ellipsis goes.
///
/// A class: every line carries an optional truncation, and copying lines then costs a
/// reference, not this struct's arrays.
final class Truncation: Sendable {
    /// Unit ranges shown, in logical order (one, or two for middle truncation).
    let kept: [Range<Int>]
    /// How many kept ranges come before the ellipsis (0 for head, 1 for middle and tail).
    let ellipsisPosition: Int
    /// Style index whose ellipsis is drawn.
    let styleIndex: Int
    /// Width of the kept units plus the ellipsis.
    let width: Double
    /// Pieces of words cut by the truncation, reshaped on their own.
    let cuts: [SegmentCut]

    init(kept: [Range<Int>], ellipsisPosition: Int, styleIndex: Int, width: Double, cuts: [SegmentCut]) {
        self.kept = kept
        self.ellipsisPosition = ellipsisPosition
        self.styleIndex = styleIndex
        self.width = width
        self.cuts = cuts
    }
}

/// Cuts the remaining text of a paragraph at grapheme boundaries so that it and an ellipsis fit
/// in a width, at the head, middle or tail.
///
/// The remaining text runs from the last allowed line's start to the end. Tail truncation keeps
/// the longest start of its first paragraph, head truncation the longest end of its last
/// paragraph, and middle truncation alternately one grapheme from each; whitespace next to the
/// ellipsis is dropped.
struct Truncator {
    let paragraph: ShapedParagraph
    let width: Double

    func truncate(from start: Int, mode: LineBreakMode) -> Truncation {
        let units = paragraph.units
        let count = units.count
        // The first paragraph of what remains, and the last one, without their separators.
        let breaks = units.mandatoryBreaks
        let firstBreak = breaks.partitionPoint { $0 <= start }
        let firstEnd = firstBreak < breaks.count ? breaks[firstBreak] : count
        let lastStart = firstBreak < breaks.count ? breaks[breaks.count - 1] : start
        func trimmedEnd(_ end: Int, from begin: Int) -> Int {
            var end = end
            while end > begin && units.flags[end - 1].contains(.lineSeparator) { end -= 1 }
            return end
        }
        let frontEnd = trimmedEnd(firstEnd, from: start)
        let backEnd = trimmedEnd(count, from: lastStart)

        func styleIndex(ofUnit unit: Int) -> Int {
            paragraph.items[units.item(ofUnit: min(max(unit, 0), count - 1))].styleIndex
        }

        switch mode {
        case .truncateHead:
            let style = styleIndex(ofUnit: backEnd - 1)
            let available = width - paragraph.ellipses[style].width
            var begin = backEnd
            var used = 0.0
            while begin > lastStart && used + units.advances[begin - 1] <= available + LineBreaker.tolerance {
                used += units.advances[begin - 1]
                begin -= 1
            }
            while begin < backEnd && units.flags[begin].contains(.whitespace) { begin += 1 }
            return finish(kept: [begin..<backEnd], ellipsisPosition: 0, style: style)
        case .truncateMiddle:
            let style = styleIndex(ofUnit: start)
            let available = width - paragraph.ellipses[style].width
            let sameParagraph = lastStart == start
            var front = start
            var back = backEnd
            var used = 0.0
            var progressed = true
            while progressed {
                progressed = false
                if front < frontEnd && (!sameParagraph || front < back)
                    && used + units.advances[front] <= available + LineBreaker.tolerance
                {
                    used += units.advances[front]
                    front += 1
                    progressed = true
                }
                if back > lastStart && (!sameParagraph || back > front)
                    && used + units.advances[back - 1] <= available + LineBreaker.tolerance
                {
                    used += units.advances[back - 1]
                    back -= 1
                    progressed = true
                }
            }
            while front > start && units.flags[front - 1].contains(.whitespace) { front -= 1 }
            while back < backEnd && units.flags[back].contains(.whitespace) { back += 1 }
            return finish(kept: [start..<front, back..<backEnd], ellipsisPosition: 1, style: style)
        default:
            var end = start
            var used = 0.0
            let style = styleIndex(ofUnit: start)
            let available = width - paragraph.ellipses[style].width
            while end < frontEnd && used + units.advances[end] <= available + LineBreaker.tolerance {
                used += units.advances[end]
                end += 1
            }
            while end > start && units.flags[end - 1].contains(.whitespace) { end -= 1 }
            return finish(kept: [start..<end], ellipsisPosition: 1, style: styleIndex(ofUnit: end - 1))
        }
    }

    /// The truncation with exact widths: cut words are reshaped, and while that overflows, the
    /// kept text gives up one grapheme next to the ellipsis.
    private func finish(kept: [Range<Int>], ellipsisPosition: Int, style: Int) -> Truncation {
        var kept = kept
        while true {
            var width = paragraph.ellipses[style].width
            var cuts: [SegmentCut] = []
            for range in kept {
                let exact = paragraph.exactWidth(of: range)
                width += exact.width
                cuts += exact.cuts
            }
            // Give up the grapheme beside the ellipsis from the longer kept stretch.
            let shrinkable = ellipsisPosition == 0 ? 0 : (kept.count > 1 && kept[1].count > kept[0].count ? 1 : 0)
            if width <= self.width + LineBreaker.tolerance || kept[shrinkable].isEmpty {
                return Truncation(kept: kept, ellipsisPosition: ellipsisPosition, styleIndex: style, width: width, cuts: cuts)
            }
            let range = kept[shrinkable]
            kept[shrinkable] =
                shrinkable == 0 && ellipsisPosition == 0 || shrinkable == 1
                ? (range.lowerBound + 1)..<range.upperBound : range.lowerBound..<(range.upperBound - 1)
        }
    }
}

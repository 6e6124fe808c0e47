// Exact widths for ranges that cut through a word, by reshaping the cut pieces.

/// A piece of a word that a line or truncation cut off, shaped on its own.
struct SegmentCut: Sendable {
    var item: Int
    /// The piece, in UTF-16 offsets.
    var range: Range<Int>
    var segment: ShapedSegment
}

extension ShapedParagraph {
    /// The width of units `range` as HarfBuzz would shape that text on its own, and the cut
    /// pieces reshaped to get it.
    ///
    /// Unit advances come from shaping whole words, so a range that starts or ends inside a word
    /// (an over-long word broken between graphemes, char wrap, truncation) would carry kerning
    /// and contextual forms across the cut. Those pieces are reshaped, unless HarfBuzz said the
    /// word is safe to break at the cut (then the piece's glyphs are the word's); whole words
    /// are not.
    func exactWidth(of range: Range<Int>, summed known: Double? = nil) -> (width: Double, cuts: [SegmentCut]) {
        guard !range.isEmpty else { return (0, []) }
        // The common case: the range starts and ends between words; nothing to reshape.
        if units.flags[range.lowerBound].contains(.segmentStart)
            && (range.upperBound == units.count || units.flags[range.upperBound].contains(.segmentStart))
        {
            if let known { return (known, []) }
            var width = 0.0
            for unit in range { width += units.advances[unit] }
            return (width, [])
        }
        let lower = units.start(ofUnit: range.lowerBound)
        let upper = units.start(ofUnit: range.upperBound)
        // The pieces cut off at the head and the tail (the same piece when one word holds both).
        var head: (item: Int, range: Range<Int>)?
        var tail: (item: Int, range: Range<Int>)?
        let headItem = units.item(ofUnit: range.lowerBound)
        if let (placed, word) = segment(containing: lower, item: headItem), word.lowerBound < lower {
            let piece = lower..<min(word.upperBound, upper)
            if !placed.segment.keepsGlyphs(of: piece, startingAt: word.lowerBound) { head = (headItem, piece) }
        }
        let tailItem = units.item(ofUnit: range.upperBound - 1)
        if let (placed, word) = segment(containing: upper - 1, item: tailItem), upper < word.upperBound {
            let piece = max(word.lowerBound, lower)..<upper
            if head?.range != piece && !placed.segment.keepsGlyphs(of: piece, startingAt: word.lowerBound) {
                tail = (tailItem, piece)
            }
        }
        var width = known ?? 0
        if known == nil { for unit in range { width += units.advances[unit] } }
        guard head != nil || tail != nil else { return (width, []) }
        var cuts: [SegmentCut] = []
        for piece in [head, tail].compactMap({ $0 }) {
            let item = items[piece.item]
            let segment = cutPieces.segment(for: piece.range) {
                utf16.withUnsafeBufferPointer { buffer in
                    segmentShaper.shaper.shape(
                        UnsafeBufferPointer(rebasing: buffer[piece.range]), face: item.face, key: item.shapeKey,
                        language: segmentShaper.language)
                }
            }
            let reshaped = segment.width(scale: item.scale, letterSpacing: item.letterSpacing)
            var summed = 0.0
            var unit = range.lowerBound
            while unit < range.upperBound && units.start(ofUnit: unit) < piece.range.upperBound {
                if units.start(ofUnit: unit) >= piece.range.lowerBound { summed += units.advances[unit] }
                unit += 1
            }
            width += reshaped - summed
            cuts.append(SegmentCut(item: piece.item, range: piece.range, segment: segment))
        }
        return (width, cuts)
    }

    /// The segment of `item` holding UTF-16 offset `offset`, and its range.
    private func segment(containing offset: Int, item: Int) -> (PlacedSegment, Range<Int>)? {
        let segments = segments(ofItem: item)
        let after = segments.partitionPoint { $0.start <= offset }
        guard after > 0 else { return nil }
        let found = segments[after - 1]
        let end = found.start + found.segment.length
        return offset < end ? (found, found.start..<end) : nil
    }
}

// Positions a line's glyphs: visual order, alignment, letter spacing, justification.

internal import CGalleyShims

/// Produces a line's glyph runs in visual order, with x positions after alignment.
struct GlyphRunBuilder {
    let paragraph: ShapedParagraph
    let containerWidth: Double

    /// A stretch of a line drawn as one run: units of one item, or the ellipsis.
    private enum Piece {
        case units(Range<Int>, item: Int)
        case ellipsis(style: Int, cluster: Int)
    }

    /// Appends the line's runs to `runs` (appended in place: runs returned in an array of their
    /// own would be copied out of it, retaining and releasing each run's face and arrays); returns
    /// the line's x offset.
    func appendRuns(for line: PlacedLine, lineIndex: Int, to runs: inout [GlyphRun]) -> Double {
        let units = paragraph.units
        let lineStart = units.start(ofUnit: line.span.start)
        let baseLevel = paragraph.baseLevel(at: lineStart)
        var pieces: [Piece] = []
        if let truncation = line.truncation {
            for (index, range) in truncation.kept.enumerated() {
                if index == truncation.ellipsisPosition { pieces.append(ellipsisPiece(truncation, before: range)) }
                appendPieces(for: range, to: &pieces)
            }
            if truncation.ellipsisPosition == truncation.kept.count {
                let cluster = truncation.kept.last.map { units.start(ofUnit: $0.upperBound) } ?? lineStart
                pieces.append(.ellipsis(style: truncation.styleIndex, cluster: cluster))
            }
        } else {
            appendPieces(for: line.span.start..<line.span.contentEnd, to: &pieces)
        }

        func level(of piece: Piece) -> UInt8 {
            switch piece {
            case .units(_, let item): paragraph.items[item].level
            case .ellipsis: baseLevel
            }
        }
        // Visual order, when any piece is not left-to-right at level 0 (else logical order,
        // without the arrays: most lines of most text).
        var visualOrder: [Int32]?
        if pieces.contains(where: { level(of: $0) != 0 }) {
            let levels = pieces.map(level(of:))
            var visual = [Int32](filling: 0, count: levels.count)
            CGalley_bidiReorderVisual(levels, Int32(levels.count), &visual)
            visualOrder = visual
        }

        let alignment = resolvedAlignment(baseLevel: baseLevel, line: line)
        var extraPerSpace = 0.0
        var x = 0.0
        switch alignment {
        case .right: x = containerWidth - line.width
        case .center: x = (containerWidth - line.width) / 2
        case .justified:
            let spaces = (line.span.start..<line.span.contentEnd).filter { units.flags[$0].contains(.whitespace) }.count
            if spaces > 0 && line.width < containerWidth { extraPerSpace = (containerWidth - line.width) / Double(spaces) }
        default: break
        }
        let lineX = x
        for position in pieces.indices {
            let index = visualOrder.map { Int($0[position]) } ?? position
            var run: GlyphRun
            switch pieces[index] {
            case .units(let range, let item):
                run = glyphRun(units: range, item: item, cuts: line.cuts, x: &x, baseline: line.baseline, extraPerSpace: extraPerSpace)
            case .ellipsis(let style, let cluster):
                run = ellipsisRun(style: style, cluster: cluster, level: baseLevel, x: &x, baseline: line.baseline)
            }
            run.lineIndex = lineIndex
            runs.append(run)
        }
        return lineX
    }

    // MARK: - Private helpers

    private func resolvedAlignment(baseLevel: UInt8, line: PlacedLine) -> TextAlignment {
        switch paragraph.paragraphStyle.alignment {
        case .natural: baseLevel & 1 == 1 ? .right : .left
        case .justified where line.span.endsParagraph || line.truncation != nil: baseLevel & 1 == 1 ? .right : .left
        case let alignment: alignment
        }
    }

    private func ellipsisPiece(_ truncation: Truncation, before range: Range<Int>) -> Piece {
        .ellipsis(style: truncation.styleIndex, cluster: paragraph.units.start(ofUnit: range.lowerBound))
    }

    /// Splits units into pieces at item boundaries.
    private func appendPieces(for range: Range<Int>, to pieces: inout [Piece]) {
        var start = range.lowerBound
        while start < range.upperBound {
            let item = paragraph.units.item(ofUnit: start)
            var end = start + 1
            while end < range.upperBound && paragraph.units.item(ofUnit: end) == item { end += 1 }
            pieces.append(.units(start..<end, item: item))
            start = end
        }
    }

    private func glyphRun(
        units range: Range<Int>, item itemIndex: Int, cuts: [SegmentCut], x: inout Double, baseline: Double,
        extraPerSpace: Double
    ) -> GlyphRun {
        // The item's fields read where they are: a copy of the item would retain and release its
        // face, segments and cache key for every run.
        let items = paragraph.items
        let scale = items[itemIndex].scale
        let letterSpacing = items[itemIndex].letterSpacing
        let isRightToLeft = items[itemIndex].isRightToLeft
        let lower = paragraph.units.start(ofUnit: range.lowerBound)
        let upper = paragraph.units.start(ofUnit: range.upperBound)
        // A word cut by the line or truncation is drawn from its reshaped pieces.
        var logical = paragraph.segments(ofItem: itemIndex)
        if cuts.contains(where: { $0.item == itemIndex }) {
            logical = logical.flatMap { placed -> [PlacedSegment] in
                let end = placed.start + placed.segment.length
                let inside = cuts.filter { $0.item == itemIndex && $0.range.lowerBound >= placed.start && $0.range.upperBound <= end }
                return inside.isEmpty
                    ? [placed]
                    : inside.sorted { $0.range.lowerBound < $1.range.lowerBound }
                        .map { PlacedSegment(start: $0.range.lowerBound, segment: $0.segment) }
            }
        }
        // The run's segments: found by binary search (segments are in logical order), so that a
        // line of a long paragraph does not walk every segment before it.
        let first = logical.partitionPoint { $0.start + $0.segment.length <= lower }
        var last = first
        while last < logical.count && logical[last].start < upper { last += 1 }
        // The run's arrays, filled in locals and read through raw buffers (segments and glyphs
        // read by value would retain each segment and glyph array, twice per segment).
        let capacity = upper - lower  // glyphs are usually no more than UTF-16 units
        var glyphIDs: [UInt32] = []
        var positions: [LayoutPoint] = []
        var advances: [Double] = []
        var clusters: [Int] = []
        glyphIDs.reserveCapacity(capacity)
        positions.reserveCapacity(capacity)
        advances.reserveCapacity(capacity)
        clusters.reserveCapacity(capacity)
        logical.withUnsafeBufferPointer { logical in
            for position in first..<last {
                // In visual order: a right-to-left item's segments run backwards.
                let placed = isRightToLeft ? first + last - 1 - position : position
                let segmentStart = logical[placed].start
                logical[placed].segment.glyphs.withUnsafeBufferPointer { glyphs in
                    for glyph in glyphs.indices {
                        let cluster = segmentStart + Int(glyphs[glyph].cluster)
                        guard cluster >= lower && cluster < upper else { continue }
                        let endsCluster = glyph + 1 == glyphs.count || glyphs[glyph + 1].cluster != glyphs[glyph].cluster
                        var advance = Double(glyphs[glyph].advance) * scale
                        if endsCluster {
                            advance += letterSpacing
                            if extraPerSpace != 0 && CharacterClass.isHangingWhitespace(UInt32(paragraph.utf16[cluster])) {
                                advance += extraPerSpace
                            }
                        }
                        glyphIDs.append(glyphs[glyph].id)
                        positions.append(
                            LayoutPoint(
                                x: x + Double(glyphs[glyph].xOffset) * scale,
                                y: baseline - Double(glyphs[glyph].yOffset) * scale))
                        advances.append(advance)
                        clusters.append(cluster)
                        x += advance
                    }
                }
            }
        }
        return GlyphRun(
            face: items[itemIndex].face, size: items[itemIndex].size, styleIndex: items[itemIndex].styleIndex, lineIndex: 0,
            bidiLevel: items[itemIndex].level,
            glyphs: glyphIDs, positions: positions, advances: advances, clusters: clusters, isEllipsis: false)
    }

    private func ellipsisRun(style: Int, cluster: Int, level: UInt8, x: inout Double, baseline: Double) -> GlyphRun {
        let ellipsis = paragraph.ellipses[style]
        let segment = ellipsis.segment
        let glyphs = segment.glyphs
        var run = GlyphRun(
            face: ellipsis.face, size: ellipsis.size, styleIndex: style, lineIndex: 0, bidiLevel: level, glyphs: glyphs.map(\.id),
            positions: [], advances: [], clusters: Array(filling: cluster, count: glyphs.count), isEllipsis: true)
        for glyph in glyphs.indices {
            let advance =
                Double(glyphs[glyph].advance) * ellipsis.scale
                + (glyph + 1 == glyphs.count ? ellipsis.letterSpacing : 0)
            run.positions.append(
                LayoutPoint(
                    x: x + Double(glyphs[glyph].xOffset) * ellipsis.scale,
                    y: baseline - Double(glyphs[glyph].yOffset) * ellipsis.scale))
            run.advances.append(advance)
            x += advance
        }
        return run
    }
}

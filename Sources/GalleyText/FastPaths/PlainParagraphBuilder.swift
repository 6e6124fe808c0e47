// Builds a paragraph of plain text in three passes over its units instead of the general ten.

internal import CHarfBuzz

/// The items and break units of a paragraph of plain text, as ``ParagraphBuilder`` makes them,
/// built in three passes over the text.
///
/// Plain text is in one style whose primary face has all of printable ASCII, and each of its
/// units is one ``PlainUnits`` marks plain (a grapheme of its own below U+2070, that cannot
/// make text right-to-left and whose line-break class ``SimpleLineBreaks`` handles) and that the
/// primary face has; the paragraph neither wraps by character nor is forced right to left, and
/// its locale's line breaks are the pair table's. Most paragraphs of Latin, Greek and Cyrillic
/// text are plain. Such text has no fallback, bidi, clusters or mandatory breaks to work out,
/// so one pass finds its break opportunities, scripts (hence items) and segment starts, a
/// second shapes its segments, and a third sums its words. Skipping the general builder's
/// analysis, font assignment, itemization and unit passes saves much of a new row's cost.
///
/// The tests hold the result to the general builder's on the same text, field by field.
enum PlainParagraphBuilder {
    /// The parts of the paragraph of `text` in `style`, or nil when the text is not plain (the
    /// caller checks the paragraph style and locale). Without `keepingSegments`, the items are
    /// left without their segments (see ``ShapedParagraph/segments(ofItem:)``).
    static func build(
        _ text: UnsafeBufferPointer<UInt16>, style: TextStyle, chain: FallbackChain, segmentShaper: SegmentShaper,
        keepingSegments: Bool = true
    ) -> ParagraphParts? {
        guard !text.isEmpty, chain.primaryCoversPrintableASCII else { return nil }
        let count = text.count
        var flags = [UnitFlags](filling: [], count: count)
        // Most paragraphs are one to three items: room made once.
        var itemEnds: [Int] = []
        itemEnds.reserveCapacity(4)
        let primary = chain.primary
        let firstScript = flags.withUnsafeMutableBufferPointer { flags in
            scan(text, primary: primary, flags: flags, itemEnds: &itemEnds)
        }
        guard let firstScript else { return nil }

        var items: [ShapedItem] = []
        items.reserveCapacity(itemEnds.count)
        var advances = [Double](filling: 0, count: count)
        flags.withUnsafeBufferPointer { flags in
            advances.withUnsafeMutableBufferPointer { advances in
                var start = 0
                for end in itemEnds {
                    // Each item after the first starts with a unit whose script it takes.
                    let script = start == 0 ? firstScript : PlainUnits.script(of: text[start])
                    var item = ShapedItem(
                        range: start..<end, styleIndex: 0, style: style, face: primary, level: 0, script: script,
                        segmentShaper: segmentShaper)
                    if keepingSegments {
                        item.segments = shapeSegments(of: item, text, flags: flags, shaper: segmentShaper, advances: advances)
                    } else {
                        var space: ShapedSegment?
                        forEachSegment(of: item.range, text, flags: flags) { range in
                            item.writeAdvances(ofSegment: range, of: text, space: &space, shaper: segmentShaper, advances: advances)
                        }
                    }
                    items.append(item)
                    start = end
                }
            }
        }
        // Left empty for a paragraph of one item (see ``BreakUnits/item(ofUnit:)``).
        var unitItems: [Int32] = []
        if items.count > 1 {
            unitItems = [Int32](filling: 0, count: count)
            for (index, item) in items.enumerated() {
                for unit in item.range { unitItems[unit] = Int32(index) }
            }
        }
        let (words, extent) = flags.withUnsafeBufferPointer { flags in
            advances.withUnsafeBufferPointer { advances in sumWords(flags: flags, advances: advances) }
        }
        let units = BreakUnits(
            starts: [], advances: advances, flags: flags, items: unitItems, words: words, mandatoryBreaks: [],
            unbrokenExtent: extent)
        return ParagraphParts(items: items, itemUnitEnds: itemEnds, units: units, missing: [])
    }

    /// Writes each unit's flags (whitespace, a break before, a segment start) and where items
    /// end, and returns the first item's script; nil when a unit is not plain.
    ///
    /// Items end where the script changes: a unit with a script of its own that differs from the
    /// one before. Neutral units (spaces, digits, punctuation) take the script before them, and
    /// those before the first script that one, as ``TextAnalysis`` resolves them. Segments, as
    /// the general builder cuts them: each space, each run of other units between spaces, cut
    /// where an item ends.
    private static func scan(
        _ text: UnsafeBufferPointer<UInt16>, primary: FontFace, flags: UnsafeMutableBufferPointer<UnitFlags>,
        itemEnds: inout [Int]
    ) -> UInt32? {
        var firstScript = -1
        let isPlain = PlainUnits.entries.withUnsafeBufferPointer { entries in
            SimpleLineBreaks.withSteps { steps in
                var walk = SimpleLineBreaks.Walk()
                // The current item's script (an index into `scripts`); -1 until a unit has one.
                var script = -1
                var afterSpace = true
                var index = 0
                while index < text.count {
                    let unit = text[index]
                    guard Int(unit) < PlainUnits.limit else { return false }
                    let entry = entries[Int(unit)]
                    // Printable ASCII is in the face (the caller checked); other units are looked up.
                    guard entry & PlainUnits.plainBit != 0, unit < 0x7F || primary.covers(UInt32(unit)),
                        let breaks = walk.breaksBefore(PlainUnits.lineBreakClass(entry), steps: steps)
                    else { return false }
                    var unitFlags: UnitFlags
                    if unit == 0x20 {
                        // The one space of the classes handled, and the one hanging whitespace.
                        unitFlags = [.whitespace, .segmentStart]
                        afterSpace = true
                    } else {
                        unitFlags = afterSpace ? .segmentStart : []
                        if breaks { unitFlags.insert(.breakBefore) }
                        afterSpace = false
                    }
                    if entry & PlainUnits.ownScriptBit != 0 {
                        let unitScript = PlainUnits.scriptIndex(entry)
                        if unitScript != script {
                            if script >= 0 {
                                itemEnds.append(index)
                                unitFlags.insert(.segmentStart)
                            } else {
                                firstScript = unitScript
                            }
                            script = unitScript
                        }
                    }
                    flags[index] = unitFlags
                    index += 1
                    // Letters after a letter in the item's script, most units, in a loop of
                    // their own: they start no segment or item and break nowhere, so their flags
                    // stay empty (as made) and the walk stays as it is (see `SimpleLineBreaks.mark`).
                    guard walk.followsLetter && script >= 0 else { continue }
                    let letter = PlainUnits.plainBit | PlainUnits.ownScriptBit | UInt16(script) << 8 | UInt16(SimpleLineBreaks.alphabetic)
                    while index < text.count {
                        let next = text[index]
                        guard Int(next) < PlainUnits.limit, entries[Int(next)] & PlainUnits.letterMask == letter,
                            next < 0x7F || primary.covers(UInt32(next))
                        else { break }
                        index += 1
                    }
                }
                itemEnds.append(text.count)
                return true
            }
        }
        guard isPlain else { return nil }
        return firstScript >= 0 ? PlainUnits.scripts[firstScript] : HB_SCRIPT_COMMON.rawValue
    }

    /// The item's segments, shaped; their advances written per unit (see
    /// ``ShapedItem/placeSegment(_:of:space:shaper:advances:)``).
    private static func shapeSegments(
        of item: ShapedItem, _ text: UnsafeBufferPointer<UInt16>, flags: UnsafeBufferPointer<UnitFlags>,
        shaper segmentShaper: SegmentShaper, advances: UnsafeMutableBufferPointer<Double>
    ) -> [PlacedSegment] {
        var segments: [PlacedSegment] = []
        // A word and a space every ~6 units in alphabetic text: most items never regrow the array.
        segments.reserveCapacity(item.range.count / 3 + 1)
        var space: ShapedSegment?
        forEachSegment(of: item.range, text, flags: flags) { range in
            segments.append(item.placeSegment(range, of: text, space: &space, shaper: segmentShaper, advances: advances))
        }
        return segments
    }

    /// The segments of an item built without them (see ``ShapedParagraph/segments(ofItem:)``),
    /// from its text and its units' flags: as ``build(_:style:chain:segmentShaper:keepingSegments:)``
    /// would have kept them.
    static func segments(
        of item: ShapedItem, _ text: UnsafeBufferPointer<UInt16>, flags: UnsafeBufferPointer<UnitFlags>, shaper: SegmentShaper
    ) -> [PlacedSegment] {
        // Advances written again, to room thrown away: the units already hold them.
        withUnsafeTemporaryAllocation(of: Double.self, capacity: text.count) { advances in
            advances.initialize(repeating: 0)
            return shapeSegments(of: item, text, flags: flags, shaper: shaper, advances: advances)
        }
    }

    /// Calls `body` with the range of each of the segments in `range`, in order: each space,
    /// each run of other units up to the next segment start.
    @inline(__always)
    private static func forEachSegment(
        of range: Range<Int>, _ text: UnsafeBufferPointer<UInt16>, flags: UnsafeBufferPointer<UnitFlags>,
        _ body: (Range<Int>) -> Void
    ) {
        var start = range.lowerBound
        while start < range.upperBound {
            var end = start + 1
            if text[start] != 0x20 {
                while end < range.upperBound && !flags[end].contains(.segmentStart) { end += 1 }
            }
            body(start..<end)
            start = end
        }
    }

    /// The units grouped into break words (each starting at a break opportunity) and summed,
    /// with the furthest any word reaches on one line (see ``BreakUnits/unbrokenExtent``),
    /// found as ``BreakUnits`` finds it: in a pass of its own, as the words are summed.
    /// (Summing them segment by segment as they are shaped would cost more.)
    private static func sumWords(
        flags: UnsafeBufferPointer<UnitFlags>, advances: UnsafeBufferPointer<Double>
    ) -> (words: [BreakWord], extent: Double) {
        var words: [BreakWord] = []
        // About one word in five units for alphabetic text: most paragraphs never regrow the array.
        words.reserveCapacity(flags.count / 5 + 1)
        var x = 0.0
        var extent = 0.0
        func append(_ word: BreakWord) {
            if word.contentEnd > word.start { extent = max(extent, x + word.contentWidth) }
            x += word.width
            words.append(word)
        }
        var word = WordSum(start: 0, flags: [])
        var index = 0
        while index < flags.count {
            let unitFlags = flags[index]
            if unitFlags.contains(.breakBefore) {
                append(word.finished(contentEndsSegment: flags[word.contentEnd].contains(.segmentStart)))
                word = WordSum(start: index, flags: unitFlags)
            }
            word.add(advances[index], isWhitespace: unitFlags.contains(.whitespace), at: index)
            index += 1
            // Units with no flags (most, inside words) in a loop of their own.
            while index < flags.count && flags[index].isEmpty {
                word.add(advances[index], isWhitespace: false, at: index)
                index += 1
            }
        }
        append(word.finished(contentEndsSegment: word.contentEnd == flags.count || flags[word.contentEnd].contains(.segmentStart)))
        return (words, extent)
    }
}

// Builds any paragraph's items and break units: fallback, itemization, shaping, word sums.

/// The working state of a paragraph being built from any text: any styles, fallback, clusters,
/// bidi and breaks (plain text has a faster way, ``PlainParagraphBuilder``).
struct ParagraphBuilder {
    let utf16: [UInt16]
    let analysis: TextAnalysis
    let styles: [TextStyle]
    let chains: [FallbackChain]
    let segmentShaper: SegmentShaper

    /// Per grapheme: its start (and the text's length at the end), style index and face (an
    /// index into its style's chain, so that building the arrays retains no faces). The starts
    /// are empty when every grapheme is one unit in its primary face, the styles when there is
    /// one, and the faces when every one is 0 (see `unitsTakePrimaryFaces`): read them through
    /// `graphemeStart(_:)`, `styleIndex(ofGrapheme:)` and `faceIndex(ofGrapheme:)`.
    var graphemeStarts: [Int] = []
    var graphemeStyles: [Int] = []
    var graphemeFaces: [Int] = []
    /// Whether every grapheme is one unit in face 0 of its chain (see ``assignFonts(_:runs:)``).
    var unitsTakePrimaryFaces = false
    var missing: [Unicode.Scalar] = []
    /// The scalars in `missing`, to find one without searching the list (a text can hold a
    /// million distinct characters no font has).
    private var missingSeen = Set<UInt32>()
    var items: [ShapedItem] = []
    /// Per item: the index of the first grapheme (break unit) after it.
    var itemUnitEnds: [Int] = []

    var graphemeCount: Int { graphemeStarts.isEmpty ? utf16.count : graphemeStarts.count - 1 }
    func graphemeStart(_ index: Int) -> Int { graphemeStarts.isEmpty ? index : graphemeStarts[index] }
    func styleIndex(ofGrapheme index: Int) -> Int { graphemeStyles.isEmpty ? 0 : graphemeStyles[index] }
    func faceIndex(ofGrapheme index: Int) -> Int { graphemeFaces.isEmpty ? 0 : graphemeFaces[index] }

    init(
        utf16: [UInt16], analysis: TextAnalysis, styles: [TextStyle], chains: [FallbackChain],
        segmentShaper: SegmentShaper
    ) {
        self.utf16 = utf16
        self.analysis = analysis
        self.styles = styles
        self.chains = chains
        self.segmentShaper = segmentShaper
    }

    /// The paragraph's parts: fonts assigned, items found, segments shaped, units summed.
    mutating func build(_ text: UnsafeBufferPointer<UInt16>, runs: [AttributedText.Run]) -> ParagraphParts {
        assignFonts(text, runs: runs)
        itemize()
        let units = shapeItems(text)
        return ParagraphParts(items: items, itemUnitEnds: itemUnitEnds, units: units, missing: missing)
    }

    // MARK: - Font fallback

    /// Picks a face for every grapheme cluster: the first face in its style's chain that has
    /// every (non-ignorable) scalar of the cluster. Emoji-presentation clusters try colour faces
    /// first. Invisible clusters (spaces, controls, format characters) stay in the current face
    /// when it has them, as Pango does: a space should never switch fonts.
    private mutating func assignFonts(_ text: UnsafeBufferPointer<UInt16>, runs: [AttributedText.Run]) {
        if analysis.unitsAreGraphemes && everyUnitTakesPrimaryFace(text, runs: runs) {
            // What the loop below gives such text, without its decision per grapheme: a grapheme
            // per unit (the starts left implicit), each in face 0 of its run's chain, nothing missing.
            if runs.count > 1 {
                var styleIndices = [Int](filling: 0, count: text.count)
                for (styleIndex, run) in runs.enumerated().dropFirst() {
                    for index in run.range { styleIndices[index] = styleIndex }
                }
                graphemeStyles = styleIndices
            }
            unitsTakePrimaryFaces = true
            return
        }
        var scalars: [UInt32] = []
        // Written through raw buffers sized for one grapheme per unit, then trimmed: this runs for
        // every grapheme of every new paragraph, and appends and bounds checks would be much of it.
        let capacity = text.count + 1
        var starts = [Int](filling: 0, count: capacity)
        var styleIndices = [Int](filling: 0, count: capacity)
        var faceIndices = [Int](filling: 0, count: capacity)
        var count = 0
        let boundaries = analysis.boundaries
        starts.withUnsafeMutableBufferPointer { starts in
            styleIndices.withUnsafeMutableBufferPointer { styleIndices in
                faceIndices.withUnsafeMutableBufferPointer { faceIndices in
                    boundaries.withUnsafeBufferPointer { boundaries in
                        for (styleIndex, run) in runs.enumerated() {
                            let chain = chains[styleIndex]
                            let coversASCII = chain.primaryCoversPrintableASCII
                            var current: Int?
                            var start = run.range.lowerBound
                            while start < run.range.upperBound {
                                var end = start + 1
                                while end < run.range.upperBound && !boundaries[end].contains(.grapheme) { end += 1 }
                                let face: Int
                                let unit = text[start]
                                if end == start + 1 && unit > 0x20 && unit < 0x7F && coversASCII {
                                    // Visible ASCII in a face that has it all: the commonest case, decided at once.
                                    face = 0
                                } else if end == start + 1 && unit == 0x20 && (current ?? 0) == 0 && coversASCII {
                                    // A space after text in the primary face (or first) stays there, as any
                                    // invisible character does: the next commonest case.
                                    face = 0
                                } else if end == start + 1 && unit < 0x231A && unit & 0xF800 != 0xD800 {
                                    // One BMP character that cannot ask for emoji: the common case, without arrays.
                                    face = chooseFace(forSingle: UInt32(unit), chain: chain, current: current)
                                } else {
                                    scalars.removeAll(keepingCapacity: true)
                                    var offset = start
                                    while offset < end {
                                        let (scalar, length) = decodeScalar(text, at: offset)
                                        scalars.append(scalar)
                                        offset += length
                                    }
                                    face = chooseFace(for: scalars, chain: chain, current: current)
                                }
                                starts[count] = start
                                styleIndices[count] = styleIndex
                                faceIndices[count] = face
                                count += 1
                                current = face
                                start = end
                            }
                        }
                    }
                }
            }
        }
        starts[count] = utf16.count
        starts.removeLast(capacity - count - 1)
        styleIndices.removeLast(capacity - count)
        faceIndices.removeLast(capacity - count)
        graphemeStarts = starts
        graphemeStyles = styleIndices
        graphemeFaces = faceIndices
    }

    /// Whether the choice below gives every unit of `text`, each a grapheme of its own, face 0
    /// of its run's chain and finds nothing missing: printable ASCII in a primary face that has
    /// it all, and characters below U+231A (none asks for emoji) that separate lines, are
    /// default ignorable, or are in the primary face. (The current face is then never another,
    /// so no space or invisible character stays in one.)
    private func everyUnitTakesPrimaryFace(_ text: UnsafeBufferPointer<UInt16>, runs: [AttributedText.Run]) -> Bool {
        for (styleIndex, run) in runs.enumerated() {
            let chain = chains[styleIndex]
            let primary = chain.faces[0]
            let coversASCII = chain.primaryCoversPrintableASCII
            func takesPrimaryFace(_ unit: UInt16) -> Bool {
                if unit &- 0x20 < 0x5F { return coversASCII }
                let scalar = UInt32(unit)
                return unit < 0x231A
                    && (CharacterClass.isLineSeparator(scalar) || CharacterClass.isDefaultIgnorable(scalar) || primary.covers(scalar))
            }
            // Printable ASCII, most units, goes four at a time when the face has it all.
            let units = UnsafeBufferPointer(rebasing: text[run.range])
            guard coversASCII ? units.allSatisfyPastPrintableASCII(takesPrimaryFace) : units.allSatisfy(takesPrimaryFace)
            else { return false }
        }
        return true
    }

    /// ``chooseFace(for:chain:current:)`` for a cluster of one BMP scalar below U+231A.
    private mutating func chooseFace(forSingle scalar: UInt32, chain: FallbackChain, current: Int?) -> Int {
        let faces = chain.faces
        if CharacterClass.isLineSeparator(scalar) { return current ?? 0 }
        let ignorable = CharacterClass.isDefaultIgnorable(scalar)
        // A space stays in the face before it, as Pango keeps it, unless that face draws colour
        // emoji: its space is an emoji's width.
        if let current, current != 0, !faces[current].hasColorGlyphs, Self.isInvisible(scalar), ignorable || faces[current].covers(scalar) {
            return current
        }
        if ignorable || faces[0].covers(scalar) { return 0 }
        for index in faces.indices.dropFirst() where faces[index].covers(scalar) { return index }
        if let value = Unicode.Scalar(scalar), missingSeen.insert(scalar).inserted { missing.append(value) }
        return 0
    }

    /// The index in `chain` of the face for a cluster of `scalars`.
    private mutating func chooseFace(
        for scalars: [UInt32], chain: FallbackChain, current: Int?
    ) -> Int {
        let first = scalars[0]
        if CharacterClass.isLineSeparator(first) { return current ?? 0 }
        let faces = chain.faces
        func covers(_ index: Int) -> Bool {
            scalars.allSatisfy { CharacterClass.isDefaultIgnorable($0) || faces[index].covers($0) }
        }
        let wantsEmoji = Self.wantsEmojiPresentation(scalars)
        // As for a single scalar above.
        if let current, !wantsEmoji, !faces[current].hasColorGlyphs, Self.isInvisible(first), covers(current) { return current }
        if wantsEmoji, let index = faces.indices.first(where: { faces[$0].hasColorGlyphs && covers($0) }) { return index }
        if let index = faces.indices.first(where: covers) { return index }
        for scalar in scalars where !CharacterClass.isDefaultIgnorable(scalar) && !faces[0].covers(scalar) {
            if let value = Unicode.Scalar(scalar), missingSeen.insert(scalar).inserted { missing.append(value) }
        }
        return 0
    }

    /// Spaces, controls, format characters and separators: what `g_unichar_isgraph` rejects.
    private static func isInvisible(_ scalar: UInt32) -> Bool {
        // ASCII, the common case, without a Unicode property lookup.
        if scalar < 0x80 { return scalar <= 0x20 || scalar == 0x7F }
        guard let value = Unicode.Scalar(scalar) else { return true }
        switch value.properties.generalCategory {
        case .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .unassigned: return true
        default: return CharacterClass.isDefaultIgnorable(scalar)
        }
    }

    /// Whether a cluster asks for emoji presentation: VS16, an emoji-presentation base without
    /// VS15, a keycap, or a regional-indicator flag.
    private static func wantsEmojiPresentation(_ scalars: [UInt32]) -> Bool {
        // No character below U+231A has emoji presentation by default; only a selector or a
        // keycap in the same cluster could ask for it.
        if scalars.count == 1 && scalars[0] < 0x231A { return false }
        if scalars.contains(0xFE0F) || scalars.contains(0x20E3) { return true }
        if scalars.contains(0xFE0E) { return false }
        guard let first = Unicode.Scalar(scalars[0]) else { return false }
        return first.properties.isEmojiPresentation || (0x1F1E6...0x1F1FF).contains(scalars[0])
    }

    // MARK: - Itemization

    /// Groups graphemes into items of one style, face, script and bidi level.
    private mutating func itemize() {
        guard graphemeCount > 0 else { return }
        let ends = unitsTakePrimaryFaces ? itemEndsOfPrimaryFaceUnits() : itemEnds()
        items.reserveCapacity(ends.count)
        var itemStart = 0
        for end in ends {
            appendItem(graphemes: itemStart..<end)
            itemStart = end
        }
        // A break unit is a grapheme: these are the items' unit ends too.
        itemUnitEnds = ends
    }

    /// Where items end (in graphemes), found over raw buffers: this visits every grapheme of
    /// every new paragraph.
    private func itemEnds() -> [Int] {
        var ends: [Int] = []
        ends.reserveCapacity(8)
        let scripts = analysis.scripts
        let levels = analysis.levels
        graphemeStarts.withUnsafeBufferPointer { starts in
            graphemeStyles.withUnsafeBufferPointer { styleIndices in
                graphemeFaces.withUnsafeBufferPointer { faces in
                    scripts.withUnsafeBufferPointer { scripts in
                        levels.withUnsafeBufferPointer { levels in
                            var itemStart = 0
                            for index in 1..<faces.count {
                                let start = starts[index]
                                let first = starts[itemStart]
                                let continues =
                                    styleIndices[index] == styleIndices[itemStart] && faces[index] == faces[itemStart]
                                    && scripts[start] == scripts[first] && (levels.isEmpty || levels[start] == levels[first])
                                if !continues {
                                    ends.append(index)
                                    itemStart = index
                                }
                            }
                        }
                    }
                }
            }
        }
        ends.append(graphemeCount)
        return ends
    }

    /// ``itemEnds()`` for graphemes that are units, all in face 0: only a script, a style (when
    /// there are several) or a bidi level (when some is not 0) ends an item.
    private func itemEndsOfPrimaryFaceUnits() -> [Int] {
        var ends: [Int] = []
        ends.reserveCapacity(8)
        graphemeStyles.withUnsafeBufferPointer { styleIndices in
            analysis.levels.withUnsafeBufferPointer { levels in
                analysis.scripts.withUnsafeBufferPointer { scripts in
                    if styleIndices.isEmpty && levels.isEmpty {
                        // One style, all left to right (most paragraphs): items end where the script
                        // changes, found by a loop that compares nothing else.
                        var index = 1
                        while index < scripts.count {
                            let script = scripts[index - 1]
                            while index < scripts.count && scripts[index] == script { index += 1 }
                            guard index < scripts.count else { break }
                            ends.append(index)
                            index += 1
                        }
                        return
                    }
                    var itemStart = 0
                    for index in 1..<scripts.count
                    where scripts[index] != scripts[itemStart]
                        || (!styleIndices.isEmpty && styleIndices[index] != styleIndices[itemStart])
                        || (!levels.isEmpty && levels[index] != levels[itemStart])
                    {
                        ends.append(index)
                        itemStart = index
                    }
                }
            }
        }
        ends.append(graphemeCount)
        return ends
    }

    private mutating func appendItem(graphemes: Range<Int>) {
        let start = graphemeStart(graphemes.lowerBound)
        let styleIndex = styleIndex(ofGrapheme: graphemes.lowerBound)
        items.append(
            ShapedItem(
                range: start..<graphemeStart(graphemes.upperBound), styleIndex: styleIndex, style: styles[styleIndex],
                face: chains[styleIndex].faces[faceIndex(ofGrapheme: graphemes.lowerBound)], level: analysis.level(at: start),
                script: analysis.scripts[start], segmentShaper: segmentShaper))
    }

    // MARK: - Shaping

    /// Shapes every item word by word (each space on its own, as Blink does) through the cache,
    /// then sums the advances of each grapheme into the break units it returns.
    private mutating func shapeItems(_ text: UnsafeBufferPointer<UInt16>) -> BreakUnits {
        // Per UTF-16 unit: its advance, and whether a shaped segment starts there.
        var advances = [Double](filling: 0, count: text.count)
        var segmentStarts = [Bool](filling: false, count: text.count + 1)
        // The items are taken out and the shaper copied, so that the closures below capture
        // neither `self` (a copy of the builder would retain and release each of its arrays).
        var items = self.items
        self.items = []
        let shaper = segmentShaper
        advances.withUnsafeMutableBufferPointer { advances in
            segmentStarts.withUnsafeMutableBufferPointer { segmentStarts in
                for itemIndex in items.indices {
                    items[itemIndex].segments = Self.shapeSegments(
                        of: items[itemIndex], text, shaper: shaper, advances: advances, segmentStarts: segmentStarts)
                }
            }
        }
        self.items = items
        return makeUnits(text, advances: advances, segmentStarts: segmentStarts)
    }

    /// The item's words and spaces, shaped; their advances and starts written per unit.
    private static func shapeSegments(
        of item: ShapedItem, _ text: UnsafeBufferPointer<UInt16>, shaper segmentShaper: SegmentShaper,
        advances: UnsafeMutableBufferPointer<Double>, segmentStarts: UnsafeMutableBufferPointer<Bool>
    ) -> [PlacedSegment] {
        var segments: [PlacedSegment] = []
        // A word and a space every ~6 units in alphabetic text: most items never regrow the array.
        segments.reserveCapacity(item.range.count / 3 + 1)
        segmentStarts[item.range.lowerBound] = true
        var space: ShapedSegment?
        var start = item.range.lowerBound
        while start < item.range.upperBound {
            let unit = text[start]
            if CharacterClass.isLineSeparator(UInt32(unit)) {
                // A separator is a segment of its own that draws nothing.
                segmentStarts[start] = true
                segmentStarts[start + 1] = true
                start += 1
                continue
            }
            var end = start + 1
            if unit != 0x20 {
                while end < item.range.upperBound && text[end] != 0x20
                    && !CharacterClass.isLineSeparator(UInt32(text[end]))
                { end += 1 }
            }
            segmentStarts[start] = true
            segments.append(item.placeSegment(start..<end, of: text, space: &space, shaper: segmentShaper, advances: advances))
            start = end
        }
        return segments
    }

    // Inlined into `shapeItems`, its only caller: called apart, it would cost every paragraph more.
    @inline(__always)
    private func makeUnits(_ text: UnsafeBufferPointer<UInt16>, advances: [Double], segmentStarts: [Bool]) -> BreakUnits {
        let count = graphemeCount
        let itemEnds = itemUnitEnds
        var unitFlags = [UnitFlags](filling: [], count: count)
        // Left empty for a paragraph of one item (see ``BreakUnits/item(ofUnit:)``).
        let oneItem = itemEnds.count <= 1
        var unitItems = oneItem ? [] : [Int32](filling: 0, count: count)
        var words: [BreakWord] = []
        // About one word in five units for alphabetic text: most paragraphs never regrow the array.
        words.reserveCapacity(count / 5 + 1)
        // One pass per unit over raw buffers, the units' words summed on the way: this runs for
        // every grapheme of every new paragraph, and bounds checks would be much of it. When every
        // grapheme is a unit, the units' advances are the graphemes' as they are.
        let unitsAreGraphemes = analysis.unitsAreGraphemes
        var unitAdvances = unitsAreGraphemes ? [] : [Double](filling: 0, count: count)
        unitAdvances.withUnsafeMutableBufferPointer { unitAdvances in
            graphemeStarts.withUnsafeBufferPointer { starts in
                advances.withUnsafeBufferPointer { advances in
                    segmentStarts.withUnsafeBufferPointer { segmentStarts in
                        analysis.boundaries.withUnsafeBufferPointer { boundaries in
                            unitFlags.withUnsafeMutableBufferPointer { unitFlags in
                                unitItems.withUnsafeMutableBufferPointer { unitItems in
                                    itemEnds.withUnsafeBufferPointer { itemEnds in
                                        var itemIndex = 0
                                        var word = WordSum(start: 0, flags: [])
                                        for index in 0..<count {
                                            // Graphemes that are units start at their own index (their starts may be
                                            // left implicit, see `graphemeStart(_:)`).
                                            let start = unitsAreGraphemes ? index : starts[index]
                                            if !oneItem { while itemEnds[itemIndex] <= index { itemIndex += 1 } }
                                            var advance = advances[start]
                                            if !unitsAreGraphemes {
                                                let end = starts[index + 1]
                                                var offset = start + 1
                                                while offset < end {
                                                    advance += advances[offset]
                                                    offset += 1
                                                }
                                                unitAdvances[index] = advance
                                            }
                                            var flags: UnitFlags = []
                                            let unit = text[start]
                                            // Visible ASCII is neither whitespace nor a separator; only the rest is looked up.
                                            if unit <= 0x20 || unit >= 0x7F {
                                                let first = decodeScalar(text, at: start).0
                                                if CharacterClass.isHangingWhitespace(first) { flags.insert(.whitespace) }
                                                if CharacterClass.isLineSeparator(first) { flags.insert(.lineSeparator) }
                                            }
                                            if segmentStarts[start] { flags.insert(.segmentStart) }
                                            if start > 0 {
                                                let boundary = boundaries[start]
                                                if boundary.contains(.lineBreak) { flags.insert(.breakBefore) }
                                                if boundary.contains(.mandatoryBreak) { flags.insert(.mandatoryBreakBefore) }
                                            }
                                            unitFlags[index] = flags
                                            if !oneItem { unitItems[index] = Int32(itemIndex) }
                                            // A break before the unit starts a word (the first unit has none).
                                            if !flags.isDisjoint(with: [.breakBefore, .mandatoryBreakBefore]) {
                                                words.append(word.finished(contentEndsSegment: unitFlags[word.contentEnd].contains(.segmentStart)))
                                                word = WordSum(start: index, flags: flags)
                                            }
                                            word.add(advance, isWhitespace: flags.contains(.whitespace), at: index)
                                        }
                                        if count > 0 {
                                            let endsSegment = word.contentEnd == count || unitFlags[word.contentEnd].contains(.segmentStart)
                                            words.append(word.finished(contentEndsSegment: endsSegment))
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return BreakUnits(
            starts: graphemeStarts, advances: unitsAreGraphemes ? advances : unitAdvances, flags: unitFlags, items: unitItems,
            words: words)
    }
}

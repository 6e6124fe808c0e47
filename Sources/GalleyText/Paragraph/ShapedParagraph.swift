// A paragraph analysed and shaped once, ready to be broken into lines at any width.

import GalleyLocks

/// Text that has been analysed (graphemes, break opportunities, bidi, scripts), given fonts and
/// shaped, but not yet broken into lines.
///
/// Breaking a shaped paragraph at a width is arithmetic over its grapheme advances: no ICU, and
/// no shaping except for the pieces of a word broken in the middle (an over-long word, char
/// wrap, truncation), which are reshaped so that their widths are exact. Keep one to re-layout the same text at new widths (rotation,
/// resizing) for a fraction of the cost of measuring it afresh.
///
/// Shaped for a width under a line limit (``TextEngine/measure(_:style:width:paragraph:)``, a
/// row's label), a paragraph may hold only the start of a long text that those lines show; it
/// still answers every width as the whole text would, shaping more of it when a width shows more.
///
///     let shaped = try engine.shape(text, paragraph: style)
///     let portrait = shaped.measure(width: 343)
///     let landscape = shaped.measure(width: 800)
public final class ShapedParagraph: Sendable {
    // Stored in the order measuring reads them, so that breaking a cached paragraph into lines
    // touches as few of its cache lines as it can (the first ones).

    let units: BreakUnits
    /// What this is the start of, when a line limit let the rest of the text go unshaped
    /// (read by every measurement, so stored beside the units).
    let visiblePrefix: VisiblePrefix?
    /// The owning engine's counters.
    let counters: CounterStore
    /// The items' metrics when they all have the same ascent, descent and line gap (most
    /// paragraphs: one font at one size, whatever the scripts): every line's, then, found
    /// without reading which item each unit belongs to.
    let uniformMetrics: ScaledFontMetrics?
    /// Whether truncating a line leaves its height as it was: the items and every ellipsis
    /// share their ascent, descent and line gap. Heights then need no truncation worked out.
    let truncationKeepsLineHeight: Bool
    /// Scalars no font in the fallback chain covers; they were measured with the primary font's
    /// .notdef glyph. In order of first appearance, each once.
    public let missingCharacters: [Unicode.Scalar]
    /// The paragraph style the text was shaped with.
    public let paragraphStyle: ParagraphStyle
    /// Per item: the index of the first unit after it.
    let itemUnitEnds: [Int]
    let items: [ShapedItem]
    /// Per style index: the shaped ellipsis for truncation (empty when the mode does not truncate).
    let ellipses: [Ellipsis]
    /// The natural line height of the first run's font under the paragraph style.
    public let baseLineHeight: Double
    let utf16: [UInt16]
    /// Starts of the text's bidi paragraphs and their base levels (the rest of the analysis
    /// goes once the paragraph is shaped: lines need only these).
    let paragraphLevels: [(start: Int, level: UInt8)]
    /// Reshapes pieces of words cut by a line break or truncation.
    let segmentShaper: SegmentShaper
    /// Pieces of words this paragraph's lines cut off, reshaped (see `exactWidth(of:summed:)`).
    let cutPieces = CutPieceCache()
    /// Whether the items were built without their segments (see ``segments(ofItem:)``).
    let defersSegments: Bool
    /// The items' segments, once asked for, when they were not built with them.
    private let deferredSegments = Locked<[[PlacedSegment]]?>(nil)

    init(
        paragraphStyle: ParagraphStyle, missingCharacters: [Unicode.Scalar], baseLineHeight: Double,
        utf16: [UInt16], paragraphLevels: [(start: Int, level: UInt8)], items: [ShapedItem], itemUnitEnds: [Int], units: BreakUnits,
        ellipses: [Ellipsis], segmentShaper: SegmentShaper, counters: CounterStore, visiblePrefix: VisiblePrefix?,
        defersSegments: Bool = false
    ) {
        self.defersSegments = defersSegments
        self.visiblePrefix = visiblePrefix
        self.segmentShaper = segmentShaper
        self.counters = counters
        self.paragraphStyle = paragraphStyle
        self.missingCharacters = missingCharacters
        self.baseLineHeight = baseLineHeight
        self.utf16 = utf16
        self.paragraphLevels = paragraphLevels
        self.items = items
        self.units = units
        self.itemUnitEnds = itemUnitEnds
        self.ellipses = ellipses
        let first = items.first?.metrics
        uniformMetrics = first.flatMap { first in items.allSatisfy { $0.metrics.hasSameLineBox(as: first) } ? first : nil }
        truncationKeepsLineHeight = uniformMetrics.map { metrics in ellipses.allSatisfy { $0.metrics.hasSameLineBox(as: metrics) } } ?? false
    }

    /// The text's length in UTF-16 units.
    public var utf16Count: Int { visiblePrefix?.wholeLength ?? utf16.count }

    /// Approximate heap bytes held, for the paragraph cache's bound (shaped segments are shared
    /// with the shape cache and not counted; a visible start's units may keep the room of the
    /// whole text's).
    var byteCount: Int {
        256 + utf16.capacity * 2 + paragraphLevels.count * 16 + units.count * units.bytesPerUnit + items.count * 160
            + items.reduce(0) { $0 + $1.segments.count * 16 }
    }

    /// Whether the first paragraph is right-to-left (by its first strong character, or as the
    /// paragraph style's direction forces).
    public var isRightToLeft: Bool { baseLevel(at: 0) & 1 == 1 }

    /// The base level of the bidi paragraph holding UTF-16 offset `index`.
    func baseLevel(at index: Int) -> UInt8 { TextAnalysis.baseLevel(at: index, in: paragraphLevels) }

    /// The words and spaces of item `index`, in logical order: glyphs for renderers, and the
    /// words that lines cut through.
    ///
    /// A paragraph shaped for heights alone (a batch row's label) reads only its units' advances,
    /// so its items are built without their segments: keeping each one in the paragraph would take
    /// a reference to it (and give it back when the paragraph goes), two atomic operations for
    /// every word of every row. Asked for, they are found again (in the shape cache, or shaped) for
    /// every item at once, and kept.
    func segments(ofItem index: Int) -> [PlacedSegment] {
        guard defersSegments else { return items[index].segments }
        return deferredSegments.withLock { deferred in
            if deferred == nil {
                deferred = utf16.withUnsafeBufferPointer { text in
                    units.flags.withUnsafeBufferPointer { flags in
                        items.map { PlainParagraphBuilder.segments(of: $0, text, flags: flags, shaper: segmentShaper) }
                    }
                }
            }
            return deferred.unsafelyUnwrapped[index]
        }
    }
}

/// A run of text in one style, face, script and bidi level, shaped segment by segment.
struct ShapedItem: Sendable {
    var range: Range<Int>
    var styleIndex: Int
    var face: FontFace
    var size: Double
    /// Points per font unit.
    var scale: Double
    var letterSpacing: Double
    var level: UInt8
    var metrics: ScaledFontMetrics
    /// The item's words and spaces, in logical order.
    var segments: [PlacedSegment]
    /// The cache key of the item's segments, without their text.
    var shapeKey: ShapeKey

    var isRightToLeft: Bool { level & 1 == 1 }
}

extension ShapedItem {
    /// The item of `range` in `style` and `face`, its segments not shaped yet.
    init(
        range: Range<Int>, styleIndex: Int, style: TextStyle, face: FontFace, level: UInt8, script: UInt32,
        segmentShaper: SegmentShaper
    ) {
        // Interned when the paragraph's styles were checked (see ParagraphShaper).
        let key = segmentShaper.key(
            face: face, featureSetID: segmentShaper.shaper.featureSetID(style.shapingFeatures) ?? 0, script: script,
            isRightToLeft: level & 1 == 1)
        self.init(
            range: range, styleIndex: styleIndex, face: face, size: style.size,
            scale: style.size / Double(face.metrics.unitsPerEm), letterSpacing: style.letterSpacing, level: level,
            metrics: face.metrics.scaled(to: style.size), segments: [], shapeKey: key)
    }

    /// The segment of `text` over `range` in this item, shaped, its advances written into
    /// `advances`: both builders' step for each word and space (a segment that starts with a
    /// space is that one space). Every space of an item shapes
    /// alike: the first one shaped is kept in `space` and serves the rest (half of an alphabetic
    /// paragraph's segments are single spaces).
    @inline(__always)
    func placeSegment(
        _ range: Range<Int>, of text: UnsafeBufferPointer<UInt16>, space: inout ShapedSegment?, shaper: SegmentShaper,
        advances: UnsafeMutableBufferPointer<Double>
    ) -> PlacedSegment {
        let isSpace = text[range.lowerBound] == 0x20
        let segment: ShapedSegment
        if isSpace, let space {
            segment = space
        } else {
            segment = shaper.shape(UnsafeBufferPointer(rebasing: text[range]), face: face, key: shapeKey)
            if isSpace { space = segment }
        }
        segment.writeAdvances(into: UnsafeMutableBufferPointer(rebasing: advances[range]), scale: scale, letterSpacing: letterSpacing)
        return PlacedSegment(start: range.lowerBound, segment: consume segment)
    }

    /// ``placeSegment(_:of:space:shaper:advances:)`` for a paragraph that keeps no segments
    /// (see ``ShapedParagraph/segments(ofItem:)``): only the advances are written, read from
    /// the segment where the cache holds it.
    @inline(__always)
    func writeAdvances(
        ofSegment range: Range<Int>, of text: UnsafeBufferPointer<UInt16>, space: inout ShapedSegment?, shaper: SegmentShaper,
        advances: UnsafeMutableBufferPointer<Double>
    ) {
        let target = UnsafeMutableBufferPointer(rebasing: advances[range])
        if text[range.lowerBound] == 0x20 {
            if space == nil { space = shaper.shape(UnsafeBufferPointer(rebasing: text[range]), face: face, key: shapeKey) }
            space.unsafelyUnwrapped.writeAdvances(into: target, scale: scale, letterSpacing: letterSpacing)
            return
        }
        shaper.withShaped(UnsafeBufferPointer(rebasing: text[range]), face: face, key: shapeKey) { segment in
            segment.writeAdvances(into: target, scale: scale, letterSpacing: letterSpacing)
        }
    }
}

/// A shaped segment and the UTF-16 offset where it starts in the paragraph.
struct PlacedSegment: Sendable {
    var start: Int
    var segment: ShapedSegment
}

/// The paragraph's grapheme clusters: the units lines are made of.
///
/// A class, built once: every line broken, measured or truncated reads it, and handing a
/// reference around retains one object where a struct of five arrays would retain five.
final class BreakUnits: Sendable {
    /// UTF-16 offset where each unit starts, plus the text's length at the end; empty when
    /// every unit is one UTF-16 unit (most text), each then starting at its own index: read
    /// through ``start(ofUnit:)``. (An identity array would be an allocation, a pass and 8 bytes a
    /// unit for every such paragraph.)
    private let starts: [Int]

    /// Bytes each unit holds: its advance, flags and item, and its start when stored.
    var bytesPerUnit: Int { 9 + (starts.isEmpty ? 0 : 8) + (items.isEmpty ? 0 : 4) }

    /// The UTF-16 offset where unit `index` starts (the text's length for `count`).
    @inline(__always)
    func start(ofUnit index: Int) -> Int { starts.isEmpty ? index : starts[index] }
    /// Whether every unit is one UTF-16 unit (each then starts at its own index).
    var isOneUnitEach: Bool { starts.isEmpty }
    /// Width of each unit in points, letter spacing included.
    let advances: [Double]
    let flags: [UnitFlags]
    /// Index of the item each unit belongs to; empty when the paragraph is one item (most are):
    /// read through ``item(ofUnit:)``.
    private let items: [Int32]

    /// The index of the item unit `index` belongs to.
    @inline(__always)
    func item(ofUnit index: Int) -> Int { items.isEmpty ? 0 : Int(items[index]) }
    /// The units grouped into words (runs between line-break opportunities), so that breaking
    /// lines steps word by word.
    let words: [BreakWord]
    /// Units that start with a mandatory break, ascending (usually none): truncation finds the
    /// paragraph around a line here instead of walking the rest of the text.
    let mandatoryBreaks: [Int]
    /// The furthest any word's content reaches when every unit stays on the first line, summed
    /// as ``LineBreaker`` sums it; nil when a mandatory break forces a second line (or there
    /// are no units). The whole text fits one line at any width that holds this.
    let unbrokenExtent: Double?

    /// The number of units (stored: reading an array's count reads its storage, one more
    /// cache line for every measurement of a cached paragraph).
    let count: Int

    /// `starts` is empty when every unit is one UTF-16 unit; `words` are the units grouped
    /// between their break opportunities (see ``BreakWord``).
    convenience init(starts: [Int], advances: [Double], flags: [UnitFlags], items: [Int32], words: [BreakWord]) {
        var breaks: [Int] = []
        for word in words where word.startsWithMandatoryBreak { breaks.append(word.start) }
        self.init(
            starts: starts, advances: advances, flags: flags, items: items, words: words, mandatoryBreaks: breaks,
            unbrokenExtent: breaks.isEmpty && !words.isEmpty ? Self.extent(of: words) : nil)
    }

    /// Units whose builder found their ``mandatoryBreaks`` and ``unbrokenExtent`` as it summed
    /// their words.
    init(
        starts: [Int], advances: [Double], flags: [UnitFlags], items: [Int32], words: [BreakWord], mandatoryBreaks: [Int],
        unbrokenExtent: Double?
    ) {
        self.starts = starts
        count = advances.count
        self.advances = advances
        self.flags = flags
        self.items = items
        self.words = words
        self.mandatoryBreaks = mandatoryBreaks
        self.unbrokenExtent = unbrokenExtent
    }

    /// The furthest `x + contentWidth` of the words laid end to end from 0, in the order and
    /// with the operations ``LineBreaker/line(from:)`` uses, so that comparing it with a
    /// line's limit decides exactly as the breaker would.
    private static func extent(of words: [BreakWord]) -> Double {
        var x = 0.0
        var extent = 0.0
        for word in words {
            if word.contentEnd > word.start { extent = max(extent, x + word.contentWidth) }
            x += word.width
        }
        return extent
    }
}

/// Units between two line-break opportunities (the word ends where the next one starts).
///
/// 24 bytes: breaking a line reads every word on it, and for a cached paragraph those reads are
/// most of the memory a measurement touches. The flags ride in the offsets' top bits.
struct BreakWord: Sendable {
    /// Width of every unit, and of the units up to `contentEnd`.
    let width: Double
    let contentWidth: Double
    /// `start`, with the top bit set when a shaped segment starts there.
    private let packedStart: UInt32
    /// `contentEnd`, with the top bit set when a mandatory break comes before the word and the
    /// next when a shaped segment starts at the content's end (or the text ends there).
    private let packedContentEnd: UInt32

    private static let topBit: UInt32 = 1 << 31
    private static let nextBit: UInt32 = 1 << 30
    private static let offsetBits: UInt32 = nextBit - 1

    /// The first unit.
    var start: Int { Int(packedStart & Self.offsetBits) }
    /// End of the last unit that is not whitespace (`start` if there is none).
    var contentEnd: Int { Int(packedContentEnd & Self.offsetBits) }
    /// Whether a mandatory break comes before the word.
    var startsWithMandatoryBreak: Bool { packedContentEnd & Self.topBit != 0 }
    /// Whether the word starts a shaped segment, and whether its content ends where one starts:
    /// a line between two such edges cuts no word, so its width is the sum of its units'.
    var startsSegment: Bool { packedStart & Self.topBit != 0 }
    var contentEndsSegment: Bool { packedContentEnd & Self.nextBit != 0 }

    /// Unit offsets must be below 2³⁰ (a paragraph of 2³⁰ graphemes would not fit in memory
    /// with the arrays that describe it).
    init(
        start: Int, contentEnd: Int, width: Double, contentWidth: Double, startsWithMandatoryBreak: Bool,
        startsSegment: Bool, contentEndsSegment: Bool
    ) {
        self.width = width
        self.contentWidth = contentWidth
        packedStart = UInt32(start) | (startsSegment ? Self.topBit : 0)
        packedContentEnd =
            UInt32(contentEnd) | (startsWithMandatoryBreak ? Self.topBit : 0)
            | (contentEndsSegment ? Self.nextBit : 0)
    }
}

/// The ellipsis a truncated line ends with, shaped in one style's fallback chain.
struct Ellipsis: Sendable {
    var face: FontFace
    var size: Double
    var scale: Double
    var letterSpacing: Double
    var segment: ShapedSegment
    var width: Double
    var metrics: ScaledFontMetrics
}

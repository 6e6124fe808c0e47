// The result of shaping one word or space: glyphs and advances in font units, at no size.

/// One glyph of a shaped segment, in font units.
struct ShapedGlyph: Sendable {
    var id: UInt32
    var advance: Int32
    var xOffset: Int32
    var yOffset: Int32
    /// UTF-16 offset, within the segment, of the cluster the glyph belongs to.
    var cluster: UInt32
    /// HarfBuzz's `UNSAFE_TO_BREAK`: text cut where this glyph's cluster begins must be shaped
    /// again on both sides, because the glyphs there depend on text across the cut.
    var isUnsafeToBreak: Bool
}

/// A shaped segment (a word, or a space), in font units so that one shaping serves every size.
///
/// Unhinted advances scale linearly with size, so the engine shapes a segment once per face,
/// features, script, direction and language, caches it, and multiplies by `size / unitsPerEm`.
/// Two arrays hold everything, so making one costs two allocations.
final class ShapedSegment: Sendable {
    /// The glyphs, in visual order (right-to-left segments come out reversed).
    let glyphs: [ShapedGlyph]
    /// Per UTF-16 offset within the segment: the advance of the cluster starting there (0
    /// elsewhere), whether the text is unsafe to break there (bit 1), and whether a cluster
    /// starts there (bit 0).
    private let clusterInfo: [Int32]

    init(glyphs: [ShapedGlyph], length: Int) {
        self.glyphs = glyphs
        // Each entry: advance << 2 | (is unsafe to break) << 1 | (is a cluster start).
        var info = [Int32](filling: 0, count: length)
        for glyph in glyphs where Int(glyph.cluster) < length {
            let entry = info[Int(glyph.cluster)]
            let unsafe: Int32 = glyph.isUnsafeToBreak ? 2 : entry & 2
            // Saturating: a cluster wider than 2^29 font units (half a million ems, which only a
            // hostile font gives) stays at that width rather than wrapping to a negative one.
            let advance = min(max(Int(entry >> 2) + Int(glyph.advance), -Self.largestClusterAdvance), Self.largestClusterAdvance)
            info[Int(glyph.cluster)] = Int32(advance) << 2 | unsafe | 1
        }
        clusterInfo = info
    }

    /// The segment's length in UTF-16 units.
    var length: Int { clusterInfo.count }

    /// Whether the segment can be cut before `offset` and the two sides keep the glyphs they
    /// have here (HarfBuzz's guarantee when no glyph of the cluster there is `UNSAFE_TO_BREAK`).
    /// Offsets that do not start a cluster (inside a ligature, say) are never safe.
    @inline(__always)
    func isSafeToBreak(before offset: Int) -> Bool {
        offset == 0 || offset == clusterInfo.count || clusterInfo[offset] & 3 == 1
    }

    /// Whether `piece` (UTF-16 offsets, the segment starting at `start`) shaped on its own would
    /// have the glyphs it has within the whole segment: true when each end is an end of the
    /// segment or a place HarfBuzz marked safe to break.
    func keepsGlyphs(of piece: Range<Int>, startingAt start: Int) -> Bool {
        isSafeToBreak(before: piece.lowerBound - start) && isSafeToBreak(before: piece.upperBound - start)
    }

    /// Writes each unit's advance at `scale`: the advance of the cluster starting there (0 where
    /// none starts), letter spacing added after every cluster start.
    func writeAdvances(into advances: UnsafeMutableBufferPointer<Double>, scale: Double, letterSpacing: Double) {
        clusterInfo.withUnsafeBufferPointer { info in
            for offset in 0..<min(info.count, advances.count) {
                advances[offset] = Self.advance(info[offset], scale: scale, letterSpacing: letterSpacing)
            }
        }
    }

    /// The sum of the unit advances ``writeAdvances(into:scale:letterSpacing:)`` writes, added
    /// in the same order.
    func width(scale: Double, letterSpacing: Double) -> Double {
        clusterInfo.reduce(0) { $0 + Self.advance($1, scale: scale, letterSpacing: letterSpacing) }
    }

    @inline(__always)
    private static func advance(_ entry: Int32, scale: Double, letterSpacing: Double) -> Double {
        Double(entry >> 2) * scale + (entry & 1 == 1 ? letterSpacing : 0)
    }

    /// The widest a cluster's advance is kept, in font units: what 30 bits hold.
    private static let largestClusterAdvance = (1 << 29) - 1

    /// The sum of every glyph's advance, in font units.
    var totalAdvance: Int { glyphs.reduce(0) { $0 + Int($1.advance) } }

    /// Approximate heap bytes held, for the cache's memory bound.
    var byteCount: Int { 96 + glyphs.count * MemoryLayout<ShapedGlyph>.stride + clusterInfo.count * 4 }
}

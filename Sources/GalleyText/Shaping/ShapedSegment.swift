// The result of shaping one word or space: glyphs and advances in font units, at no size.

/// A shaped segment (a word, or a space), in font units so that one shaping serves every size.
///
/// Unhinted advances scale linearly with size, so the engine shapes a segment once per face,
/// features, script, direction and language, caches it, and multiplies by `size / unitsPerEm`.
final class ShapedSegment: Sendable {
    /// Glyph ids, in visual order (right to left segments come out reversed).
    let glyphs: [UInt32]
    /// Per glyph: horizontal advance, and x and y offsets, in font units.
    let advances: [Int32]
    let xOffsets: [Int32]
    let yOffsets: [Int32]
    /// Per glyph: the UTF-16 offset, within the segment, of the cluster it belongs to.
    let clusters: [UInt32]
    /// Per UTF-16 offset within the segment: the advance of the cluster starting there (0 elsewhere).
    let clusterAdvances: [Int32]
    /// Per UTF-16 offset within the segment: whether a cluster starts there.
    let clusterStarts: [Bool]
    /// Whether any glyph is .notdef (glyph 0).
    let hasMissingGlyphs: Bool

    init(
        glyphs: [UInt32], advances: [Int32], xOffsets: [Int32], yOffsets: [Int32], clusters: [UInt32],
        length: Int
    ) {
        self.glyphs = glyphs
        self.advances = advances
        self.xOffsets = xOffsets
        self.yOffsets = yOffsets
        self.clusters = clusters
        var clusterAdvances = [Int32](repeating: 0, count: length)
        var clusterStarts = [Bool](repeating: false, count: length)
        for (cluster, advance) in zip(clusters, advances) where Int(cluster) < length {
            clusterAdvances[Int(cluster)] += advance
            clusterStarts[Int(cluster)] = true
        }
        self.clusterAdvances = clusterAdvances
        self.clusterStarts = clusterStarts
        hasMissingGlyphs = glyphs.contains(0)
    }

    /// Approximate heap bytes held, for the cache's memory bound.
    var byteCount: Int { 96 + glyphs.count * 20 + clusterAdvances.count * 5 }
}

// Shapes one segment through the cache: the path every word and space takes (pieces of cut
// words are kept with their paragraph instead, see CutPieceCache).

/// Shapes words and spaces for one paragraph's language, through the shape cache when there is one.
struct SegmentShaper: Sendable {
    let shaper: HarfBuzzShaper
    let cache: ShapeCache?
    let languageID: Int

    /// Segments longer than this (UTF-16 units) are shaped without the cache: long unspaced runs
    /// (CJK, Thai) would only crowd it out.
    static let longestCachedSegment = 128

    /// The shaped segment for `text` in `face`; `key`'s text is filled in here.
    func shape(_ text: UnsafeBufferPointer<UInt16>, face: FontFace, key: ShapeKey) -> ShapedSegment {
        guard cache != nil, text.count <= Self.longestCachedSegment else {
            return shaper.shape(text, face: face, key: key)
        }
        // Through `cache?`, not a bound copy of it: binding retained and released the cache
        // for every word.
        let wordKey = key.with(text: SegmentText(text))
        if let found = cache?.value(for: wordKey) { return found }
        let made = shaper.shape(text, face: face, key: key)
        cache?.insert(made, for: wordKey, bytes: made.byteCount + wordKey.text.byteCount + 96)
        return made
    }

    /// The cache key for an item's segments (the text is added per segment).
    func key(face: FontFace, featureSetID: Int, script: UInt32, isRightToLeft: Bool) -> ShapeKey {
        ShapeKey(
            faceID: face.uniqueID, featureSetID: featureSetID, script: script, isRightToLeft: isRightToLeft,
            languageID: languageID)
    }
}

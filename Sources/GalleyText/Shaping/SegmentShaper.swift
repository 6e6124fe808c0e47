// Shapes one segment through the cache: the path every word and space takes (pieces of cut
// words are kept with their paragraph instead, see CutPieceCache).

internal import CHarfBuzz

/// Shapes words and spaces for one paragraph's language, through the shape cache when there is one.
struct SegmentShaper: Sendable {
    let shaper: HarfBuzzShaper
    let cache: ShapeCache?
    /// The paragraph's language, nil for none.
    let language: HarfBuzzLanguage?

    /// Segments longer than this (UTF-16 units) are shaped without the cache: long unspaced runs
    /// (CJK, Thai) would only crowd it out.
    static let longestCachedSegment = 128

    /// The shaped segment for `text` in `face`; `key`'s text is filled in here.
    func shape(_ text: UnsafeBufferPointer<UInt16>, face: FontFace, key: ShapeKey) -> ShapedSegment {
        guard cache != nil, text.count <= Self.longestCachedSegment else {
            return shaper.shape(text, face: face, key: key, language: language)
        }
        // Through `cache?`, not a bound copy of it: binding would retain and release the cache
        // for every word.
        let wordKey = key.with(text: SegmentText(text))
        if let found = cache?.value(for: wordKey) { return found }
        return shapeAndCache(text, face: face, key: key, as: wordKey)
    }

    /// ``shape(_:face:key:)`` for a caller that only reads the segment: `body` gets it in place
    /// in the cache, so no reference to it is taken (see ``BoundedCache/withValue(for:_:)``).
    @inline(__always)
    func withShaped(_ text: UnsafeBufferPointer<UInt16>, face: FontFace, key: ShapeKey, _ body: (ShapedSegment) -> Void) {
        guard cache != nil, text.count <= Self.longestCachedSegment else {
            body(shaper.shape(text, face: face, key: key, language: language))
            return
        }
        let wordKey = key.with(text: SegmentText(text))
        if cache?.withValue(for: wordKey, body) == true { return }
        body(shapeAndCache(text, face: face, key: key, as: wordKey))
    }

    /// `text` shaped by HarfBuzz and kept in the cache under `wordKey` (a lookup missed it).
    private func shapeAndCache(_ text: UnsafeBufferPointer<UInt16>, face: FontFace, key: ShapeKey, as wordKey: ShapeKey) -> ShapedSegment {
        let made = shaper.shape(text, face: face, key: key, language: language)
        cache?.insert(made, for: wordKey, bytes: made.byteCount + wordKey.text.byteCount + 96)
        return made
    }

    /// The cache key for an item's segments (the text is added per segment): the language in
    /// it is the language systems the face gives it, so that texts in languages the face does
    /// not tell apart share their words.
    func key(face: FontFace, featureSetID: Int, script: UInt32, isRightToLeft: Bool) -> ShapeKey {
        ShapeKey(
            faceID: face.uniqueID, featureSetID: featureSetID, script: script, isRightToLeft: isRightToLeft,
            languageSystems: shaper.languageSystems(for: language, in: face, script: script).packed)
    }

    /// U+2026 shaped in the first face of `chain` that has it, for truncating text in `style`.
    func ellipsis(style: TextStyle, chain: FallbackChain) -> Ellipsis {
        let face = chain.ellipsisFace
        // The style's features were interned when its paragraph was (see ParagraphShaper).
        let key = key(
            face: face, featureSetID: shaper.featureSetID(style.features) ?? 0, script: HB_SCRIPT_COMMON.rawValue,
            isRightToLeft: false)
        let character: [UInt16] = [0x2026]
        let segment = character.withUnsafeBufferPointer { shape($0, face: face, key: key) }
        let scale = style.size / Double(face.metrics.unitsPerEm)
        let width = Double(segment.totalAdvance) * scale + style.letterSpacing
        return Ellipsis(
            face: face, size: style.size, scale: scale, letterSpacing: style.letterSpacing, segment: segment,
            width: width, metrics: face.metrics.scaled(to: style.size))
    }
}

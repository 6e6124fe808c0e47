// The word-level shape cache, as minikin and Blink keep: shaped segments by face, text,
// features, script, direction and language, never by size.

/// Shaped segments keyed by ``ShapeKey``: one ``BoundedCache`` (see ``SegmentShaper``, which
/// looks words up in it and adds the ones it shapes).
typealias ShapeCache = BoundedCache<ShapeKey, ShapedSegment>

// The word-level shape cache, as minikin and Blink keep: shaped segments by face, text,
// features, script, direction and language, never by size.

/// Shaped segments keyed by ``ShapeKey``: one ``BoundedCache``.
typealias ShapeCache = BoundedCache<ShapeKey, ShapedSegment>

extension BoundedCache where Key == ShapeKey, Value == ShapedSegment {
    /// The cached segment for `key`, or the one `shape` makes (then cached).
    func segment(for key: ShapeKey, shape: () -> ShapedSegment) -> ShapedSegment {
        if let found = value(for: key) { return found }
        let made = shape()
        insert(made, for: key, bytes: made.byteCount + key.text.byteCount + 96)
        return made
    }
}

// What a shaped segment depends on: the cache key.

/// Identifies a shaping result: face, feature set, script, direction, language and the text.
/// Size is deliberately absent (results are in font units).
struct ShapeKey: Hashable, Sendable {
    var faceID: Int
    var featureSetID: Int
    var script: UInt32
    var isRightToLeft: Bool
    var languageID: Int
    var text: SegmentText?
}

// What a shaped segment depends on: the cache key.

/// Identifies a shaping result: face, feature set, script, direction, the language systems the
/// face gives the text's language (see ``LanguageSystems``), and the text.
/// Size is deliberately absent (results are in font units). The hash is computed once, because
/// a cache lookup uses it twice (shard, then dictionary).
struct ShapeKey: PrecomputedHashKey {
    let faceID: Int
    let featureSetID: Int
    let script: UInt32
    let isRightToLeft: Bool
    let languageSystems: Int
    /// The segment's text; empty in the key an item's segments share (see ``with(text:)``).
    let text: SegmentText
    private let hashCode: Int
    /// The hash's state before the text, which the keys of an item's segments share: each
    /// word's key hashes only its text from here (see ``with(text:)``).
    private let stateBeforeText: UInt64

    var precomputedHash: Int { hashCode }

    init(faceID: Int, featureSetID: Int, script: UInt32, isRightToLeft: Bool, languageSystems: Int, text: SegmentText = SegmentText()) {
        self.faceID = faceID
        self.featureSetID = featureSetID
        self.script = script
        self.isRightToLeft = isRightToLeft
        self.languageSystems = languageSystems
        self.text = text
        var hasher = KeyHasher()
        hasher.combine(faceID << 20 ^ featureSetID)
        hasher.combine(Int(script) << 32 ^ languageSystems << 1 ^ (isRightToLeft ? 1 : 0))
        stateBeforeText = hasher.state
        text.combine(into: &hasher)
        hashCode = hasher.finalized
    }

    /// The same key for another segment's text (hashed from ``stateBeforeText``, so that the
    /// fields it shares with this key are not hashed again).
    func with(text: consuming SegmentText) -> ShapeKey {
        var hasher = KeyHasher(resuming: stateBeforeText)
        text.combine(into: &hasher)
        return ShapeKey(base: self, text: text, hashCode: hasher.finalized)
    }

    /// `text` is taken, not copied: a copy would retain its storage for every word looked up.
    private init(base: ShapeKey, text: consuming SegmentText, hashCode: Int) {
        faceID = base.faceID
        featureSetID = base.featureSetID
        script = base.script
        isRightToLeft = base.isRightToLeft
        languageSystems = base.languageSystems
        stateBeforeText = base.stateBeforeText
        self.text = text
        self.hashCode = hashCode
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hashCode) }

    static func == (lhs: ShapeKey, rhs: ShapeKey) -> Bool {
        lhs.hashCode == rhs.hashCode && lhs.faceID == rhs.faceID && lhs.featureSetID == rhs.featureSetID
            && lhs.script == rhs.script && lhs.isRightToLeft == rhs.isRightToLeft && lhs.languageSystems == rhs.languageSystems
            && lhs.text == rhs.text
    }
}

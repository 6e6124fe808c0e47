// A segment's text as a cache key: short words inline, without a heap allocation.

/// The UTF-16 text of a segment, stored inline when it has at most 16 units (most words do), so
/// that looking a word up in the shape cache allocates nothing.
struct SegmentText: Hashable, Sendable {
    private let count: Int
    /// Up to 16 UTF-16 units, four to a word; unused units are zero.
    private let inline: (UInt64, UInt64, UInt64, UInt64)
    /// The text, when it is longer than 16 units; empty otherwise. (Not an optional: a key is
    /// copied for every word looked up, and an optional array copies through a generic witness.)
    private let overflow: [UInt16]

    static let inlineCapacity = 16

    /// No text: the part of a key that its segments' texts complete.
    init() {
        count = 0
        inline = (0, 0, 0, 0)
        overflow = []
    }

    init(_ text: UnsafeBufferPointer<UInt16>) {
        count = text.count
        if text.count <= Self.inlineCapacity {
            var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            withUnsafeMutableBytes(of: &words) { raw in raw.copyMemory(from: UnsafeRawBufferPointer(text)) }
            inline = words
            overflow = []
        } else {
            inline = (0, 0, 0, 0)
            overflow = Array(text)
        }
    }

    /// Approximate heap bytes held.
    var byteCount: Int { overflow.count * 2 }

    /// Combines this text into a key's hash.
    @inline(__always)
    func combine(into hasher: inout KeyHasher) {
        hasher.combine(count)
        if count > Self.inlineCapacity {
            for unit in overflow { hasher.combine(UInt64(unit)) }
            return
        }
        hasher.combine(inline.0)
        if count > 4 { hasher.combine(inline.1) }
        if count > 8 { hasher.combine(inline.2) }
        if count > 12 { hasher.combine(inline.3) }
    }

    static func == (lhs: SegmentText, rhs: SegmentText) -> Bool {
        // Short texts have empty overflows: not compared (a call per word looked up).
        lhs.count == rhs.count && lhs.inline == rhs.inline && (lhs.count <= inlineCapacity || lhs.overflow == rhs.overflow)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        if count > Self.inlineCapacity {
            hasher.combine(overflow)
        } else {
            hasher.combine(inline.0)
            if count > 4 { hasher.combine(inline.1) }
            if count > 8 { hasher.combine(inline.2) }
            if count > 12 { hasher.combine(inline.3) }
        }
    }
}

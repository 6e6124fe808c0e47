// Member names a parser has read before, kept for the next document of the same shape.

/// The member names a parser met in earlier documents, with their lookup tags, by their bytes.
///
/// JSON Lines name the same members on every line; making each name's string and tag again
/// would be much of parsing an item. Give ``JSONParser/parse(_:names:)-(ArraySlice<UInt8>,_)``
/// the same cache line after line (one per thread: it is a value, changed as it is used). Names
/// of up to 15 bytes written without escapes are kept, in a small table where a name goes to its
/// slot or the next, else replaces the one in its slot.
package struct JSONNameCache: Sendable {
    private static let slotCount = 64

    private struct Entry: Sendable {
        /// The name's bytes, zero-padded, and how many there are (-1 for an empty slot).
        var first: UInt64 = 0
        var second: UInt64 = 0
        var count = -1
        var name = ""
        var tag: UInt64 = 0
    }

    /// Empty until first used, so that a parser given no cache allocates nothing.
    private var entries: [Entry] = []

    /// Whether names are kept: false in the cache a parser holds when it is given none.
    let isInUse: Bool

    /// An empty cache.
    package init() { isInUse = true }

    /// A cache that keeps nothing.
    init(keepsNothing: Void) { isInUse = false }

    /// The name and tag kept for the name of `count` bytes (at most 15) whose
    /// bytes, zero-padded, make the words `first` and `second` (little-endian), if any.
    func name(first: UInt64, second: UInt64, count: Int) -> (name: String, tag: UInt64)? {
        guard !entries.isEmpty else { return nil }
        return entries.withUnsafeBufferPointer { entries in
            // The name's slot, or the one after it (see `keep`).
            var slot = Self.slot(first, second, count)
            for _ in 0..<2 {
                if entries[slot].count == count && entries[slot].first == first && entries[slot].second == second {
                    return (entries[slot].name, entries[slot].tag)
                }
                slot = (slot + 1) & (Self.slotCount - 1)
            }
            return nil
        }
    }

    /// Keeps `name`, whose bytes are as ``name(first:second:count:)`` takes them, and its tag: in its slot,
    /// or the one after it when another name holds that one (names that share a slot would
    /// otherwise take turns missing), or over the name in its slot when both are taken.
    mutating func keep(_ name: String, tag: UInt64, first: UInt64, second: UInt64, count: Int) {
        if entries.isEmpty { entries = Array(repeating: Entry(), count: Self.slotCount) }
        var slot = Self.slot(first, second, count)
        let next = (slot + 1) & (Self.slotCount - 1)
        if entries[slot].count >= 0 && entries[next].count < 0 { slot = next }
        entries[slot] = Entry(first: first, second: second, count: count, name: name, tag: tag)
    }

    private static func slot(_ first: UInt64, _ second: UInt64, _ count: Int) -> Int {
        let mixed = (first ^ second &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(count)) &* 0xFF51_AFD7_ED55_8CCD
        return Int(truncatingIfNeeded: mixed >> 58) & (slotCount - 1)
    }
}

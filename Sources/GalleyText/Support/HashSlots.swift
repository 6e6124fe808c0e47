// The bounded caches' index: key hashes computed once, probed without rehashing them.

/// A key whose hash is computed once, when the key is built, and well mixed in every bit.
///
/// The caches index such keys by that hash directly: Swift's `Dictionary` would run it through
/// SipHash again on every lookup, which would cost more than the rest of a shape-cache hit.
protocol PrecomputedHashKey: Hashable, Sendable {
    var precomputedHash: Int { get }
}

/// An open-addressing table from hashes to small integers (a cache's node indices): linear
/// probing, at most half full, and deletion by shifting later entries back, so no tombstones
/// accumulate however many entries come and go.
struct HashSlots {
    private var slots: [Int32]
    private var shift: Int
    private(set) var count = 0

    private static let initialCapacity = 16

    init() {
        slots = Array(filling: -1, count: Self.initialCapacity)
        shift = 64 - Self.initialCapacity.trailingZeroBitCount
    }

    private var mask: Int { slots.count - 1 }

    /// Fibonacci hashing: the top bits of the hash times 2⁶⁴/φ.
    @inline(__always)
    private func home(_ hash: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(bitPattern: Int64(hash)) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    /// Where the values stored under `hash` may be: from `firstSlot(for:)`, each following
    /// ``nextSlot(after:)`` until ``value(at:)`` is nil. (A loop at the caller, not a closure,
    /// so that the caller compares its keys without copying them.)
    @inline(__always)
    func firstSlot(for hash: Int) -> Int { home(hash) }

    @inline(__always)
    func nextSlot(after slot: Int) -> Int { (slot + 1) & mask }

    /// The value in `slot`, or nil when it is empty (the end of a probe).
    @inline(__always)
    func value(at slot: Int) -> Int? {
        let value = slots[slot]
        return value < 0 ? nil : Int(value)
    }

    /// Adds `value` under `hash`; `hashOf` gives the hash of any stored value, for growing.
    mutating func insert(_ value: Int, hash: Int, hashOf: (Int) -> Int) {
        if (count + 1) * 2 > slots.count { grow(hashOf: hashOf) }
        var slot = home(hash)
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(value)
        count += 1
    }

    /// Removes `value`, stored under `hash`.
    mutating func remove(_ value: Int, hash: Int, hashOf: (Int) -> Int) {
        var hole = home(hash)
        while slots[hole] != Int32(value) {
            if slots[hole] < 0 { return }
            hole = (hole + 1) & mask
        }
        // Shift back every later entry of the run that the hole now separates from its home.
        var next = hole
        while true {
            next = (next + 1) & mask
            let moved = slots[next]
            if moved < 0 { break }
            let wanted = home(hashOf(Int(moved)))
            let staysPut = hole <= next ? (hole < wanted && wanted <= next) : (hole < wanted || wanted <= next)
            if staysPut { continue }
            slots[hole] = moved
            hole = next
        }
        slots[hole] = -1
        count -= 1
    }

    mutating func removeAll() {
        // At the initial size, emptied in place: an engine's caches are emptied shard by shard
        // (dozens of small tables), and a new table each would be an allocation and a free.
        guard slots.count == Self.initialCapacity else {
            self = HashSlots()
            return
        }
        for index in slots.indices { slots[index] = -1 }
        count = 0
    }

    private mutating func grow(hashOf: (Int) -> Int) {
        let old = slots
        slots = Array(filling: -1, count: old.count * 2)
        shift -= 1
        for value in old where value >= 0 {
            var slot = home(hashOf(Int(value)))
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = value
        }
    }
}

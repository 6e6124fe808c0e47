// Slots by content fingerprint: the lookup every record of a resumed run makes.

/// A hash table from fingerprints to slots, filled once and then only read. Fingerprints are
/// hashes already, so their low bits pick the bucket (no hashing again, as `Dictionary` would),
/// and the table is two flat arrays probed in order: a record's lookup is about one cache miss.
struct FingerprintTable: Sendable {
    private var keys: [Int64]
    /// Each bucket's slot; ``empty`` for none, ``ambiguous`` for a fingerprint given twice.
    private var values: [Int32]
    private let mask: Int

    private static let empty: Int32 = -1
    private static let ambiguous: Int32 = -2

    /// A table for `capacity` fingerprints, at most half full.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        keys = Array(repeating: 0, count: size)
        values = Array(repeating: Self.empty, count: size)
        mask = size - 1
    }

    /// Adds `fingerprint` for `slot`: false, and neither kept, when it was there already (two
    /// items with one fingerprint, which only a collision makes, are trusted neither).
    ///
    /// - Precondition: fewer fingerprints than the capacity the table was made for, or it grows.
    mutating func insert(_ fingerprint: Int64, _ slot: Int32) -> Bool {
        if values.count < 2 * (count + 1) { grow() }
        var bucket = Int(truncatingIfNeeded: fingerprint) & mask
        while values[bucket] != Self.empty {
            if keys[bucket] == fingerprint {
                values[bucket] = Self.ambiguous
                return false
            }
            bucket = (bucket + 1) & mask
        }
        keys[bucket] = fingerprint
        values[bucket] = slot
        count += 1
        return true
    }

    /// How many fingerprints it holds.
    private(set) var count = 0

    /// The slot of `fingerprint`, when it holds one.
    subscript(fingerprint: Int64) -> Int32? {
        var bucket = Int(truncatingIfNeeded: fingerprint) & mask
        while true {
            let value = values[bucket]
            if value == Self.empty { return nil }
            if keys[bucket] == fingerprint { return value == Self.ambiguous ? nil : value }
            bucket = (bucket + 1) & mask
        }
    }

    /// Twice the buckets, every fingerprint placed again.
    private mutating func grow() {
        var larger = FingerprintTable(capacity: values.count)
        for (key, value) in zip(keys, values) where value != Self.empty {
            var bucket = Int(truncatingIfNeeded: key) & larger.mask
            while larger.values[bucket] != Self.empty { bucket = (bucket + 1) & larger.mask }
            larger.keys[bucket] = key
            larger.values[bucket] = value
            larger.count += 1
        }
        self = larger
    }
}

// Slots by content fingerprint: the lookup every record of a resumed run makes.

/// A hash table from fingerprints to slots, filled once and then only read. Fingerprints are
/// hashes already, so their low bits pick the bucket (no hashing again, as `Dictionary` would),
/// and the table is one flat array of buckets probed in order, each key beside its slot: a
/// record's lookup is about one cache miss.
struct FingerprintTable: Sendable {
    private struct Bucket {
        var key: Int64 = 0
        /// The slot; ``empty`` for none, ``ambiguous`` for a fingerprint given twice.
        var value: Int32 = FingerprintTable.empty
    }

    private var buckets: [Bucket]
    private let mask: Int

    private static let empty: Int32 = -1
    private static let ambiguous: Int32 = -2

    /// A table for `capacity` fingerprints, at most half full.
    init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        buckets = Array(repeating: Bucket(), count: size)
        mask = size - 1
    }

    /// Adds `fingerprint` for `slot`: false, and neither kept, when it was there already (two
    /// items with one fingerprint, which only a collision makes, are trusted neither).
    ///
    /// - Precondition: fewer fingerprints than the capacity the table was made for, or it grows.
    mutating func insert(_ fingerprint: Int64, _ slot: Int32) -> Bool {
        if buckets.count < 2 * (count + 1) { grow() }
        var index = Int(truncatingIfNeeded: fingerprint) & mask
        while buckets[index].value != Self.empty {
            if buckets[index].key == fingerprint {
                buckets[index].value = Self.ambiguous
                return false
            }
            index = (index + 1) & mask
        }
        buckets[index] = Bucket(key: fingerprint, value: slot)
        count += 1
        return true
    }

    /// How many fingerprints it holds.
    private(set) var count = 0

    /// The slot of `fingerprint`, when it holds one.
    subscript(fingerprint: Int64) -> Int32? {
        buckets.withUnsafeBufferPointer { buckets in
            var index = Int(truncatingIfNeeded: fingerprint) & mask
            while true {
                let bucket = buckets[index]
                if bucket.value == Self.empty { return nil }
                if bucket.key == fingerprint { return bucket.value == Self.ambiguous ? nil : bucket.value }
                index = (index + 1) & mask
            }
        }
    }

    /// Twice the buckets, every fingerprint placed again.
    private mutating func grow() {
        var larger = FingerprintTable(capacity: buckets.count)
        for bucket in buckets where bucket.value != Self.empty {
            var index = Int(truncatingIfNeeded: bucket.key) & larger.mask
            while larger.buckets[index].value != Self.empty { index = (index + 1) & larger.mask }
            larger.buckets[index] = bucket
            larger.count += 1
        }
        self = larger
    }
}

// Slots by content fingerprint: the lookup every record of a resumed run makes.

/// A hash table from fingerprints to slots, made at once and then only read. Fingerprints are
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

    /// An empty table for `capacity` fingerprints, at most half full.
    private init(capacity: Int) {
        var size = 16
        while size < capacity * 2 { size <<= 1 }
        buckets = Array(repeating: Bucket(), count: size)
        mask = size - 1
    }

    /// A table of `fingerprints`, each for its index in the list, made at once: the buckets filled
    /// in one loop without checks, each a cache miss the processor can wait for beside the next
    /// ones. A fingerprint given twice (which only a collision makes) is trusted for neither.
    init(slotsOf fingerprints: [Int64]) {
        self.init(capacity: fingerprints.count)
        let mask = mask
        buckets.withUnsafeMutableBufferPointer { buckets in
            for (slot, fingerprint) in fingerprints.enumerated() {
                var index = Int(truncatingIfNeeded: fingerprint) & mask
                while buckets[index].value != Self.empty && buckets[index].key != fingerprint { index = (index + 1) & mask }
                if buckets[index].value == Self.empty {
                    buckets[index] = Bucket(key: fingerprint, value: Int32(slot))
                } else {
                    buckets[index].value = Self.ambiguous
                }
            }
        }
    }

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
}

// The hash the caches' keys compute once, when they are built.

/// A seeded multiply-mix hash for cache keys.
///
/// A word is looked up for every segment of every paragraph, and SipHash over a key's fields
/// would cost more than the lookup itself; a multiply-mix costs little per word. The
/// per-process seed keeps collisions unpredictable.
struct KeyHasher {
    /// Everything combined so far, mixed: a hasher resumed from it (``init(resuming:)``)
    /// continues where this one is.
    private(set) var state = Self.seed

    private static let seed = UInt64.random(in: .min ... .max)

    init() {}

    /// A hasher that continues from another's ``state``.
    init(resuming state: UInt64) { self.state = state }

    /// The hash of everything combined so far.
    var finalized: Int { Int(truncatingIfNeeded: state) }

    @inline(__always)
    mutating func combine(_ word: UInt64) { state = Self.mix(state, word) }

    @inline(__always)
    private static func mix(_ state: UInt64, _ word: UInt64) -> UInt64 {
        let mixed = (state ^ word) &* 0x9E37_79B9_7F4A_7C15
        return mixed ^ (mixed >> 29)
    }

    /// Any integer's bits (keys are built before values are validated: they may be negative).
    @inline(__always)
    mutating func combine(_ value: Int) { combine(UInt64(bitPattern: Int64(value))) }

    /// Combines the string's length and UTF-8 bytes, eight at a time (the same way whether or
    /// not the string's bytes are contiguous, so equal strings always hash alike).
    mutating func combine(bytesOf string: String) {
        combine(UInt64(string.utf8.count))
        // The state mixed in a local: through `self` it would go to memory and back for every
        // eight bytes, on the chain of multiplies a long key's hash waits for.
        self.state = string.withUTF8Bytes { [state] bytes in
            var state = state
            let raw = UnsafeRawBufferPointer(bytes)
            var offset = 0
            while offset + 8 <= raw.count {
                state = Self.mix(state, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
            }
            var tail: UInt64 = 0
            for index in offset..<raw.count { tail = tail << 8 | UInt64(raw[index]) }
            return Self.mix(state, tail)
        }
    }
}

// Stable fingerprints of content, for telling whether a stored row is still current.

/// A 64-bit FNV-1a hash of bytes, as 16 hexadecimal digits: the same bytes give the same
/// fingerprint in every run and on every machine (Swift's `Hasher` is seeded per process).
struct Fingerprint {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            state ^= UInt64(byte)
            state &*= 0x0000_0100_0000_01b3
        }
    }

    /// Adds `text` and a separator, so that ("ab", "c") and ("a", "bc") differ.
    mutating func add(_ text: String) {
        add(text.utf8)
        add(CollectionOfOne(0xFF))
    }

    var hex: String {
        let digits = String(state, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

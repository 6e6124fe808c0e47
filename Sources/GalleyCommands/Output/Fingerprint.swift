// Stable fingerprints of content, for telling whether a stored row is still current.

/// A 64-bit FNV-1a hash of bytes: the same bytes give the same fingerprint in every run and on
/// every machine (Swift's `Hasher` is seeded per process). Stored as a signed 64-bit integer.
struct Fingerprint {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            state ^= UInt64(byte)
            state &*= 0x0000_0100_0000_01b3
        }
    }

    mutating func add(_ bytes: ArraySlice<UInt8>) {
        var state = state
        bytes.withUnsafeBufferPointer { buffer in
            for byte in buffer {
                state ^= UInt64(byte)
                state &*= 0x0000_0100_0000_01b3
            }
        }
        self.state = state
    }

    /// Adds `text` and a separator, so that ("ab", "c") and ("a", "bc") differ.
    mutating func add(_ text: String) {
        add(text.utf8)
        add(CollectionOfOne(0xFF))
    }

    /// The hash's bits as a signed integer, as SQLite stores integers.
    var value: Int64 { Int64(bitPattern: state) }
}

// Stable fingerprints of content, for telling whether a stored row is still current.

/// A 64-bit hash of bytes: the same bytes give the same fingerprint in every run and on every
/// machine (Swift's `Hasher` is seeded per process). Texts and short values are hashed a byte at
/// a time (FNV-1a), an item's JSON a word at a time. Stored as a signed 64-bit integer.
struct Fingerprint {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            state ^= UInt64(byte)
            state &*= 0x0000_0100_0000_01b3
        }
    }

    /// Adds `bytes` eight at a time (a byte at a time, an item's text would cost a database run
    /// much of its time), each word mixed in by a multiply and a shift, the last word carrying
    /// how many bytes it holds. Thirty-two bytes and more go through four lanes side by side,
    /// each word's multiply waiting only for its own lane's last one, folded in order at the end.
    mutating func add(_ bytes: ArraySlice<UInt8>) {
        var state = state
        bytes.withUnsafeBytes { buffer in
            func mixed(_ state: UInt64, _ word: UInt64) -> UInt64 {
                let product = (state ^ word) &* 0xbf58_476d_1ce4_e5b9
                return product ^ (product >> 31)
            }
            func word(at offset: Int) -> UInt64 { UInt64(littleEndian: buffer.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
            var offset = 0
            if buffer.count >= 32 {
                var lanes = (state, state ^ 0x9e37_79b9_7f4a_7c15, state ^ 0x94d0_49bb_1331_11eb, state ^ 0xd6e8_feb8_6659_fd93)
                while offset + 32 <= buffer.count {
                    lanes.0 = mixed(lanes.0, word(at: offset))
                    lanes.1 = mixed(lanes.1, word(at: offset + 8))
                    lanes.2 = mixed(lanes.2, word(at: offset + 16))
                    lanes.3 = mixed(lanes.3, word(at: offset + 24))
                    offset += 32
                }
                state = mixed(mixed(mixed(mixed(state, lanes.0), lanes.1), lanes.2), lanes.3)
            }
            while offset + 8 <= buffer.count {
                state = mixed(state, word(at: offset))
                offset += 8
            }
            var last = UInt64(buffer.count - offset) << 56
            for index in offset..<buffer.count { last |= UInt64(buffer[index]) << (8 * UInt64(index - offset)) }
            state = mixed(state, last)
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

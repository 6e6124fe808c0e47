// UTF-16 lengths and code units of strings, read straight from their UTF-8 bytes.

extension String {
    /// Runs `body` with the string's UTF-8 bytes: in place when they are contiguous (always,
    /// for native strings), else from a contiguous copy. (A mutable copy's `withUTF8` would retain
    /// and release the string on every call.)
    @inline(__always)
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = self
        return copy.withUTF8(body)
    }

    /// The string's length in UTF-16 code units.
    ///
    /// The first `utf16.count` of a long non-ASCII string builds an index of breadcrumbs, which
    /// cost more than the rest of appending it to attributed text; one pass over the bytes does not.
    var utf16Length: Int {
        withUTF8Bytes { bytes in
            // A lead byte starts a scalar: one unit, or a surrogate pair from U+10000 (F0–F4).
            // Eight bytes at a time: each not a continuation byte (10xxxxxx) counts one, each
            // four-byte lead (11110xxx) one more.
            let highBits: UInt64 = 0x8080_8080_8080_8080
            var count = 0
            var index = 0
            if let base = bytes.baseAddress {
                let raw = UnsafeRawPointer(base)
                while index + 8 <= bytes.count {
                    let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    let continuations = word & ~(word << 1) & highBits
                    let fourByteLeads = word & (word << 1) & (word << 2) & (word << 3) & highBits
                    count += 8 - Self.countHighBits(continuations) + Self.countHighBits(fourByteLeads)
                    index += 8
                }
            }
            for byte in bytes[index...] where byte & 0xC0 != 0x80 {
                count += byte >= 0xF0 ? 2 : 1
            }
            return count
        }
    }

    /// The low four bytes of `word`, each in a 16-bit lane of its own, in order.
    @inline(__always)
    private static func widened(_ word: UInt64) -> UInt64 {
        var lanes = word & 0xFFFF_FFFF
        lanes = (lanes | lanes << 16) & 0x0000_FFFF_0000_FFFF
        return (lanes | lanes << 8) & 0x00FF_00FF_00FF_00FF
    }

    /// How many bytes of `word` have their high bit set, when no other bit is: the multiply
    /// adds the eight 0-or-1 bytes into the top one. (The baseline x86-64 this builds for has no
    /// population count instruction, and `nonzeroBitCount` is emulated.)
    @inline(__always)
    private static func countHighBits(_ word: UInt64) -> Int {
        Int(truncatingIfNeeded: ((word >> 7) &* 0x0101_0101_0101_0101) >> 56)
    }

    /// The string's UTF-16 code units, transcoded in one pass (a string's UTF-8 is always valid).
    var utf16Units: [UInt16] {
        withUTF8Bytes { bytes in
            // Never more units than bytes: one to three bytes make one unit, four make two.
            var result = [UInt16](filling: 0, count: bytes.count)
            let written = result.withUnsafeMutableBufferPointer { units in
                var index = 0
                var count = 0
                while index < bytes.count {
                    // Eight ASCII bytes at a time: most text, and one unit per byte.
                    if index + 8 <= bytes.count, let base = bytes.baseAddress {
                        // Little-endian order puts the first byte in the lowest bits on any machine.
                        let word = UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt64.self))
                        if word & 0x8080_8080_8080_8080 == 0 {
                            // Each half's four bytes spread to four 16-bit lanes, stored at once.
                            let target = UnsafeMutableRawPointer(units.baseAddress! + count)
                            target.storeBytes(of: Self.widened(word).littleEndian, as: UInt64.self)
                            target.storeBytes(of: Self.widened(word >> 32).littleEndian, toByteOffset: 8, as: UInt64.self)
                            count += 8
                            index += 8
                            continue
                        }
                    }
                    let lead = UInt32(bytes[index])
                    if lead < 0x80 {
                        units[count] = UInt16(lead)
                        count += 1
                        index += 1
                        continue
                    }
                    let (scalar, length) = bytes.scalar(at: index)
                    index += length
                    if scalar < 0x10000 {
                        units[count] = UInt16(scalar)
                        count += 1
                    } else {
                        units[count] = UInt16(0xD800 | ((scalar - 0x10000) >> 10))
                        units[count + 1] = UInt16(0xDC00 | (scalar & 0x3FF))
                        count += 2
                    }
                }
                return count
            }
            result.removeLast(result.count - written)
            return result
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The scalar whose valid UTF-8 starts at `index`, and its length in bytes.
    @inline(__always)
    func scalar(at index: Int) -> (value: UInt32, length: Int) {
        let lead = UInt32(self[index])
        @inline(__always) func trail(_ offset: Int) -> UInt32 { UInt32(self[index + offset]) & 0x3F }
        if lead < 0x80 { return (lead, 1) }
        if lead < 0xE0 { return ((lead & 0x1F) << 6 | trail(1), 2) }
        if lead < 0xF0 { return ((lead & 0x0F) << 12 | trail(1) << 6 | trail(2), 3) }
        return ((lead & 0x07) << 18 | trail(1) << 12 | trail(2) << 6 | trail(3), 4)
    }
}

// How many values a binary property list stands for once its shared references are followed.

/// A binary property list names its objects by reference, so a file of a thousand bytes can name
/// one array twice at each of forty levels: 2⁴⁰ values once read, which exhausts memory inside
/// Foundation before any record is made. This walks the list's object table (the format's
/// trailer, offset table and container markers) and counts the values it expands to, each
/// object once, stopping at `limit`.
enum BinaryPropertyListGraph {
    /// The number of values `bytes` expands to, up to `limit` (more is reported as `limit + 1`);
    /// nil when the table cannot be read (Foundation then says what is wrong) or has a cycle.
    static func expandedCount(_ bytes: [UInt8], limit: Int) -> Int? {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist".utf8)) else { return nil }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize),
              let objectCount = integer(bytes, at: trailer + 8, size: 8),
              let top = integer(bytes, at: trailer + 16, size: 8),
              let table = integer(bytes, at: trailer + 24, size: 8),
              objectCount > 0, objectCount <= bytes.count, top < objectCount,
              table + objectCount * offsetSize <= trailer
        else { return nil }
        var counts = [Int](repeating: -1, count: objectCount)  // -1 unseen, -2 in progress
        func count(_ object: Int, depth: Int) -> Int? {
            guard object < objectCount, depth < 512 else { return nil }
            if counts[object] >= 0 { return counts[object] }
            guard counts[object] == -1 else { return nil }  // a cycle
            counts[object] = -2
            guard let offset = integer(bytes, at: table + object * offsetSize, size: offsetSize), offset < trailer else { return nil }
            let marker = bytes[offset]
            var total = 1
            let kind = marker >> 4
            if kind == 0xA || kind == 0xC || kind == 0xD {
                guard let (elements, start) = lengthAndStart(bytes, at: offset) else { return nil }
                let length = kind == 0xD ? elements * 2 : elements
                guard start + length * referenceSize <= trailer else { return nil }
                for index in 0..<length {
                    guard let child = integer(bytes, at: start + index * referenceSize, size: referenceSize),
                          let childCount = count(child, depth: depth + 1) else { return nil }
                    total = min(total + childCount, limit + 1)
                }
            }
            counts[object] = total
            return total
        }
        return count(top, depth: 0)
    }

    /// A big-endian unsigned integer of `size` bytes at `offset`.
    private static func integer(_ bytes: [UInt8], at offset: Int, size: Int) -> Int? {
        guard offset >= 0, offset + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for index in 0..<size { value = value << 8 | UInt64(bytes[offset + index]) }
        return value > UInt64(Int.max) ? nil : Int(value)
    }

    /// A container's element count and where its references start.
    private static func lengthAndStart(_ bytes: [UInt8], at offset: Int) -> (Int, Int)? {
        let low = Int(bytes[offset] & 0x0F)
        guard low == 0x0F else { return (low, offset + 1) }
        guard offset + 1 < bytes.count, bytes[offset + 1] >> 4 == 0x1 else { return nil }
        let size = 1 << Int(bytes[offset + 1] & 0x0F)
        guard size <= 8, let length = integer(bytes, at: offset + 2, size: size) else { return nil }
        return (length, offset + 2 + size)
    }
}

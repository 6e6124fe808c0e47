// What a WOFF or WOFF2 file says it decompresses to, checked before anything is inflated.

/// The header and table directory of a WOFF (1.0) or WOFF2 file: compressed OpenType, which
/// FreeType decodes (HarfBuzz reads neither). A small file can declare gigabytes of tables; what
/// it declares is checked here, from its first bytes, before any of it is inflated.
struct WOFFHeader: Equatable {
    /// The bytes the decoded font takes, as the header declares them.
    var decodedSize: Int

    /// Why a WOFF file is refused before it is decoded.
    enum Problem: Error, Equatable {
        /// It declares more bytes than the limit (the larger of its header's total and its
        /// tables' sum).
        case tooLarge(Int)
        /// Its header and its tables disagree, or it is cut short.
        case malformed(String)
    }

    /// The bytes of the header and table directory that ``read(_:fileSize:limit:)`` needs, at
    /// most (the file's first 14 are enough to tell): WOFF's 44 bytes and 20 a table, WOFF2's 48
    /// and at most 15 a table; 0 when the bytes are not a WOFF or WOFF2 file's.
    static func neededBytes(_ prefix: UnsafeRawBufferPointer) -> Int {
        guard prefix.count >= 14, let signature = Signature(prefix) else { return 0 }
        let tables = Int(prefix.uint16(at: 12))
        return signature == .woff ? 44 + 20 * tables : 48 + 15 * tables
    }

    private enum Signature {
        case woff, woff2

        init?(_ bytes: UnsafeRawBufferPointer) {
            switch bytes.uint32(at: 0) {
            case 0x774F_4646: self = .woff  // "wOFF"
            case 0x774F_4632: self = .woff2  // "wOF2"
            default: return nil
            }
        }
    }

    /// The header of the file whose first bytes are `prefix` (at least ``neededBytes(_:)`` of
    /// them, or the whole file), when it is a WOFF or WOFF2 file; nil when it is not one.
    ///
    /// - Throws: ``Problem/tooLarge(_:)`` when it declares more than `limit` decoded bytes;
    ///   ``Problem/malformed(_:)`` when its header does not describe its tables and its size.
    static func read(_ prefix: UnsafeRawBufferPointer, fileSize: Int, limit: Int) throws(Problem) -> WOFFHeader? {
        guard prefix.count >= 4, let signature = Signature(prefix) else { return nil }
        // (A WOFF2 directory's entries are of varying length: each is checked as it is read.)
        guard prefix.count >= (signature == .woff ? 44 : 48), signature == .woff2 || prefix.count >= neededBytes(prefix) else {
            throw .malformed("its header or table directory is cut short")
        }
        // A collection (WOFF2 decodes one face of one at a time) is not read.
        guard prefix.uint32(at: 4) != 0x7474_6366 else { throw .malformed("it holds a font collection") }
        guard Int(prefix.uint32(at: 8)) == fileSize else { throw .malformed("its header gives its length as \(prefix.uint32(at: 8)), not \(fileSize)") }
        let tableCount = Int(prefix.uint16(at: 12))
        guard tableCount > 0 else { throw .malformed("it has no tables") }
        let declared = Int(prefix.uint32(at: 16))
        // What the tables decode to, each padded to four bytes, after the font's own header and directory.
        var sum = 12 + 16 * tableCount
        switch signature {
        case .woff:
            for table in 0..<tableCount {
                let entry = 44 + 20 * table
                let (offset, compressed, original) = (Int(prefix.uint32(at: entry + 4)), Int(prefix.uint32(at: entry + 8)), Int(prefix.uint32(at: entry + 12)))
                guard compressed <= original, offset <= fileSize, compressed <= fileSize - offset else {
                    throw .malformed("table \(table + 1) of its directory lies outside the file or grows when stored")
                }
                sum += (original + 3) & ~3
            }
            guard sum <= limit && declared <= limit else { throw .tooLarge(max(sum, declared)) }
            guard sum == declared else { throw .malformed("its header declares \(declared) decoded bytes, its tables \(sum)") }
        case .woff2:
            var position = 48
            for table in 0..<tableCount {
                // Flags (a known table's number, or 63 and the tag after), the original length,
                // and a transformed table's length: glyf and loca are transformed unless their
                // version is 3, other tables when it is not 0.
                guard position < prefix.count else { throw .malformed("its table directory is cut short") }
                let flags = prefix[position]
                position += 1
                var tag: UInt32 = 0
                if flags & 0x3F == 0x3F {
                    guard position + 4 <= prefix.count else { throw .malformed("its table directory is cut short") }
                    tag = prefix.uint32(at: position)
                    position += 4
                }
                guard let original = prefix.uintBase128(at: &position) else { throw .malformed("table \(table + 1) of its directory is malformed") }
                let isGlyfOrLoca = flags & 0x3F == 10 || flags & 0x3F == 11 || tag == 0x676C_7966 || tag == 0x6C6F_6361
                let version = flags >> 6
                if isGlyfOrLoca ? version != 3 : version != 0 {
                    guard prefix.uintBase128(at: &position) != nil else { throw .malformed("table \(table + 1) of its directory is malformed") }
                }
                sum += (original + 3) & ~3
            }
            // A transformed glyf may decode to another size than declared: only the larger counts.
            guard sum <= limit && declared <= limit else { throw .tooLarge(max(sum, declared)) }
        }
        return WOFFHeader(decodedSize: max(sum, declared))
    }
}

extension UnsafeRawBufferPointer {
    fileprivate func uint16(at offset: Int) -> UInt16 { UInt16(self[offset]) << 8 | UInt16(self[offset + 1]) }
    fileprivate func uint32(at offset: Int) -> UInt32 { UInt32(uint16(at: offset)) << 16 | UInt32(uint16(at: offset + 2)) }

    /// WOFF2's variable-length integer (seven bits a byte, at most five bytes, no leading
    /// zeros, within 32 bits) at `position`, which moves past it; nil when malformed.
    fileprivate func uintBase128(at position: inout Int) -> Int? {
        var value = 0
        for index in 0..<5 {
            guard position < count else { return nil }
            let byte = self[position]
            position += 1
            if index == 0 && byte == 0x80 { return nil }
            value = value << 7 | Int(byte & 0x7F)
            guard value <= Int(UInt32.max) else { return nil }
            if byte & 0x80 == 0 { return value }
        }
        return nil
    }
}

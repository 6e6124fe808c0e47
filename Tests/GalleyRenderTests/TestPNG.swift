// PNG files written here byte by byte, apart from the code that reads them: every colour type
// and depth, interlaced or not, with whatever chunks a test adds, and zlib streams that inflate
// to far more than they take.

/// A PNG file's parts, written as the format says.
enum TestPNG {
    /// Colour types.
    static let gray: UInt8 = 0, rgb: UInt8 = 2, palette: UInt8 = 3, grayAlpha: UInt8 = 4, rgba: UInt8 = 6

    /// A PNG `width` × `height` of `colorType` at `bitDepth`, each sample `sample(x, y, channel)`
    /// (masked to the depth), with `palette` (RGB triples) and `transparency` (a tRNS chunk's
    /// data) when given, `extra` chunks before the image data, Adam7-interlaced when asked.
    static func file(
        width: Int, height: Int, colorType: UInt8, bitDepth: UInt8, interlaced: Bool = false, palette: [UInt8]? = nil,
        transparency: [UInt8]? = nil, extra: [(type: String, data: [UInt8])] = [], sample: (Int, Int, Int) -> Int
    ) -> [UInt8] {
        let channels = [Self.gray: 1, Self.rgb: 3, Self.palette: 1, Self.grayAlpha: 2, Self.rgba: 4][colorType]!
        var header: [UInt8] = []
        header += bigEndian(UInt32(width))
        header += bigEndian(UInt32(height))
        header += [bitDepth, colorType, 0, 0, interlaced ? 1 : 0]
        // Each pass's rows (the whole image when not interlaced), each row filter 0 then its
        // samples packed big-endian.
        let passes: [(x: Int, y: Int, dx: Int, dy: Int)] =
            interlaced ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)] : [(0, 0, 1, 1)]
        var raw: [UInt8] = []
        for pass in passes {
            let columns = stride(from: pass.x, to: width, by: pass.dx).map { $0 }
            guard !columns.isEmpty else { continue }
            for y in stride(from: pass.y, to: height, by: pass.dy) {
                raw.append(0)
                var bits: [Int] = []
                for x in columns {
                    for channel in 0..<channels { bits.append(sample(x, y, channel) & (1 << Int(bitDepth) - 1)) }
                }
                raw += pack(bits, depth: Int(bitDepth))
            }
        }
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        file += chunk("IHDR", header)
        for (type, data) in extra { file += chunk(type, data) }
        if let palette { file += chunk("PLTE", palette) }
        if let transparency { file += chunk("tRNS", transparency) }
        file += chunk("IDAT", zlibStored(raw))
        file += chunk("IEND", [])
        return file
    }

    /// A chunk: its length, type, data and CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    /// A zlib stream of `data` in stored (uncompressed) blocks.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65_535, data.count - start)
            let final: UInt8 = start + count == data.count ? 1 : 0
            stream += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            stream += data[start..<start + count]
            start += count
        } while start < data.count
        return stream + bigEndian(adler32(repeating: nil, data))
    }

    /// A zlib stream that inflates to `count` bytes of `byte` (one literal, then matches of 258
    /// bytes a distance of 1 back, in a fixed-Huffman block): about 160 times smaller.
    static func zlibBomb(of byte: UInt8, count: Int) -> [UInt8] {
        var writer = BitWriter()
        writer.write(1, bits: 1)  // the final block
        writer.write(1, bits: 2)  // fixed Huffman codes
        writer.writeCode(literalCode(byte))
        var left = count - 1
        while left > 0 {
            // Lengths 3…258 (codes 257…285 with their extra bits); only 258 and, at the end,
            // a literal run keep this short.
            if left >= 258 {
                writer.writeCode((0b1100_0101, 8))  // length 258: code 285
                writer.writeCode((0, 5))  // distance 1: code 0
                left -= 258
            } else {
                writer.writeCode(literalCode(byte))
                left -= 1
            }
        }
        writer.writeCode((0, 7))  // end of block
        return [0x78, 0x01] + writer.bytes + bigEndian(adler32(repeating: (byte, count), []))
    }

    /// The fixed Huffman code of a literal byte.
    private static func literalCode(_ byte: UInt8) -> (code: Int, bits: Int) {
        byte < 144 ? (0x30 + Int(byte), 8) : (0x190 + Int(byte) - 144, 9)
    }

    private struct BitWriter {
        var bytes: [UInt8] = []
        var used = 8

        /// `bits` bits of `value`, least significant first (how deflate packs numbers).
        mutating func write(_ value: Int, bits: Int) {
            for bit in 0..<bits {
                if used == 8 {
                    bytes.append(0)
                    used = 0
                }
                bytes[bytes.count - 1] |= UInt8((value >> bit) & 1) << used
                used += 1
            }
        }

        /// A Huffman code, most significant bit first.
        mutating func writeCode(_ code: (code: Int, bits: Int)) {
            for bit in (0..<code.bits).reversed() { write((code.code >> bit) & 1, bits: 1) }
        }
    }

    private static func pack(_ samples: [Int], depth: Int) -> [UInt8] {
        if depth == 16 { return samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
        if depth == 8 { return samples.map { UInt8($0) } }
        var bytes: [UInt8] = []
        var used = 8
        for sample in samples {
            if used == 8 {
                bytes.append(0)
                used = 0
            }
            bytes[bytes.count - 1] |= UInt8(sample) << (8 - depth - used)
            used += depth
        }
        return bytes
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The Adler-32 of `bytes`, or of `repeating.count` copies of one byte.
    private static func adler32(repeating: (byte: UInt8, count: Int)?, _ bytes: [UInt8]) -> UInt32 {
        var (a, b): (UInt64, UInt64) = (1, 0)
        if let (byte, count) = repeating {
            // a grows by the byte each time; b by each a: closed forms, modulo 65521.
            let n = UInt64(count)
            let value = UInt64(byte)
            a = (1 + n * value) % 65_521
            b = (n + value * (n * (n + 1) / 2 % 65_521)) % 65_521
        } else {
            for byte in bytes {
                a = (a + UInt64(byte)) % 65_521
                b = (b + a) % 65_521
            }
        }
        return UInt32(b << 16 | a)
    }
}

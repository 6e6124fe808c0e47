// WOFF files: loaded as the OpenType font they hold, what they declare to decode to checked
// against the limits before anything is inflated, and counted at that size.

import Foundation
import Testing

@testable import GalleyText

@Suite("WOFF fonts")
struct WOFFTests {
    /// A table for ``woff(_:declared:length:)``: its tag, its bytes as stored, and the length it
    /// declares decoded (the stored bytes' own when they are stored uncompressed).
    struct Table {
        var tag: String
        var stored: [UInt8]
        var originalLength: Int
    }

    /// The tables of an OpenType file, each stored as it is.
    static func tables(ofTTF path: String) throws -> (flavor: UInt32, tables: [Table]) {
        let font = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func uint32(_ offset: Int) -> Int { font[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let count = Int(font[4]) << 8 | Int(font[5])
        let tables = (0..<count).map { index in
            let entry = 12 + 16 * index
            let (offset, length) = (uint32(entry + 8), uint32(entry + 12))
            return Table(
                tag: String(decoding: font[entry..<(entry + 4)], as: UTF8.self), stored: Array(font[offset..<(offset + length)]), originalLength: length)
        }
        return (UInt32(uint32(0)), tables)
    }

    /// What `tables` decode to: the font's header and directory, and each table padded to four bytes.
    static func decodedSize(_ tables: [Table]) -> Int { tables.reduce(12 + 16 * tables.count) { $0 + ($1.originalLength + 3) & ~3 } }

    /// A WOFF 1.0 file of `tables` (sorted by tag, as the format wants), its header declaring
    /// `declared` decoded bytes (by default what they decode to) and `length` bytes of file (by
    /// default its own).
    static func woff(flavor: UInt32, _ tables: [Table], declared: Int? = nil, length: Int? = nil) -> [UInt8] {
        let tables = tables.sorted { $0.tag < $1.tag }
        var out = [UInt8](repeating: 0, count: 44 + 20 * tables.count)
        func put(_ value: Int, _ size: Int, at offset: Int) {
            for index in 0..<size { out[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - index))) }
        }
        for (index, table) in tables.enumerated() {
            let entry = 44 + 20 * index
            out.replaceSubrange(entry..<(entry + 4), with: Array(table.tag.utf8))
            put(out.count, 4, at: entry + 4)
            put(table.stored.count, 4, at: entry + 8)
            put(table.originalLength, 4, at: entry + 12)
            out += table.stored
            while out.count % 4 != 0 { out.append(0) }
        }
        out.replaceSubrange(0..<4, with: Array("wOFF".utf8))
        put(Int(flavor), 4, at: 4)
        put(length ?? out.count, 4, at: 8)
        put(tables.count, 2, at: 12)
        put(declared ?? decodedSize(tables), 4, at: 16)
        put(1, 2, at: 20)
        return out
    }

    static func write(_ bytes: [UInt8], _ name: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("A WOFF file loads as the OpenType font it holds: the glyphs, advances, metrics and measurements of its TTF")
    func loadsAsItsFont() throws {
        let folder = try FontAccessTests.folder("woff")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (flavor, tables) = try Self.tables(ofTTF: FontAccessTests.hebrew)
        let path = try Self.write(Self.woff(flavor: flavor, tables), "hebrew.woff", in: folder)
        // No bundled fonts: nothing to fall back on, every glyph is the face's own.
        let fonts = try FontCollection(includeBundled: false)
        let ttf = try fonts.face(for: .file(FontAccessTests.hebrew))
        let woff = try fonts.face(for: .file(path))
        #expect(woff.familyName == ttf.familyName && woff.metrics == ttf.metrics && woff.weight == ttf.weight)
        for scalar in "שלום עולם, hello 123".unicodeScalars {
            #expect(woff.glyph(for: scalar) == ttf.glyph(for: scalar), "\(scalar)")
            if let glyph = ttf.glyph(for: scalar) { #expect(woff.advance(ofGlyph: glyph) == ttf.advance(ofGlyph: glyph)) }
        }
        #expect(ttf.glyph(for: "ש") != nil)
        let engine = TextEngine(fonts: fonts)
        for text in ["שלום עולם", "שלום עולם שלום עולם שלום עולם שלום עולם שלום עולם"] {
            let measured = { (font: String) in try engine.measure(text, style: TextStyle(font: .file(font), size: 17), width: 120) }
            #expect(try measured(path) == measured(FontAccessTests.hebrew))
        }
        // The face holds the decoded font, not the file: that is what it counts, and what a
        // renderer loads.
        let decoded = Self.decodedSize(tables)
        #expect(woff.data.bytes.count == decoded)
        #expect(woff.data.bytes.starts(with: [0, 1, 0, 0]))
        let alone = try FontCollection(includeBundled: false)
        _ = try alone.face(for: .file(path))
        #expect(alone.loadedFontBytes == decoded)
    }

    @Test("The loaded-bytes bound and the file limit count what a WOFF file decodes to")
    func countedDecoded() throws {
        let folder = try FontAccessTests.folder("woff-counted")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (flavor, tables) = try Self.tables(ofTTF: FontAccessTests.hebrew)
        let path = try Self.write(Self.woff(flavor: flavor, tables), "hebrew.woff", in: folder)
        let decoded = Self.decodedSize(tables)
        // Stored uncompressed, the file is larger than the font (its longer header and directory).
        let fileSize = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(fileSize > decoded)
        for (limit, loads) in [(decoded, true), (decoded - 1, false)] {
            let held = try FontCollection(includeBundled: false, access: FontAccess(paths: .anywhere, maximumLoadedBytes: limit))
            #expect(((try? held.face(for: .file(path))) != nil) == loads, "loaded bytes \(limit)")
            #expect(held.loadedFontBytes == (loads ? decoded : 0))
        }
        // The file limit: the file's size for the file, its decoded size for what it declares.
        let atFile = try FontCollection(includeBundled: false, access: FontAccess(paths: .anywhere, maximumFileSize: fileSize))
        #expect(try atFile.face(for: .file(path)).familyName == "Noto Sans Hebrew")
        let compressedLie = try Self.write(
            Self.woff(flavor: flavor, tables + [Table(tag: "zzzz", stored: [1, 2, 3, 4], originalLength: 4 << 20)]), "big.woff", in: folder)
        let under = try FontCollection(includeBundled: false, access: FontAccess(paths: .anywhere, maximumFileSize: 4 << 20))
        #expect(throws: FontError.unusableFile(path: compressedLie)) { try under.face(for: .file(compressedLie)) }
    }

    @Test("A WOFF declaring more than the limit is refused from its header, nothing inflated, alike for requests and told for registered fonts")
    func declaredTooLarge() throws {
        let folder = try FontAccessTests.folder("woff-bomb")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (flavor, tables) = try Self.tables(ofTTF: FontAccessTests.hebrew)
        // The shape: a table declaring 2,000,000,000 bytes, its stored bytes a few (not
        // even zlib's: inflating them would fail otherwise, with FreeType's error).
        let bomb = tables + [Table(tag: "zzzz", stored: Array(repeating: 0x55, count: 16), originalLength: 2_000_000_000)]
        let path = try Self.write(Self.woff(flavor: flavor, bomb), "bomb.woff", in: folder)
        let declared = Self.decodedSize(bomb)
        let fonts = try FontCollection(includeBundled: false)
        #expect(throws: FontError.unusableFile(path: path)) { try fonts.face(for: .file(path)) }
        #expect(fonts.loadedFontBytes == 0)
        // Refused when opened, from the header alone.
        #expect(throws: FontFile.Failure.decodedTooLarge(declared)) { try FontFile.Opened(path: path, limit: 32 << 20) }
        // Registered (the process's own fonts, mapped whatever their size), it is told, past
        // what HarfBuzz holds.
        let larger = tables + [Table(tag: "zzzz", stored: Array(repeating: 0x55, count: 16), originalLength: 3_000_000_000)]
        let registered = try Self.write(Self.woff(flavor: flavor, larger), "larger.woff", in: folder)
        let reason = "declared decompressed size \(Self.decodedSize(larger)) is more than the limit of \(Int32.max)"
        #expect(throws: FontError.invalidFont(path: registered, reason: reason)) { try FontCollection(includeBundled: false, fontPaths: [registered]) }
    }

    @Test(
        "A WOFF whose header disagrees with its tables or its length is refused before it is decoded",
        arguments: ["declared less", "declared more", "length", "outside", "grows", "cut short"])
    func lyingHeader(_ lie: String) throws {
        let folder = try FontAccessTests.folder("woff-lie")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (flavor, tables) = try Self.tables(ofTTF: FontAccessTests.hebrew)
        let decoded = Self.decodedSize(tables)
        var bytes: [UInt8]
        switch lie {
        case "declared less": bytes = Self.woff(flavor: flavor, tables, declared: decoded - 4)
        case "declared more": bytes = Self.woff(flavor: flavor, tables, declared: decoded + 4)
        case "length": bytes = Self.woff(flavor: flavor, tables, length: 1000)
        case "outside":
            bytes = Self.woff(flavor: flavor, tables)
            bytes[44 + 4] = 0x7F  // the first table's offset, far past the end
        case "grows": bytes = Self.woff(flavor: flavor, tables + [Table(tag: "zzzz", stored: [1, 2, 3, 4, 5], originalLength: 4)])
        default: bytes = Array(Self.woff(flavor: flavor, tables).prefix(60))
        }
        let path = try Self.write(bytes, "lie.woff", in: folder)
        #expect(throws: FontError.unusableFile(path: path)) { try FontCollection(includeBundled: false).face(for: .file(path)) }
        #expect {
            try FontCollection(includeBundled: false, fontPaths: [path])
        } throws: { error in
            guard case .invalidFont(path, let reason) = error as? FontError else { return false }
            return !reason.contains("FreeType")
        }
    }

    @Test("WOFF2 headers: tables' declared lengths summed with transformed lengths skipped, collections refused, the limit applied")
    func woff2Header() throws {
        // Header (48 bytes), then entries: head (known 1), a named table with its tag, glyf (10,
        // transformed: a transform length follows), loca (11, transformed), hmtx (3) with version
        // 1 (transformed), name (5).
        func base128(_ value: Int) -> [UInt8] {
            var groups = [UInt8(value & 0x7F)]
            var rest = value >> 7
            while rest > 0 {
                groups.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            return groups
        }
        let entries: [[UInt8]] = [
            [1] + base128(54), [0x3F] + Array("ZZZZ".utf8) + base128(300), [10] + base128(20_000) + base128(9_000),
            [11] + base128(1_000) + base128(0), [3 | 0x40] + base128(4_000) + base128(100), [5] + base128(777),
        ]
        let sum = 12 + 16 * 6 + [54, 300, 20_000, 1_000, 4_000, 777].reduce(0) { $0 + ($1 + 3) & ~3 }
        func header(flavor: UInt32 = 0x0001_0000, declared: Int) -> [UInt8] {
            var bytes = Array("wOF2".utf8) + [UInt8](repeating: 0, count: 44)
            let body = entries.joined()
            let length = bytes.count + body.count
            for (offset, value, size) in [(4, Int(flavor), 4), (8, length, 4), (12, entries.count, 2), (16, declared, 4)] {
                for index in 0..<size { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * (size - 1 - index))) }
            }
            return bytes + body
        }
        func read(_ bytes: [UInt8], limit: Int = 1 << 20) throws(WOFFHeader.Problem) -> WOFFHeader? {
            try bytes.withUnsafeBytes { raw in Result { () throws(WOFFHeader.Problem) in try WOFFHeader.read(raw, fileSize: bytes.count, limit: limit) } }.get()
        }
        #expect(try read(header(declared: sum)) == WOFFHeader(decodedSize: sum))
        // The larger of the two counts: a header declaring less than its tables says is no way past the limit.
        #expect(try read(header(declared: 100)) == WOFFHeader(decodedSize: sum))
        #expect(throws: WOFFHeader.Problem.tooLarge(sum)) { try read(header(declared: 100), limit: sum - 1) }
        #expect(throws: WOFFHeader.Problem.tooLarge(1 << 30)) { try read(header(declared: 1 << 30)) }
        #expect(throws: WOFFHeader.Problem.malformed("it holds a font collection")) { try read(header(flavor: 0x7474_6366, declared: sum)) }
        #expect(throws: WOFFHeader.Problem.self) { try read(Array(header(declared: sum).dropLast(3))) }
        #expect(try read(Array(try Data(contentsOf: URL(fileURLWithPath: FontAccessTests.hebrew)))) == nil)
    }
}

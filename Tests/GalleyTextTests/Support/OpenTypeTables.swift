// A minimal OpenType table reader, written for the tests so that font metrics are checked
// against the font's own bytes rather than against FreeType or HarfBuzz.

import Foundation

struct OpenTypeTables {
    let data: Data
    /// Table tag -> (offset, length) for the chosen face.
    let directory: [String: (offset: Int, length: Int)]

    init(path: String, faceIndex: Int = 0) throws {
        data = try Data(contentsOf: URL(fileURLWithPath: path))
        var base = 0
        if data.count >= 4 && String(decoding: data[0..<4], as: UTF8.self) == "ttcf" {
            base = Int(Self.uint32(data, 12 + 4 * faceIndex))
        }
        let tableCount = Int(Self.uint16(data, base + 4))
        var directory: [String: (Int, Int)] = [:]
        for table in 0..<tableCount {
            let record = base + 12 + 16 * table
            let tag = String(decoding: data[record..<(record + 4)], as: UTF8.self)
            directory[tag] = (Int(Self.uint32(data, record + 8)), Int(Self.uint32(data, record + 12)))
        }
        self.directory = directory
    }

    func uint16(_ table: String, _ offset: Int) -> Int { Int(Self.uint16(data, directory[table]!.offset + offset)) }
    func int16(_ table: String, _ offset: Int) -> Int { Int(Int16(bitPattern: Self.uint16(data, directory[table]!.offset + offset))) }

    var unitsPerEm: Int { uint16("head", 18) }
    var hheaAscender: Int { int16("hhea", 4) }
    var hheaDescender: Int { int16("hhea", 6) }
    var hheaLineGap: Int { int16("hhea", 8) }
    var os2Version: Int { uint16("OS/2", 0) }
    var weightClass: Int { uint16("OS/2", 4) }
    var fsSelection: Int { uint16("OS/2", 62) }
    var typoAscender: Int { int16("OS/2", 68) }
    var typoDescender: Int { int16("OS/2", 70) }
    var typoLineGap: Int { int16("OS/2", 72) }
    var xHeight: Int { os2Version >= 2 ? int16("OS/2", 86) : 0 }
    var capHeight: Int { os2Version >= 2 ? int16("OS/2", 88) : 0 }
    var usesTypoMetrics: Bool { fsSelection & 0x80 != 0 }

    private static func uint16(_ data: Data, _ offset: Int) -> UInt16 {
        UInt16(data[data.startIndex + offset]) << 8 | UInt16(data[data.startIndex + offset + 1])
    }

    private static func uint32(_ data: Data, _ offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 << 8 | UInt32(data[data.startIndex + offset + $1]) }
    }
}

// The formats inputs come in, and telling them apart.

import ArgumentParser

/// An input file's format: given with `--input-format`, or told from the file's extension, or
/// else from its first bytes.
enum InputFormat: String, CaseIterable, ExpressibleByArgument, Sendable {
    case jsonl, json, csv, tsv, xml, plist

    /// The format an extension names, if any.
    static func named(byExtensionOf path: String) -> InputFormat? {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        switch path[path.index(after: dot)...].lowercased() {
        case "jsonl", "ndjson", "jsonlines": return .jsonl
        case "csv": return .csv
        case "tsv", "tab": return .tsv
        case "xml", "rss", "atom", "rdf": return .xml
        case "plist": return .plist
        default: return nil  // .json can be an array or JSON Lines: its first bytes tell
        }
    }

    /// The format of a file that starts with `prefix` (after a UTF-8 byte order mark and white
    /// space): `[` a JSON array, `{` JSON Lines, `bplist` or an XML `plist` a property list, `<`
    /// XML; anything else CSV when its first line has a comma, JSON Lines otherwise (whose errors
    /// then say what the lines hold).
    static func detect(_ prefix: [UInt8]) -> InputFormat {
        if prefix.starts(with: Array("bplist".utf8)) { return .plist }
        var bytes = prefix[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        bytes = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        switch bytes.first {
        case UInt8(ascii: "[")?: return .json
        case UInt8(ascii: "{")?: return .jsonl
        case UInt8(ascii: "<")?:
            let text = String(decoding: bytes, as: UTF8.self)
            return text.contains("<plist") || text.contains("-//Apple//DTD PLIST") ? .plist : .xml
        default:
            let firstLine = bytes.prefix { $0 != 0x0A }
            if firstLine.contains(UInt8(ascii: ",")) { return .csv }
            if firstLine.contains(0x09) { return .tsv }
            return .jsonl
        }
    }
}

// The input readers (JSON Lines, JSON arrays, CSV, TSV, XML, property lists) and the HTML
// reduction: any file gives records or located errors (or is refused whole, naming itself),
// each record an object that writes as JSON and parses back; the file as one HTML field, with
// few attributes, gives the same text rewritten without them.

import Foundation
import FuzzDriver
import GalleyJSON

// The HTML reduction's parts are internal (reached with @testable in this debug build).
@testable import GalleyCommands

/// The file each input is written to: the readers read files, as the commands do.
private let path = NSTemporaryDirectory() + "galley-fuzz-inputs-\(getpid())"
private let formats: [String?] = [nil, "jsonl", "json", "csv", "tsv", "xml", "plist"]

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzInputs(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = fuzzBytes(start, count)
    guard let selector = bytes.first else { return 0 }
    // The first byte picks the format and whether HTML is reduced; the rest is the file.
    let format = formats[Int(selector) % formats.count]
    let stripHTML = selector & 0x80 != 0
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes.dropFirst())) else { finding("cannot write \(path)") }
    if stripHTML, let html = String(validating: bytes.dropFirst(), as: UTF8.self) { checkAttributeStripping(html) }
    let records: [InputReading.Record]
    do {
        records = try InputReading.records(ofFile: path, format: format, recordName: selector & 0x40 != 0 ? "item" : nil, stripHTML: stripHTML)
    } catch let refused as InputReading.FileRefused {
        // A file refused as a whole (XML that is not a feed, CSV columns that conflict) says so.
        guard refused.description.hasPrefix("cannot read \(path): ") else { finding("a refusal that does not name the file: \(refused)") }
        return 0
    } catch {
        finding("reading a regular file threw: \(error)")
    }
    // Every record but a CSV's blank lines stands for some bytes; one error may close a file.
    guard records.count <= bytes.count + 1 else { finding("\(records.count) records from \(bytes.count) bytes") }
    for record in records {
        switch record {
        case .error(let message):
            guard !message.isEmpty else { finding("an error without a message") }
        case .object(let object):
            var written: [UInt8] = []
            JSONWriter.write(.object(object), to: &written)
            guard case .object? = try? JSONParser.parse(written) else {
                finding("a record does not write as a JSON object: \(String(decoding: written, as: UTF8.self))")
            }
        }
    }
    return 0
}

/// Rewritten without attributes, an HTML field that libxml2 reads as it is (no tag with more
/// than the limit) gives the same text: the rewrite reads markup as libxml2 does. Not compared
/// where they are known to differ: a script's or style's text with the end tag of another
/// element (which libxml2 reads as ending it where that element encloses it, a browser and the
/// rewrite not); a NUL in the first eight bytes (where libxml2, after byte order marks, may
/// take it for another encoding's); U+FFFE or U+FFFF (in a tag, libxml2 builds nothing after it).
private func checkAttributeStripping(_ html: String) {
    guard !html.unicodeScalars.contains(where: { $0.value == 0xFFFE || $0.value == 0xFFFF }) else { return }
    var html = html
    html.withUTF8 { bytes in
        guard !bytes.prefix(8).contains(0), !hasOtherEndTagInRawText(bytes), !HTMLAttributeBound.exceeds(HTMLText.attributeLimit, in: bytes) else { return }
        let stripped = HTMLAttributeStripper.stripped(bytes)
        let expected = HTMLText.parsedText(of: bytes)
        let text = stripped.withUnsafeBufferPointer { HTMLText.parsedText(of: $0) }
        guard text == expected else {
            let rewritten = String(decoding: stripped, as: UTF8.self)
            finding("rewritten without attributes, \(rewritten.debugDescription) reads as \(text.debugDescription), not \(expected.debugDescription)")
        }
    }
}

/// Whether, after a `<script` or `<style`, an end tag names something else (found crudely, in
/// any case: it only narrows what is compared).
private func hasOtherEndTagInRawText(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let lowercased = bytes.map { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") ? $0 | 0x20 : $0 }
    let text = String(decoding: lowercased, as: UTF8.self)
    guard let raw = [text.range(of: "<script"), text.range(of: "<style")].compactMap({ $0?.lowerBound }).min() else { return false }
    var rest = text[raw...]
    while let endTag = rest.range(of: "</") {
        rest = rest[endTag.upperBound...]
        let name = rest.prefix { $0.isLetter || $0.isNumber || "-_:.".contains($0) }
        if let first = name.first, first.isASCII, first.isLetter, name != "script", name != "style" { return true }
    }
    return false
}

@_cdecl("FuzzInputs_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzInputs)
}

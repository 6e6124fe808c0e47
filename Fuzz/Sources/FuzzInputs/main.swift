// The input readers (JSON Lines, JSON arrays, CSV, TSV, XML, property lists) and the HTML
// reduction: any file gives records or located errors (or is refused whole, naming itself),
// each record an object that writes as JSON and parses back.

import Foundation
import FuzzDriver
import GalleyCommands
import GalleyJSON

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

@_cdecl("FuzzInputs_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzInputs)
}

// The JSON parser: any bytes parse or fail with an error, and what parses writes and parses back
// to the same value. (The name cache JSON Lines readers use is package plumbing: FuzzInputs
// reaches it through the readers, and the unit tests hold it to the plain parse.)

import FuzzDriver
import GalleyJSON

@_cdecl("LLVMFuzzerTestOneInput")
func fuzzJSON(_ start: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let bytes = fuzzBytes(start, count)
    let parsed = try? JSONParser.parse(bytes)
    guard let value = parsed else { return 0 }
    var written: [UInt8] = []
    JSONWriter.write(value, to: &written)
    guard let again = try? JSONParser.parse(written) else { finding("written JSON does not parse: \(String(decoding: written, as: UTF8.self))") }
    guard sameValue(value, again) else { finding("writing and parsing changed the value") }
    var rewritten: [UInt8] = []
    JSONWriter.write(again, to: &rewritten)
    guard rewritten == written else { finding("writing the value again gave other bytes") }
    return 0
}

/// Whether two values are the same JSON value: numbers by value, whether written as integers
/// or not (1.0 is written as 1), objects by members (the writer sorts them).
private func sameValue(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.integer, _), (.number, _):
        guard let left = lhs.doubleValue, let right = rhs.doubleValue else { return false }
        return left == right
    case (.array(let left), .array(let right)):
        return left.count == right.count && zip(left, right).allSatisfy(sameValue)
    case (.object(let left), .object(let right)):
        return left.count == right.count && left.allSatisfy { key, value in right[key].map { sameValue(value, $0) } ?? false }
    default:
        return lhs == rhs
    }
}

@_cdecl("FuzzJSON_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    runFuzzer(argc, argv, fuzzJSON)
}

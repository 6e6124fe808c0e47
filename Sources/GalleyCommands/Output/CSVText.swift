// Values written as CSV fields.

import GalleyJSON

enum CSVText {
    /// Appends `text` as one CSV field: quoted (with quotes doubled) when it holds a comma, a
    /// quote or a line break, or starts or ends with a space.
    static func append(_ text: String, to bytes: inout [UInt8]) {
        let needsQuotes =
            text.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || text.first == " " || text.last == " "
        guard needsQuotes else {
            bytes += text.utf8
            return
        }
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends a JSON value as a field: a string as its text, a number as JSON writes it.
    static func append(_ value: JSONValue, to bytes: inout [UInt8]) {
        if case .string(let text) = value { return append(text, to: &bytes) }
        var json: [UInt8] = []
        JSONWriter.write(value, to: &json)
        append(String(decoding: json, as: UTF8.self), to: &bytes)
    }
}

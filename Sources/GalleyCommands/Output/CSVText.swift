// Values written as CSV fields.

import GalleyJSON

enum CSVText {
    /// Appends `text` as one CSV field: quoted (with quotes doubled) when it holds a comma, a
    /// quote or a line break, or starts or ends with a space. A NUL, which no CSV reader keeps,
    /// is written as U+FFFD. With `guardingFormulas`, a field a spreadsheet would run as a
    /// formula (one that starts with `=`, `+`, `-`, `@`, a tab or a carriage return) starts
    /// with `'`, as OWASP advises for CSV that people open.
    static func append(_ text: String, guardingFormulas: Bool, to bytes: inout [UInt8]) {
        let guarded = guardingFormulas && text.utf8.first.map(formulaStarts.contains) == true
        let needsQuotes =
            text.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
            || text.first == " " || text.last == " "
        if !needsQuotes && !guarded && !text.utf8.contains(0) {
            bytes += text.utf8
            return
        }
        if needsQuotes { bytes.append(UInt8(ascii: "\"")) }
        if guarded { bytes.append(UInt8(ascii: "'")) }
        for byte in text.utf8 {
            if byte == 0 {
                bytes += "\u{FFFD}".utf8
                continue
            }
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte)
        }
        if needsQuotes { bytes.append(UInt8(ascii: "\"")) }
    }

    /// The first bytes that make a spreadsheet read a cell as a formula.
    private static let formulaStarts: Set<UInt8> = [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@"), 0x09, 0x0D]

    /// Appends a JSON value as a field: a string as its text (see
    /// ``append(_:guardingFormulas:to:)``), a number as JSON writes it (a number is never a
    /// formula: `-5` stays `-5`).
    static func append(_ value: JSONValue, guardingFormulas: Bool, to bytes: inout [UInt8]) {
        if case .string(let text) = value { return append(text, guardingFormulas: guardingFormulas, to: &bytes) }
        var json: [UInt8] = []
        JSONWriter.write(value, to: &json)
        let isNumber: Bool =
            switch value {
            case .integer, .number, .numeral: true
            default: false
            }
        append(String(decoding: json, as: UTF8.self), guardingFormulas: guardingFormulas && !isNumber, to: &bytes)
    }
}

// Values of formats that hold only text (CSV cells, XML text) as JSON values.

import GalleyJSON

enum TextValues {
    /// `text` as a JSON value: a number when it is written as JSON writes one (so that an image
    /// size or a count in a CSV column reads as a number), kept as written (`1.50` stays `1.50`
    /// in a label); any other text as a string. "007", "1e", "1e999" and "" stay strings.
    static func value(_ text: String) -> JSONValue {
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || (first >= 0x30 && first <= 0x39),
            isJSONNumber(text.utf8),
            // What the JSON parser takes, so that the text written back parses (it refuses
            // exponents past a double's range, for one).
            let parsed = try? JSONParser.parse(text)
        else { return .string(text) }
        if case .integer = parsed { return parsed }
        return .numeral(text)
    }

    /// Whether `bytes` are a number in JSON's grammar: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    static func isJSONNumber(_ bytes: String.UTF8View) -> Bool {
        var index = bytes.startIndex
        func digits() -> Int {
            var count = 0
            while index != bytes.endIndex, bytes[index] >= 0x30 && bytes[index] <= 0x39 {
                index = bytes.index(after: index)
                count += 1
            }
            return count
        }
        if index != bytes.endIndex, bytes[index] == UInt8(ascii: "-") { index = bytes.index(after: index) }
        guard index != bytes.endIndex else { return false }
        if bytes[index] == UInt8(ascii: "0") { index = bytes.index(after: index) } else if digits() == 0 { return false }
        if index != bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index = bytes.index(after: index)
            guard digits() > 0 else { return false }
        }
        if index != bytes.endIndex, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index = bytes.index(after: index)
            if index != bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index = bytes.index(after: index) }
            guard digits() > 0 else { return false }
        }
        return index == bytes.endIndex
    }
}

extension JSONObject {
    /// Sets the value at a dotted path's components, making the objects on the way (replacing
    /// any value there that is not an object).
    mutating func setValue(_ value: JSONValue, at components: some Collection<String>) {
        guard let first = components.first else { return }
        let rest = components.dropFirst()
        if rest.isEmpty {
            self[first] = value
            return
        }
        var inner: JSONObject
        if case .object(let existing)? = self[first] { inner = existing } else { inner = JSONObject() }
        inner.setValue(value, at: rest)
        self[first] = .object(inner)
    }
}

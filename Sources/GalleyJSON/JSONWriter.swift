// Writes JSON objects with a fixed key order and stable number formatting.

/// Builds one line of JSON. Keys come out in the order they are added, and numbers in Swift's
/// shortest round-trip form, so the same values always give the same bytes.
///
///     var writer = JSONWriter()
///     writer.add("id", 7)
///     writer.add("height", 40.5)
///     writer.line  // {"id":7,"height":40.5}
public struct JSONWriter {
    /// The object so far, without its closing brace.
    public private(set) var text = "{"
    private var isFirst = true

    /// An empty object.
    public init() {}

    /// Adds a member whose value is any JSON value.
    public mutating func add(_ key: String, _ value: JSONValue) {
        separate(key)
        Self.write(value, to: &text)
    }

    /// Adds a number (integral values print without a fraction; non-finite ones as null).
    public mutating func add(_ key: String, _ value: Double) {
        separate(key)
        text += Self.format(value)
    }

    /// Adds an integer.
    public mutating func add(_ key: String, _ value: Int) {
        separate(key)
        text += String(value)
    }

    /// Adds a string, escaped.
    public mutating func add(_ key: String, _ value: String) {
        separate(key)
        Self.writeString(value, to: &text)
    }

    /// Adds an array of integers.
    public mutating func add(_ key: String, _ values: [Int]) {
        separate(key)
        text += "[" + values.map(String.init).joined(separator: ",") + "]"
    }

    /// Adds a boolean.
    public mutating func add(_ key: String, _ value: Bool) {
        separate(key)
        text += value ? "true" : "false"
    }

    /// The finished object.
    public var line: String { text + "}" }

    private mutating func separate(_ key: String) {
        if !isFirst { text += "," }
        isFirst = false
        Self.writeString(key, to: &text)
        text += ":"
    }

    /// A number as JSON: integral values without a fraction ("20" rather than "20.0"), others
    /// in Swift's shortest round-trip form, non-finite ones as `null`.
    public static func format(_ value: Double) -> String {
        if value.isFinite && value == value.rounded() && abs(value) < 1e15 { return String(Int(value)) }
        return value.isFinite ? String(value) : "null"
    }

    /// Appends `value` as JSON to `text`; object members come out sorted by key.
    public static func write(_ value: JSONValue, to text: inout String) {
        switch value {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .integer(let value): text += String(value)
        case .number(let value): text += format(value)
        case .string(let value): writeString(value, to: &text)
        case .array(let values):
            text += "["
            for (index, element) in values.enumerated() {
                if index > 0 { text += "," }
                write(element, to: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { text += "," }
                writeString(key, to: &text)
                text += ":"
                write(members[key]!, to: &text)
            }
            text += "}"
        }
    }

    /// Appends `string` as a quoted, escaped JSON string to `text`.
    public static func writeString(_ string: String, to text: inout String) {
        text += "\""
        // Most strings need no escaping: append them whole instead of scalar by scalar.
        if !string.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            text += string
            text += "\""
            return
        }
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}

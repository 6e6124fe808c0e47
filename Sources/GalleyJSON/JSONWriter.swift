// Writes JSON objects with a fixed key order and stable number formatting.

/// Builds one line of JSON, as UTF-8. Keys come out in the order they are added, and numbers in
/// Swift's shortest round-trip form, so the same values always give the same bytes.
///
///     var writer = JSONWriter()
///     writer.add("id", 7)
///     writer.add("height", 40.5)
///     writer.line  // {"id":7,"height":40.5}
///
/// It writes bytes rather than a `String`: a batch appends millions of short pieces, and a byte
/// array takes each in a few instructions where a string's append costs a hundred or more.
public struct JSONWriter {
    /// The object so far, as UTF-8, without its closing brace.
    public private(set) var bytes: [UInt8]
    private var isFirst = true

    /// An empty object.
    public init() {
        bytes = [UInt8(ascii: "{")]
    }

    /// An object started at the end of `prefix`, for writers that append many lines to one
    /// buffer: ``bytes`` holds the prefix too, and ``finish()`` hands the buffer back, closed.
    ///
    ///     var output: [UInt8] = []
    ///     var writer = JSONWriter(appendingTo: consume output)  // moved: no copy of the buffer
    ///     writer.add("id", 7)
    ///     output = writer.finish()  // {"id":7}
    public init(appendingTo prefix: consuming [UInt8]) {
        bytes = consume prefix
        bytes.append(UInt8(ascii: "{"))
    }

    /// Adds a member whose value is any JSON value.
    public mutating func add(_ key: String, _ value: JSONValue) {
        separate(key)
        Self.write(value, to: &bytes)
    }

    /// Adds a number (integral values print without a fraction; non-finite ones as null).
    public mutating func add(_ key: String, _ value: Double) {
        separate(key)
        Self.write(value, to: &bytes)
    }

    /// Adds an integer.
    public mutating func add(_ key: String, _ value: Int) {
        separate(key)
        Self.write(value, to: &bytes)
    }

    /// Adds a string, escaped.
    public mutating func add(_ key: String, _ value: String) {
        separate(key)
        Self.writeString(value, to: &bytes)
    }

    /// Adds an array of integers.
    public mutating func add(_ key: String, _ values: [Int]) {
        separate(key)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.write(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// Adds a boolean.
    public mutating func add(_ key: String, _ value: Bool) {
        separate(key)
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    /// The finished object.
    public var line: String {
        var line = bytes
        line.append(UInt8(ascii: "}"))
        return String(decoding: line, as: UTF8.self)
    }

    /// The bytes with the object closed, the writer's buffer moved out rather than copied.
    public consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func separate(_ key: String) {
        if !isFirst { bytes.append(UInt8(ascii: ",")) }
        isFirst = false
        Self.writeString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }

    /// A number as JSON: integral values without a fraction ("20" rather than "20.0"), others
    /// in Swift's shortest round-trip form, non-finite ones as `null`.
    public static func format(_ value: Double) -> String {
        var bytes: [UInt8] = []
        write(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `value` as JSON to `bytes`; object members come out sorted by key.
    public static func write(_ value: JSONValue, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .bool(let value): bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .integer(let value): write(value, to: &bytes)
        case .number(let value): write(value, to: &bytes)
        case .string(let value): writeString(value, to: &bytes)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                write(element, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                writeString(key, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                write(members[key]!, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Appends `value` in decimal, digit by digit (no string in between).
    static func write(_ value: Int, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // The magnitude as unsigned: `Int.min` has none as an `Int`.
        var magnitude = value.magnitude
        var divisor: UInt = 1
        while magnitude / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude / divisor))
            magnitude %= divisor
            divisor /= 10
        }
    }

    /// Appends a number: integral values as integers, others in Swift's shortest round-trip form.
    static func write(_ value: Double, to bytes: inout [UInt8]) {
        if value.isFinite && value == value.rounded() && abs(value) < 1e15 {
            write(Int(value), to: &bytes)
        } else if abs(value) < 1e12 && (value * 4).rounded() == value * 4 {
            // Quarters (heights and frames snapped to 2× pixels), exact in binary: below 1e12 the
            // spacing of doubles is far finer than 0.05, so no shorter decimal names the same
            // double and the shortest form is the decimal expansion (above, it may not be).
            if value < 0 { bytes.append(UInt8(ascii: "-")) }
            let quarters = Int(abs(value) * 4)
            write(quarters / 4, to: &bytes)
            bytes.append(UInt8(ascii: "."))
            switch quarters % 4 {
            case 1: bytes.append(UInt8(ascii: "2")); bytes.append(UInt8(ascii: "5"))
            case 2: bytes.append(UInt8(ascii: "5"))
            default: bytes.append(UInt8(ascii: "7")); bytes.append(UInt8(ascii: "5"))
            }
        } else if value.isFinite {
            bytes.append(contentsOf: value.description.utf8)
        } else {
            bytes.append(contentsOf: "null".utf8)
        }
    }

    /// Appends `string` as a quoted, escaped JSON string to `bytes`.
    public static func writeString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escapes: their bytes go in whole.
        let appendedWhole = string.utf8.withContiguousStorageIfAvailable { utf8 in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        } ?? false
        if appendedWhole {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
            case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
            case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
            case ..<0x20:
                // Other control characters as \u00XX.
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

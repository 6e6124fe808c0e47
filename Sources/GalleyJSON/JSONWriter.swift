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
/// array takes each far more cheaply than a string's append does.
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
        let appended = appendMember(key) { $0.append(value) }
        guard !appended else { return }
        separate(key)
        Self.write(value, to: &bytes)
    }

    /// Adds a number (integral values print without a fraction; non-finite ones as null).
    public mutating func add(_ key: String, _ value: Double) {
        guard !appendMember(key, { $0.append(value) }) else { return }
        separate(key)
        Self.write(value, to: &bytes)
    }

    /// Adds an integer.
    public mutating func add(_ key: String, _ value: Int) {
        guard !appendMember(key, { $0.append(value) }) else { return }
        separate(key)
        Self.write(value, to: &bytes)
    }

    /// Adds a string, escaped.
    public mutating func add(_ key: String, _ value: String) {
        guard !appendMember(key, { $0.appendQuoted(value) }) else { return }
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

    /// The bytes with the object closed, the writer's buffer moved out rather than copied
    /// (the writer is left empty).
    ///
    /// Mutating rather than consuming: a consuming call on a writer the optimizer does not see
    /// dying copies it, so the closing brace's append finds the buffer shared and copies all
    /// of it, a batch block's whole output for every line.
    public mutating func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        var finished: [UInt8] = []
        swap(&finished, &bytes)
        return finished
    }

    /// Appends the member of `key` and what `value` writes, formatted in stack memory and
    /// appended at once (see ``ByteScratch``); false, with nothing appended, when the key or
    /// the value is too long, needs escapes or is a number Swift must describe: the caller
    /// then writes the member piece by piece.
    private mutating func appendMember(_ key: String, _ value: (inout ByteScratch) -> Bool) -> Bool {
        let isFirst = isFirst
        let appended = ByteScratch.with { scratch in
            guard isFirst || scratch.append(UInt8(ascii: ",")), scratch.appendQuoted(key), scratch.append(UInt8(ascii: ":")),
                value(&scratch)
            else { return false }
            bytes.append(contentsOf: scratch.bytes)
            return true
        }
        if appended { self.isFirst = false }
        return appended
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
        case .numeral(let text): bytes.append(contentsOf: text.utf8)
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

    /// Appends `value` in decimal (no string in between).
    static func write(_ value: Int, to bytes: inout [UInt8]) {
        ByteScratch.with { scratch in
            _ = scratch.append(value)
            bytes.append(contentsOf: scratch.bytes)
        }
    }

    /// Appends a number: integral values as integers, quarters as decimals, others in Swift's
    /// shortest round-trip form, non-finite ones as `null` (as ``add(_:_:)-(String,Double)`` writes it).
    public static func write(_ value: Double, to bytes: inout [UInt8]) {
        let written = ByteScratch.with { scratch in
            guard scratch.append(value) else { return false }
            bytes.append(contentsOf: scratch.bytes)
            return true
        }
        if !written { bytes.append(contentsOf: value.description.utf8) }
    }

    /// Appends `string` as a quoted, escaped JSON string to `bytes`.
    public static func writeString(_ string: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escapes: their bytes go in whole.
        let appendedWhole =
            string.utf8.withContiguousStorageIfAvailable { utf8 in
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

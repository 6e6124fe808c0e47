// A strict JSON parser over UTF-8 bytes, with errors that say where and what.

/// Why a text is not valid JSON, and where.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based column (in bytes) where the problem was found.
    public var column: Int
    /// What is wrong.
    public var message: String
    /// How the value reads in messages.
    public var description: String { "column \(column): \(message)" }
}

/// Parses one JSON document (RFC 8259) from UTF-8 bytes.
///
///     let value = try JSONParser.parse(#"{"id": 1, "title": "Hello"}"#)
///
/// Integers that fit in `Int` (no fraction or exponent) become ``JSONValue/integer(_:)``, larger
/// ones and numbers of more than 15 significant digits ``JSONValue/numeral(_:)`` (kept as
/// written); other numbers ``JSONValue/number(_:)``. Numbers with a fraction or exponent too large
/// for a `Double` are errors, not infinity.
/// Nesting deeper than ``maximumDepth`` is an error rather than a stack overflow.
public struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    public static let maximumDepth = 256

    /// The document, borrowed for the length of one ``parse(_:)-(UnsafeBufferPointer<UInt8>)`` call.
    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0
    /// Member names from earlier documents (see `parse(_:names:)` over an array slice);
    /// unused otherwise.
    private var names = JSONNameCache(keepsNothing: ())

    private init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// Parses `text`, which must hold exactly one JSON value (surrounding whitespace allowed).
    ///
    /// - Throws: ``JSONParseError`` naming the column and the problem.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        // Native strings lend their UTF-8 in place: no copy of the document.
        return try text.withUTF8 { bytes in Result { () throws(JSONParseError) in try parse(bytes) } }.get()
    }

    /// Parses UTF-8 `bytes`; see ``parse(_:)-(String)``.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        try parse(bytes[...])
    }

    /// Parses UTF-8 `bytes`; see ``parse(_:)-(String)``.
    public static func parse(_ bytes: ArraySlice<UInt8>) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { bytes in Result { () throws(JSONParseError) in try parse(bytes) } }.get()
    }

    /// ``parse(_:)-(ArraySlice<UInt8>)`` for one of many documents naming the same members
    /// (JSON Lines): names met before come from `names`, and new ones go into it.
    package static func parse(_ bytes: ArraySlice<UInt8>, names: inout JSONNameCache) throws(JSONParseError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { bytes in
            Result { () throws(JSONParseError) in try parse(bytes, names: &names) }
        }.get()
    }

    /// `parse(_:names:)` over an array slice over bytes in memory.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, names: inout JSONNameCache) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes)
        swap(&parser.names, &names)
        defer { swap(&parser.names, &names) }
        return try parser.parseDocument()
    }

    /// Parses the UTF-8 in `bytes`, which must stay valid for the call; see ``parse(_:)-(String)``.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes)
        return try parser.parseDocument()
    }

    /// The document's one value, with nothing after it but whitespace.
    private mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard position == bytes.count else { throw error("unexpected \(describeCurrent()) after the value") }
        return value
    }

    // MARK: - Values

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard position < bytes.count else { throw error("unexpected end of input, expected a value") }
        switch bytes[position] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth)
        case UInt8(ascii: "["): return try parseArray(depth: depth)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected \(describeCurrent()), expected a value")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        position += 1
        var members = JSONObject(minimumCapacity: 8)  // most objects are small: no regrowing on the way to eight members
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return .object(members) }
        while true {
            skipWhitespace()
            guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else {
                throw error("expected a member name in quotes, found \(describeCurrent())")
            }
            let (key, tag) = try parseName()
            skipWhitespace()
            guard consume(UInt8(ascii: ":")) else { throw error("expected ':' after member name \"\(key)\", found \(describeCurrent())") }
            skipWhitespace()
            members.set(key, try parseValue(depth: depth + 1), tag: tag)
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "}")) { return .object(members) }
            throw error("expected ',' or '}' in an object, found \(describeCurrent())")
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth < Self.maximumDepth else { throw error("nesting deeper than \(Self.maximumDepth) levels") }
        position += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth + 1))
            skipWhitespace()
            if consume(UInt8(ascii: ",")) { continue }
            if consume(UInt8(ascii: "]")) { return .array(elements) }
            throw error("expected ',' or ']' in an array, found \(describeCurrent())")
        }
    }

    // MARK: - Strings

    /// A member name and its tag (see ``JSONObject``): from `names` when an earlier document had
    /// it, else parsed (and kept there when `names` is in use and the name is short and plain).
    private mutating func parseName() throws(JSONParseError) -> (String, UInt64) {
        guard names.isInUse else { return try parseUncachedName() }
        // The name's bytes as two words, when it ends within 16 bytes without an escape and
        // 16 bytes can be read from its start (nearly always: the value follows).
        let start = position + 1
        guard start + 16 <= bytes.count, let base = bytes.baseAddress else { return try parseUncachedName() }
        let raw = UnsafeRawPointer(base + start)
        var first = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        var second: UInt64 = 0
        var count = Self.plainByteCount(first)
        if count < 8 {
            first &= Self.lowBytes(count)
        } else {
            second = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            let rest = Self.plainByteCount(second)
            second &= Self.lowBytes(rest)
            count += rest
        }
        guard count < 16, bytes[start + count] == UInt8(ascii: "\"") else { return try parseUncachedName() }
        if let known = names.name(first: first, second: second, count: count) {
            position = start + count + 1
            return known
        }
        let (name, tag) = try parseUncachedName()
        names.keep(name, tag: tag, first: first, second: second, count: count)
        return (name, tag)
    }

    private mutating func parseUncachedName() throws(JSONParseError) -> (String, UInt64) {
        let name = try parseString()
        return (name, JSONObject.tag(of: name))
    }

    /// A mask of the low `count` bytes of a word (`count` < 8).
    @inline(__always)
    private static func lowBytes(_ count: Int) -> UInt64 { (1 &<< UInt64(count &* 8)) &- 1 }

    private mutating func parseString() throws(JSONParseError) -> String {
        let start = position
        position += 1
        var runStart = position
        position = plainRunEnd(from: position)
        // Most strings have no escapes: made straight from their bytes, in one step.
        if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
            let text = string(runStart..<position)
            position += 1
            return text
        }
        // The rest decoded into one buffer of UTF-8 (plain runs copied, escapes encoded) and made
        // a string once: appending to a string piece by piece can copy what it holds each time.
        // Invalid UTF-8 in a run is repaired as it would be alone, since every escape encodes
        // whole scalars.
        var decoded: [UInt8] = []
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                position += 1
                return String(decoding: decoded, as: UTF8.self)
            }
            if byte < 0x20 { throw error("control character U+\(hex(UInt32(byte))) in a string; escape it") }
            decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
            Self.appendUTF8(try parseEscape(), to: &decoded)
            runStart = position
            position = plainRunEnd(from: position)
        }
        position = start
        throw error("unterminated string")
    }

    /// Where the plain run of a string starting at `start` ends: the first quote, backslash or
    /// control character at or after it, or the end of the input.
    private func plainRunEnd(from start: Int) -> Int {
        var scan = start
        // Eight bytes at a time, straight to the first that ends the run: strings are most of an
        // item's bytes.
        if let base = bytes.baseAddress {
            while scan + 8 <= bytes.count {
                let plain = Self.plainByteCount(UInt64(littleEndian: UnsafeRawPointer(base).loadUnaligned(fromByteOffset: scan, as: UInt64.self)))
                scan += plain
                if plain < 8 { return scan }
            }
        }
        while scan < bytes.count {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { return scan }
            scan += 1
        }
        return scan
    }

    /// Appends `scalar`'s UTF-8 to `bytes`.
    @inline(__always)
    private static func appendUTF8(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        let value = scalar.value
        if value < 0x80 {
            // Most escapes stand for ASCII: a line feed, a quote.
            bytes.append(UInt8(value))
        } else {
            UTF8.encode(scalar) { bytes.append($0) }
        }
    }

    /// How many bytes of `word` (eight bytes read little-endian, so the first is the lowest)
    /// come before the first quote, backslash or control character (below U+0020); 8 when
    /// none does. By the tests for a byte below a bound (the "has less" trick), which flag the
    /// high bit of such bytes: a borrow runs upward only out of a flagged byte, so the lowest
    /// flag is always a true one (higher ones may not be).
    @inline(__always)
    static func plainByteCount(_ word: UInt64) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        func bytesBelow(_ value: UInt64, _ bound: UInt64) -> UInt64 { (value &- ones &* bound) & ~value & highBits }
        let flags =
            bytesBelow(word, 0x20)
            | bytesBelow(word ^ (ones &* UInt64(UInt8(ascii: "\""))), 1)
            | bytesBelow(word ^ (ones &* UInt64(UInt8(ascii: "\\"))), 1)
        return flags.trailingZeroBitCount >> 3
    }

    private mutating func parseEscape() throws(JSONParseError) -> Unicode.Scalar {
        position += 1
        guard position < bytes.count else { throw error("unterminated escape") }
        let byte = bytes[position]
        position += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let first = try parseHexQuad()
            if (0xD800...0xDBFF).contains(first) {
                guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                    return "\u{FFFD}"  // a lone high surrogate: replaced, as UTF-8 decoding would
                }
                position += 2
                let second = try parseHexQuad()
                guard (0xDC00...0xDFFF).contains(second) else { return "\u{FFFD}" }
                return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)) ?? "\u{FFFD}"
            }
            return Unicode.Scalar(first) ?? "\u{FFFD}"
        default:
            position -= 2
            throw error("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func parseHexQuad() throws(JSONParseError) -> UInt32 {
        guard position + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("expected a hex digit after \\u, found \(describeCurrent())")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    // MARK: - Numbers

    private mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = position
        let isNegative = consume(UInt8(ascii: "-"))
        let digitsStart = position
        guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit, found \(describeCurrent())") }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
            if position < bytes.count, isDigit(bytes[position]) { throw error("a number may not start with 0") }
        } else {
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        var isInteger = true
        if consume(UInt8(ascii: ".")) {
            isInteger = false
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit after '.', found \(describeCurrent())") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            position += 1
            if !consume(UInt8(ascii: "+")) { _ = consume(UInt8(ascii: "-")) }
            guard position < bytes.count, isDigit(bytes[position]) else { throw error("expected a digit in the exponent, found \(describeCurrent())") }
            while position < bytes.count, isDigit(bytes[position]) { position += 1 }
        }
        // Up to 18 digits always fit in an Int: summed here, without a string.
        if isInteger && position - digitsStart <= 18 {
            var magnitude = 0
            for index in digitsStart..<position { magnitude = magnitude * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
            return .integer(isNegative ? -magnitude : magnitude)
        }
        let text = string(start..<position)
        if isInteger {
            // An integer too large for an Int is kept as written (ids of 20 and more digits).
            if let integer = Int(text) { return .integer(integer) }
            return .numeral(text)
        }
        guard let number = Double(text), number.isFinite else {
            let end = position
            position = start
            defer { position = end }
            throw error("number \(text) is out of range")
        }
        // More significant digits than a Double keeps: kept as written, so that it is written back exactly.
        if Self.significantDigitCount(bytes[digitsStart..<position]) > 15 { return .numeral(text) }
        return .number(number)
    }

    /// How many significant digits a number's mantissa has (leading zeros are not; the
    /// exponent is not counted).
    private static func significantDigitCount(_ number: Slice<UnsafeBufferPointer<UInt8>>) -> Int {
        var count = 0
        for byte in number {
            if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { break }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { continue }
            if count > 0 || byte != UInt8(ascii: "0") { count += 1 }
        }
        return count
    }

    // MARK: - Helpers

    /// The bytes in `range` as a string (invalid UTF-8 repaired).
    private func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        guard position + expected.count <= bytes.count, bytes[position..<(position + expected.count)].elementsEqual(expected) else {
            throw error("unexpected \(describeCurrent()), expected a value")
        }
        position += expected.count
    }

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func describeCurrent() -> String {
        guard position < bytes.count else { return "end of input" }
        let byte = bytes[position]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(hex(UInt32(byte)))"
    }

    private func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    private func error(_ message: String) -> JSONParseError {
        JSONParseError(column: position + 1, message: message)
    }
}

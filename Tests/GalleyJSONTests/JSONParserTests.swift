// The JSON parser: values of every kind, located errors, and no crash on any input.

import Testing

@testable import GalleyJSON

@Suite("JSON parser")
struct JSONParserTests {
    @Test("Parses every kind of value, keeping integers, numbers and booleans apart")
    func values() throws {
        let value = try JSONParser.parse(
            #" {"s": "a\"b\\c\u00e9\ud83d\ude00\n", "i": -42, "d": 1.5e2, "t": true, "f": false, "n": null, "a": [1, [2], {}], "o": {"k": "v"}} "#)
        let expected: JSONValue = .object([
            "s": .string("a\"b\\cé😀\n"), "i": .integer(-42), "d": .number(150), "t": .bool(true), "f": .bool(false),
            "n": .null, "a": .array([.integer(1), .array([.integer(2)]), .object([:])]), "o": .object(["k": .string("v")]),
        ])
        #expect(value == expected)
        #expect(try JSONParser.parse("12345678901234567890") == .numeral("12345678901234567890"))
        #expect(try JSONParser.parse("\"\u{1F600} é\"") == .string("\u{1F600} é"))
    }

    @Test("A quote, backslash or control character ends a string's plain run at any offset")
    func stringRuns() throws {
        // Around the eight-byte scan: a plain run of every length up to 20 (with a multi-byte
        // letter), then an escape, the closing quote, or a raw control character.
        let plain = Array("abcdéfghijklmnopqrstu")
        for length in 0...20 {
            let run = String(plain[..<length])
            #expect(try JSONParser.parse("\"\(run)\"") == .string(run))
            #expect(try JSONParser.parse("[\"\(run)\", \"\(run)\", 12345678]") == .array([.string(run), .string(run), .integer(12_345_678)]))
            #expect(try JSONParser.parse("\"\(run)\\n\(run)\"") == .string(run + "\n" + run))
            #expect(try JSONParser.parse("\"\(run)\\\"x\"") == .string(run + "\"x"))
            #expect(throws: JSONParseError.self) { try JSONParser.parse("\"\(run)\u{01}abcdefghij\"") }
            #expect(throws: JSONParseError.self) { try JSONParser.parse("\"\(run)\u{1F}\"") }
            #expect(throws: JSONParseError.self) { try JSONParser.parse("\"\(run)") }
        }
    }

    @Test("The eight-byte scan stops at the first quote, backslash or control character, wherever the others are")
    func plainByteCount() {
        // Against a byte-by-byte count: every special byte at every position, behind plain
        // bytes of every kind and before any bytes at all (specials after the first must not
        // move it), then a fixed pseudo-random walk through words.
        func expected(_ word: UInt64) -> Int {
            (0..<8).first { index in
                let byte = UInt8(truncatingIfNeeded: word >> (8 * UInt64(index)))
                return byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            } ?? 8
        }
        func word(_ bytes: [UInt8]) -> UInt64 { bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) } }
        let specials: [UInt8] = Array(0..<0x20) + [UInt8(ascii: "\""), UInt8(ascii: "\\")]
        let plain: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xA2, 0xDC, 0xFF, UInt8(ascii: "a")]
        for position in 0..<8 {
            for special in specials {
                for filler in plain {
                    for after in specials + plain {
                        var bytes = [UInt8](repeating: filler, count: 8)
                        bytes[position] = special
                        for later in (position + 1)..<8 where later % 2 == 1 { bytes[later] = after }
                        #expect(JSONParser.plainByteCount(word(bytes)) == position)
                    }
                }
            }
        }
        var state: UInt64 = 1
        for _ in 0..<100_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Bytes biased toward the edges (0x1F, 0x20, quotes, 0x80): mask some down to low values.
            let value = state ^ (state >> 29)
            let word = value & (state >> 61 == 0 ? 0x3F3F_3F3F_3F3F_3F3F : ~0)
            #expect(JSONParser.plainByteCount(word) == expected(word))
        }
    }

    @Test("Documents parsed with one name cache come out as without it, whatever their names")
    func nameCache() throws {
        // Names of every length around the cache's 15 bytes and its 8-byte words, with escapes,
        // multi-byte letters, a control character, at the very end of the input, and more
        // distinct names than the cache has slots, each document parsed twice with one cache
        // (the second time from it) and compared with the parse without it. Errors too.
        let letters = Array("abcdéfghijklmnopqrstuvwxyz")
        var names = (0...20).map { String(letters[..<$0]) }
        names += ["a\\\"b", "\\u00e9t\\u00e9", "x\\ny", "id", "kind", "Ἀθῆναι", "名前"]
        names += (0..<200).map { "n\($0)" }
        var cache = JSONNameCache()
        for pass in 0..<2 {
            for (index, name) in names.enumerated() {
                let documents = [
                    "{\"\(name)\": \(index), \"id\": \"\(pass)\"}",
                    "{\"\(name)\":\(index)}",
                    "[{\"\(name)\": {\"\(name)\": true}}]",
                    "{\"\(name)\"",
                    "{\"\(name)",
                    "{\"\(name)\u{01}\": 1}",
                ]
                for document in documents {
                    let bytes = Array(document.utf8)
                    let plain = Result { () throws(JSONParseError) in try JSONParser.parse(bytes) }
                    let cached = Result { () throws(JSONParseError) in try JSONParser.parse(bytes[...], names: &cache) }
                    #expect(cached == plain, "\(document) (pass \(pass))")
                }
            }
        }
        // A cached name is the name written, not one that shares its slot or its first bytes.
        // (Names alike in their first eight bytes and their length, more than the slots: some share one.)
        let alike = (100..<400).map { "abcdefgh-\($0)" } + ["abcdefghijklmno", "abcdefghijklmnop", "abcdefgh"]
        let document = "{" + alike.enumerated().map { "\"\($1)\": \($0)" }.joined(separator: ", ") + "}"
        let expected = JSONValue.object(JSONObject(alike.enumerated().map { ($1, JSONValue.integer($0)) }))
        for _ in 0..<2 { #expect(try JSONParser.parse(Array(document.utf8)[...], names: &cache) == expected) }
    }

    @Test(
        "Errors say what is wrong and at which column",
        arguments: [
            ("not json", 1, "unexpected 'n'"),
            (#"{"a": 1"#, 8, "expected ',' or '}'"),
            (#"{"a" 1}"#, 6, "expected ':'"),
            (#"{"a": 1e999}"#, 7, "out of range"),
            (#"[1, 2,]"#, 7, "expected a value"),
            (#""abc"#, 1, "unterminated string"),
            (#"{"a": 01}"#, 8, "may not start with 0"),
            (#""\x""#, 2, "invalid escape"),
            ("[1] 2", 5, "after the value"),
            ("", 1, "end of input"),
        ])
    func errors(_ document: String, _ column: Int, _ message: String) {
        #expect {
            try JSONParser.parse(document)
        } throws: { error in
            guard let error = error as? JSONParseError else { return false }
            return error.column == column && error.message.contains(message)
        }
    }

    @Test("Deep nesting and random bytes give errors, never crashes")
    func hostileInput() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(String(repeating: "[", count: 100_000)) }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0..<40, using: &generator)).map { _ in
                [
                    UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "\""), UInt8(ascii: ":"),
                    UInt8(ascii: ","), UInt8(ascii: "1"), UInt8(ascii: "e"), UInt8(ascii: "-"), UInt8(ascii: "\\"), UInt8(ascii: "u"), 0xFF, 0x00,
                ]
                .randomElement(using: &generator)!
            }
            _ = try? JSONParser.parse(bytes)
        }
    }

    @Test("The writer emits keys in order and numbers in a stable form")
    func writer() {
        var writer = JSONWriter()
        writer.add("id", .string("a\"\n\u{1}"))
        writer.add("n", 20.0)
        writer.add("x", 0.1 + 0.2)
        writer.add("list", [1, 2])
        writer.add("ok", true)
        #expect(writer.line == #"{"id":"a\"\n\u0001","n":20,"x":0.30000000000000004,"list":[1,2],"ok":true}"#)
    }

    @Test("Members too long to format at once are written piece by piece, the same way")
    func longMembers() {
        // Members are formatted in 64 bytes of stack memory when they fit: keys and values on
        // both sides of that, of every kind.
        for length in [1, 20, 40, 58, 59, 60, 61, 62, 63, 64, 65, 100] {
            let long = String(repeating: "é", count: length / 2) + String(repeating: "k", count: length - length / 2 * 2)
            let values: [(JSONValue, String)] = [
                (.string(long), "\"\(long)\""), (.integer(Int.min), "\(Int.min)"), (.number(-123_456_789_012.75), "-123456789012.75"),
                (.number(0.1), "0.1"), (.bool(false), "false"), (.null, "null"), (.array([1, 2]), "[1,2]"),
            ]
            var writer = JSONWriter()
            var expected = "{"
            for (index, (value, json)) in values.enumerated() {
                writer.add(long + "\(index)", value)
                expected += (index > 0 ? "," : "") + "\"\(long)\(index)\":" + json
            }
            writer.add(long, -2.5)
            writer.add("i", Int.max)
            writer.add("s", long)
            writer.add("", "")
            writer.add("e", .string(""))
            expected += ",\"\(long)\":-2.5,\"i\":\(Int.max),\"s\":\"\(long)\",\"\":\"\",\"e\":\"\"}"
            #expect(writer.line == expected, "length \(length)")
        }
    }

    @Test("A scratch writes a value as the writer does, or nothing when it does not fit or is not written in place")
    func scratchWritesValues() {
        let long = String(repeating: "ab", count: 40)
        let values: [JSONValue] = [
            .null, .bool(true), .bool(false), .integer(0), .integer(-42), .integer(Int.min), .integer(Int.max),
            .number(40.5), .number(-0.25), .number(1e15), .number(0.1), .number(.nan), .number(-.infinity),
            .string(""), .string("plain"), .string("ünïcødé"), .string("quote\""), .string("line\n"), .string(long),
            .array([1, 2]), .object(["a": 1]),
        ]
        for capacity in [4, 8, 24, 64, 200] {
            for value in values {
                var written: [UInt8] = []
                JSONWriter.write(value, to: &written)
                ByteScratch.with(capacity: capacity) { scratch in
                    _ = scratch.append(UInt8(ascii: "["))
                    if scratch.append(value) {
                        #expect(Array(scratch.bytes) == [UInt8(ascii: "[")] + written, "\(value) in \(capacity)")
                        // Written again from where it is, when there is room for it.
                        let range = 1..<scratch.count
                        let fits = scratch.count + range.count <= capacity
                        let again = scratch.appendAgain(range)
                        #expect(again == fits)
                        #expect(Array(scratch.bytes) == [UInt8(ascii: "[")] + written + (fits ? written : []))
                    } else {
                        // Nothing written; and only what is not written in place, or too long, fails.
                        #expect(scratch.count == 1, "\(value) in \(capacity)")
                        let inPlace: Bool =
                            switch value {
                            case .array, .object: false
                            // Integers below 10¹⁵ and quarters below 10¹², as the writer's fast path takes them.
                            case .number(let number):
                                !number.isFinite || (abs(number) < 1e15 && number.rounded() == number)
                                    || (abs(number) < 1e12 && (number * 4).rounded() == number * 4)
                            case .string(let string): !string.utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
                            default: true
                            }
                        #expect(!inPlace || written.count + 24 > capacity - 1, "\(value) in \(capacity)")
                    }
                }
            }
        }
    }

    @Test("Numbers are written as Swift prints them, integers and quarters included")
    func numbers() {
        var values: [Double] = [0, -0.0, 1e15, -1e15, 1e300, 0.1, 1 / 3, 123.456, .pi, 2.5e-8]
        values += (-400...400).map { Double($0) / 4 }
        values += [Double(1 << 52) + 0.5, 999_999_999_999_999.75, 999_999_999_999.75, 1e12 + 0.25, 1e12 - 0.25, -0.25]
        for value in values {
            let expected = value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
            #expect(JSONWriter.format(value) == expected, "\(value)")
        }
        #expect(JSONWriter.format(.infinity) == "null")
        #expect(JSONWriter.format(.nan) == "null")
        for integer in [0, 7, -7, 10, 99, 100, 1_000_000_007, Int.max, Int.min] {
            var writer = JSONWriter()
            writer.add("i", integer)
            #expect(writer.line == #"{"i":\#(integer)}"#)
        }
    }

    @Test("Integers parse exactly on both sides of the 18-digit fast path")
    func integers() throws {
        for text in [
            "0", "-0", "7", "-7", "999999999999999999", "-999999999999999999", "1000000000000000000",
            "9223372036854775807", "-9223372036854775808",
        ] {
            #expect(try JSONParser.parse(text) == .integer(Int(text)!), "\(text)")
        }
        #expect(try JSONParser.parse("9223372036854775808") == .numeral("9223372036854775808"))
    }

    @Test("Numbers neither an Int nor a Double holds exactly are kept as written, and written back so")
    func numerals() throws {
        let digits200 = "9" + String(repeating: "0123456789", count: 20)
        for text in [
            "9223372036854775808", "-9223372036854775809", "12345678901234567890", "123456789012345678901234567890",
            digits200, "-" + digits200, "0.1234567890123456789", "3.14159265358979323846", "1.0000000000000000",
            "12345678901234567.5", "1234567890123456e3",
        ] {
            let value = try JSONParser.parse(text)
            #expect(value == .numeral(text), "\(text)")
            var writer = JSONWriter()
            writer.add("id", value)
            #expect(writer.line == #"{"id":\#(text)}"#)
            // As an array element and an object member too, and back through the parser.
            var bytes: [UInt8] = []
            JSONWriter.write(.array([value, .object(["n": value])]), to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == "[\(text),{\"n\":\(text)}]")
            #expect(try JSONParser.parse(bytes) == .array([value, .object(["n": value])]))
            #expect(value.doubleValue == Double(text) && value.kindName == "a number")
        }
        // Up to 15 significant digits a Double keeps the number: it stays a number.
        for (text, number) in [
            ("0.1", 0.1), ("12345678901234.5", 12345678901234.5), ("0.000000000000000000123", 1.23e-19),
            ("1.5e300", 1.5e300), ("-2.25", -2.25), ("1e-400", 0),
        ] {
            #expect(try JSONParser.parse(text) == .number(number), "\(text)")
        }
        #expect(throws: JSONParseError.self) { try JSONParser.parse("1.5e999") }
        #expect(throws: JSONParseError.self) { try JSONParser.parse("12345678901234567890e999") }
    }

    @Test("Objects written into one buffer, each closed, in order")
    func appending() {
        var output: [UInt8] = []
        for id in 1...3 {
            var writer = JSONWriter(appendingTo: consume output)
            writer.add("id", id)
            writer.add("name", "é\t")
            output = writer.finish()
            output.append(UInt8(ascii: "\n"))
        }
        #expect(String(decoding: output, as: UTF8.self) == "{\"id\":1,\"name\":\"é\\t\"}\n{\"id\":2,\"name\":\"é\\t\"}\n{\"id\":3,\"name\":\"é\\t\"}\n")
    }
}

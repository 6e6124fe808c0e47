// Strings with escapes: decoded as Foundation decodes them, in time linear in their length.

import Foundation
import Testing

@testable import GalleyJSON

@Suite("JSON string escapes")
struct JSONStringEscapeTests {
    /// A piece of a string: the scalars it stands for and how it is written in JSON.
    private struct Piece {
        var scalars: [Unicode.Scalar]
        var json: String
    }

    /// A fixed pseudo-random sequence (a linear congruential generator), so that every run
    /// checks the same strings.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state ^ (state >> 29)
        }
    }

    /// A random piece: a plain run, a letter written as itself, a short escape, or a `\u`
    /// escape of a scalar in any UTF-8 length (a surrogate pair beyond the BMP).
    private static func piece(using generator: inout Generator) -> Piece {
        func hex(_ value: UInt32, uppercase: Bool) -> String {
            let digits = String(value, radix: 16, uppercase: uppercase)
            return String(repeating: "0", count: 4 - digits.count) + digits
        }
        let uppercase = Bool.random(using: &generator)
        switch Int.random(in: 0..<6, using: &generator) {
        case 0:
            let run = String((0..<Int.random(in: 0...20, using: &generator)).map { _ in "abcdefgh xyz,:[]{}".randomElement(using: &generator)! })
            return Piece(scalars: Array(run.unicodeScalars), json: run)
        case 1:
            let letter = ["é", "א", "中", "😀", "\u{7F}", "\u{0301}"].randomElement(using: &generator)!
            return Piece(scalars: Array(letter.unicodeScalars), json: letter)
        case 2:
            let (escape, scalar) = [
                ("\\\"", "\""), ("\\\\", "\\"), ("\\/", "/"), ("\\b", "\u{08}"), ("\\f", "\u{0C}"), ("\\n", "\n"), ("\\r", "\r"), ("\\t", "\t"),
            ]
            .randomElement(using: &generator)!
            return Piece(scalars: [Unicode.Scalar(scalar)!], json: escape)
        case 3, 4:
            // Below U+0080, below U+0800 and the rest of the BMP, surrogates left out.
            let ranges: [ClosedRange<UInt32>] = [0...0x7F, 0x80...0x7FF, 0x800...0xD7FF, 0xE000...0xFFFF]
            let value = UInt32.random(in: ranges.randomElement(using: &generator)!, using: &generator)
            return Piece(scalars: [Unicode.Scalar(value)!], json: "\\u" + hex(value, uppercase: uppercase))
        default:
            let value = UInt32.random(in: 0x10000...0x10FFFF, using: &generator)
            let high = 0xD800 + ((value - 0x10000) >> 10)
            let low = 0xDC00 + ((value - 0x10000) & 0x3FF)
            return Piece(scalars: [Unicode.Scalar(value)!], json: "\\u" + hex(high, uppercase: uppercase) + "\\u" + hex(low, uppercase: uppercase))
        }
    }

    @Test("Strings of mixed escapes, letters and plain runs decode as Foundation's JSONSerialization decodes them")
    func mixedEscapes() throws {
        var generator = Generator(state: 7)
        for _ in 0..<2000 {
            let pieces = (0..<Int.random(in: 1...12, using: &generator)).map { _ in Self.piece(using: &generator) }
            let json = "\"" + pieces.map(\.json).joined() + "\""
            let expected = pieces.flatMap(\.scalars)
            let reference = try #require(
                try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed) as? String, "\(json)")
            // Scalar by scalar: `==` on strings would call canonically equivalent ones equal.
            #expect(Array(reference.unicodeScalars) == expected, "Foundation on \(json)")
            guard case .string(let parsed) = try JSONParser.parse(json) else {
                Issue.record("not a string: \(json)")
                continue
            }
            #expect(Array(parsed.unicodeScalars) == expected, "\(json)")
        }
    }

    @Test(
        "Surrogates that make no pair become U+FFFD, a high one taking the \\u escape after it",
        arguments: [
            (#""\ud800""#, "\u{FFFD}"),
            (#""\ud800x""#, "\u{FFFD}x"),
            (#""\udc00""#, "\u{FFFD}"),
            (#""a\uDFFFb""#, "a\u{FFFD}b"),
            (#""\ud800\u0041z""#, "\u{FFFD}z"),
            (#""\udbff\ud800\udc00""#, "\u{FFFD}\u{FFFD}"),
            (#""\ud800\n""#, "\u{FFFD}\n"),
            (#""\udc00\ud83d\ude00""#, "\u{FFFD}😀"),
        ])
    func loneSurrogates(_ json: String, _ expected: String) throws {
        guard case .string(let parsed) = try JSONParser.parse(json) else {
            Issue.record("not a string: \(json)")
            return
        }
        #expect(Array(parsed.unicodeScalars) == Array(expected.unicodeScalars))
    }

    @Test("Bytes that are not UTF-8 beside escapes are replaced as in the string without escapes")
    func invalidUTF8BesideEscapes() throws {
        // A truncated three-byte letter before an escape, stray continuation bytes after one, and
        // an invalid lead byte: the escapes stand for ASCII, so the same bytes with the letters
        // in their place decode (with repair) to the expected string.
        let pieces: [([UInt8], [UInt8])] = [
            ([0xE2, 0x82], [0xE2, 0x82]), (Array(#"\n"#.utf8), [0x0A]), ([0x82, 0xAC, 0x41], [0x82, 0xAC, 0x41]),
            (Array(#"\u00e9"#.utf8), [0xC3, 0xA9]), ([0xAC], [0xAC]), ([0xFF, 0x42], [0xFF, 0x42]), (Array(#"\t"#.utf8), [0x09]),
            ([0xF0, 0x9F, 0x98], [0xF0, 0x9F, 0x98]),
        ]
        let json = [UInt8(ascii: "\"")] + pieces.flatMap(\.0) + [UInt8(ascii: "\"")]
        let expected = String(decoding: pieces.flatMap(\.1), as: UTF8.self)
        guard case .string(let parsed) = try JSONParser.parse(json) else {
            Issue.record("not a string")
            return
        }
        #expect(Array(parsed.unicodeScalars) == Array(expected.unicodeScalars))
        #expect(parsed.unicodeScalars.filter { $0 == "\u{FFFD}" }.count == 6)
    }

    @Test("Errors inside a string with escapes are located as before")
    func errorsAfterEscapes() {
        for (json, column, message) in [
            (#""a\nb\u0001"#, 1, "unterminated string"),
            ("\"a\\nb\u{01}c\"", 6, "control character U+0001"),
            (#""a\nb\q""#, 6, "invalid escape '\\q'"),
            (#""a\nb\u12G4""#, 10, "expected a hex digit"),
            (#""a\nb\u12"#, 8, "expected four hex digits"),
            (#""abc\"#, 6, "unterminated escape"),
            (#""\n"#, 1, "unterminated string"),
        ] {
            #expect("\(json)") {
                try JSONParser.parse(json)
            } throws: { error in
                guard let error = error as? JSONParseError else { return false }
                return error.column == column && error.message.contains(message)
            }
        }
    }

    @Test("Two million escapes in one string decode in one linear pass", .timeLimit(.minutes(1)))
    func manyEscapes() throws {
        // A letter and an escaped Hebrew letter alternating, then line feeds, then lines joined
        // by escaped line feeds: each escape decoded in constant time, not by copying what came
        // before it.
        let count = 700_000
        let json =
            "\"" + String(repeating: #"a\u05d0"#, count: count) + String(repeating: #"\n"#, count: count)
            + String(repeating: #"line\n"#, count: count) + "\""
        let expected = String(repeating: "aא", count: count) + String(repeating: "\n", count: count) + String(repeating: "line\n", count: count)
        guard case .string(let parsed) = try JSONParser.parse(json) else {
            Issue.record("not a string")
            return
        }
        #expect(parsed.utf8.count == expected.utf8.count)
        #expect(parsed.utf8.elementsEqual(expected.utf8))
    }
}

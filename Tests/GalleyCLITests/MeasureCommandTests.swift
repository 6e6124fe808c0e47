// `galley measure` end to end: the built executable, fed JSON Lines.

import Foundation
import GalleyTestSupport
import Testing

@Suite("galley measure")
struct MeasureCommandTests {
    static let good = #"{"id": "a", "text": "Hello, world", "font": "Noto Sans", "size": 17, "width": 320}"#

    @Test("Measures each line, in order, with the documented fields")
    func measures() throws {
        let input = [
            Self.good,
            #"{"id": 2, "text": "A longer text that has to wrap onto more than one line", "font": "Noto Sans", "size": 17, "width": 120}"#,
            #"{"id": 3, "text": "", "font": "Noto Sans", "size": 17, "width": 100}"#,
        ].joined(separator: "\n")
        let output = try GalleyCommand.run(["measure", "--scale", "2"], input: input)
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.lines
        #expect(lines.count == 3)
        #expect(lines.map { "\($0["id"]!)" } == ["a", "2", "3"])
        for line in lines {
            #expect(Set(line.keys).isSuperset(of: ["id", "lines", "height", "width", "lineStarts", "lineHeight", "roundedHeight"]))
        }
        let lineHeight = try #require(lines[0]["lineHeight"] as? Double)
        #expect(lines[0]["lines"] as? Int == 1)
        #expect(abs((lines[0]["height"] as! Double) - lineHeight) < 1e-9)
        #expect((lines[1]["lines"] as! Int) > 1)
        #expect((lines[1]["lineStarts"] as! [Int]).count == (lines[1]["lines"] as! Int) - 1)
        let height = lines[1]["height"] as! Double
        #expect(lines[1]["roundedHeight"] as? Double == (height * 2).rounded(.up) / 2)
        #expect(lines[2]["lines"] as? Int == 0 && lines[2]["height"] as? Int == 0)
        #expect(abs((lines[2]["lineHeight"] as! Double) - lineHeight) < 1e-9)
    }

    @Test("A bad line gives an error naming the line and the field; the others are measured")
    func badLines() throws {
        let input = [
            Self.good,
            "not json",
            #"{"id": "m", "font": "Noto Sans", "size": 17, "width": 100}"#,
            #"{"id": "f", "text": "x", "font": "Nonexistent Sans", "size": 17, "width": 100}"#,
            #"{"id": "w", "text": "x", "font": "Noto Sans", "size": 17, "width": -5}"#,
            #"{"id": "s", "text": "x", "font": "Noto Sans", "size": 0, "width": 10}"#,
            #"{"id": "t", "text": 5, "font": "Noto Sans", "size": 17, "width": 10}"#,
            #"{"id": "b", "text": "x", "font": "Noto Sans", "size": 17, "width": 10, "lineBreakMode": "sideways"}"#,
            #"{"id": "i", "text": "x", "font": "Noto Sans", "size": 17, "width": 1e999}"#,
            "",
            Self.good,
        ].joined(separator: "\n")
        let output = try GalleyCommand.run(["measure"], input: input)
        #expect(output.status == 1)
        let lines = output.lines
        #expect(lines.count == 10)
        #expect(lines.first?["lines"] as? Int == 1 && lines.last?["lines"] as? Int == 1)
        let errors = lines.dropFirst().dropLast()
        #expect(errors.map { $0["line"] as? Int } == [2, 3, 4, 5, 6, 7, 8, 9])
        let messages = errors.map { $0["error"] as? String ?? "" }
        #expect(messages[0].contains("invalid JSON"))
        #expect(messages[1].contains("'text'") && messages[1].contains("missing"))
        #expect(messages[2].contains("Nonexistent Sans"))
        #expect(messages[3].contains("'width'"))
        #expect(messages[4].contains("'size'"))
        #expect(messages[5].contains("'text'") && messages[5].contains("string"))
        #expect(messages[6].contains("'lineBreakMode'") && messages[6].contains("sideways"))
        #expect(messages[7].contains("column 68") && messages[7].contains("1e999 is out of range"))
        // The id of a line that is not valid JSON cannot be known.
        #expect(errors.dropFirst().map { "\($0["id"]!)" } == ["m", "f", "w", "s", "t", "b", "<null>"])
        #expect(output.stderr.contains("10 records, 8 failed"))
    }

    @Test("Ids come back exactly as they were written, however many digits, on results and on errors")
    func exactIDs() throws {
        let ids = [
            "123456789012345678901234567890", "12345678901234567890", "-9223372036854775809", "0.12345678901234567891",
            "9007199254740993", String(repeating: "8", count: 300), #""text id""#, "[1,2]",
        ]
        let input = ids.flatMap { id in
            [
                #"{"id": \#(id), "text": "Hello", "font": "Noto Sans", "size": 17, "width": 100}"#,
                #"{"id": \#(id), "text": "Hello", "font": "Noto Sans", "size": 17, "width": -1}"#,
            ]
        }
        let output = try GalleyCommand.run(["measure"], input: input.joined(separator: "\n"))
        let raw = output.stdout.split(separator: "\n").map(String.init)
        #expect(raw.count == 2 * ids.count)
        for (index, line) in raw.enumerated() {
            #expect(line.hasPrefix(#"{"id":\#(ids[index / 2]),"#), "\(line.prefix(60))")
            #expect(line.contains(#""error""#) == (index % 2 == 1))
        }
    }

    @Test("Huge and tiny numbers are errors naming the field, never null results; --scale must be one a display can use")
    func valueRanges() throws {
        let fields = [
            (#""lineHeightMultiple": 1e308"#, "lineHeightMultiple"), (#""size": 1e308"#, "size"), (#""size": 1e-320"#, "size"),
            (#""letterSpacing": 1e308"#, "letterSpacing"), (#""width": 1e308"#, "width"), (#""width": 123456789012345678901234567890"#, "width"),
        ]
        let manyFallbacks =
            #"{"id": "f", "text": "x", "font": "Noto Sans", "size": 17, "width": 100, "fallback": [\#((0..<33).map { _ in "\"Noto Sans\"" }.joined(separator: ","))]}"#
        let fallbackRun = try GalleyCommand.run(["measure"], input: manyFallbacks)
        #expect(fallbackRun.lines.first?["error"] as? String == "field 'fallback': must have at most 32 elements, not 33")
        let input =
            fields.map { field, _ in
                // The field given last wins: JSON's repeated names keep their last value.
                #"{"id": "x", "text": "Hello, world", "font": "Noto Sans", "size": 17, "width": 100, \#(field)}"#
            } + [Self.good]
        let output = try GalleyCommand.run(["measure", "--scale", "3"], input: input.joined(separator: "\n"))
        #expect(output.status == 1)
        #expect(!output.stdout.contains("null"))
        let lines = output.lines
        #expect(lines.count == fields.count + 1)
        for (line, (_, name)) in zip(lines, fields) {
            #expect((line["error"] as? String)?.hasPrefix("field '\(name)': must be a number") == true, "\(line)")
        }
        #expect(lines.last?["error"] == nil && lines.last?["roundedHeight"] as? Double != nil)
        for scale in ["1.7e308", "1e-300", "0", "-2", "nan", "9"] {
            let run = try GalleyCommand.run(["measure", "--scale=\(scale)"], input: Self.good)
            #expect(run.status != 0 && run.stdout.isEmpty && run.stderr.contains("--scale must be a number ≥ 0.5 and ≤ 8"), "\(scale): \(run.stderr)")
        }
    }

    @Test("A font path naming standard input, a FIFO or a device reads nothing: every other line is measured")
    func fontPathsReadNothing() throws {
        try withTemporaryFolder("font-paths") { folder in
            let fifo = folder.appendingPathComponent("font.ttf").path
            #expect(mkfifo(fifo, 0o600) == 0)
            let fonts = ["/dev/stdin", fifo, "/dev/zero", "/proc/self/fd/0", "/nonexistent/a.ttf", folder.path + "/"]
            let bad = fonts.map { #"{"id": "\#($0)", "text": "hi", "font": "\#($0)", "size": 17, "width": 100}"# }
            let good = (0..<30_000).map { #"{"id": \#($0), "text": "Row \#($0)", "font": "Noto Sans", "size": 17, "width": 100}"# }
            let output = try GalleyExecutable.run(["measure", "--jobs", "2"], input: (bad + good).joined(separator: "\n"), timeout: 300)
            #expect(!output.timedOut && output.status == 1)
            let lines = output.lines
            #expect(lines.count == bad.count + good.count)
            for (line, font) in zip(lines, fonts) {
                #expect(
                    line["error"] as? String
                        == "cannot use font file '\(font)' (missing, unreadable, not a regular file, too large, outside the allowed folders, or not a font)")
            }
            #expect(lines.dropFirst(bad.count).map { $0["id"] as? Int } == Array(0..<30_000))
        }
    }

    @Test("--font-files: anywhere by default, only the registered folders, or no files at all")
    func fontFilePolicy() throws {
        try withTemporaryFolder("font-policy") { folder in
            let registered = folder.appendingPathComponent("registered")
            try FileManager.default.createDirectory(at: registered, withIntermediateDirectories: true)
            let outside = folder.appendingPathComponent("outside.ttf").path
            let hebrew = PackagePaths.font("NotoSansHebrew-Regular.ttf")
            try FileManager.default.copyItem(atPath: hebrew, toPath: outside)
            try FileManager.default.copyItem(atPath: hebrew, toPath: registered.appendingPathComponent("inside.ttf").path)
            let input = [outside, registered.appendingPathComponent("inside.ttf").path, "Noto Sans Hebrew"]
                .map { #"{"id": 1, "text": "שלום", "font": "\#($0)", "size": 17, "width": 100}"# }.joined(separator: "\n")
            func errors(_ arguments: [String]) throws -> [String?] {
                try GalleyCommand.run(["measure"] + arguments, input: input).lines.map { $0["error"] as? String }
            }
            #expect(try errors([]) == [nil, nil, nil])
            #expect(try errors(["--fonts", registered.path]) == [nil, nil, nil])
            let unusable = "cannot use font file '\(outside)' (missing, unreadable, not a regular file, too large, outside the allowed folders, or not a font)"
            #expect(try errors(["--fonts", registered.path, "--font-files", "registered"]) == [unusable, nil, nil])
            #expect(
                try errors(["--font-files", "none"]) == [
                    "font files cannot be named here ('\(outside)'): name a font family",
                    "font files cannot be named here ('\(registered.appendingPathComponent("inside.ttf").path)'): name a font family", nil,
                ])
            #expect(try errors(["--max-font-file-size", "1000"]).first == .some(unusable))
        }
    }

    @Test("Options reach the engine: maxLines, truncation, language, fallback, weight, spacing")
    func options() throws {
        let text = "A longer text that has to wrap onto more than one line"
        let input = [
            #"{"id": 1, "text": "\#(text)", "font": "Noto Sans", "size": 17, "width": 120}"#,
            #"{"id": 2, "text": "\#(text)", "font": "Noto Sans", "size": 17, "width": 120, "maxLines": 2, "lineBreakMode": "truncateTail"}"#,
            #"{"id": 3, "text": "\#(text)", "font": "Noto Sans", "size": 17, "width": 120, "lineHeightMultiple": 2}"#,
            #"{"id": 4, "text": "\#(text)", "font": "Noto Sans", "size": 17, "width": 120, "weight": 700, "letterSpacing": 1.5}"#,
            #"{"id": 5, "text": "漢字", "font": "Noto Sans", "size": 17, "width": 120, "lang": "ko", "fallback": ["Noto Sans CJK SC"]}"#,
        ].joined(separator: "\n")
        let lines = try GalleyCommand.run(["measure"], input: input).lines
        let plain = lines[0]["height"] as! Double
        #expect(lines[1]["lines"] as? Int == 2 && lines[1]["truncated"] as? Bool == true)
        #expect(abs((lines[2]["height"] as! Double) - 2 * plain) < 1e-9)
        #expect((lines[3]["lines"] as! Int) > (lines[0]["lines"] as! Int))
        #expect(lines[4]["lines"] as? Int == 1)
    }

    @Test("Output is deterministic: same bytes run after run, with one worker or many")
    func deterministic() throws {
        let corpus = (0..<300).map { index in
            #"{"id": \#(index), "text": "Row \#(index): the quick brown fox jumps over the lazy dog \#(String(repeating: "again ", count: index % 7))", "font": "Noto Sans", "size": \#(12 + index % 6), "width": \#(100 + index % 5 * 60)}"#
        }.joined(separator: "\n")
        let first = try GalleyCommand.run(["measure", "--jobs", "1"], input: corpus)
        let second = try GalleyCommand.run(["measure", "--jobs", "2"], input: corpus)
        let third = try GalleyCommand.run(["measure"], input: corpus)
        #expect(first.stdout == second.stdout && second.stdout == third.stdout)
        #expect(first.lines.count == 300)
    }

    @Test("Reads files named on the command line and names them in errors")
    func files() throws {
        try withTemporaryFolder("cli") { directory in
            let first = directory.appendingPathComponent("one.jsonl")
            let second = directory.appendingPathComponent("two.jsonl")
            try (Self.good + "\n").write(to: first, atomically: true, encoding: .utf8)
            try (Self.good + "\n{}\n").write(to: second, atomically: true, encoding: .utf8)
            let output = try GalleyCommand.run(["measure", first.path, second.path])
            #expect(output.lines.count == 3)
            #expect(output.lines[2]["file"] as? String == second.path && output.lines[2]["line"] as? Int == 2)
            let missing = try GalleyCommand.run(["measure", directory.appendingPathComponent("absent.jsonl").path])
            #expect(missing.status != 0)
            #expect(missing.stderr.contains("absent.jsonl"))
        }
    }
}

// `galley heights` and `galley layout` end to end.

import Foundation
import GalleyTestSupport
import Testing

@Suite("galley heights and galley layout")
struct RowCommandTests {
    static let items = [
        #"{"id": "m1", "kind": "message", "title": "Joe", "caption": "Re: rows", "text": "A message body", "timestamp": "9:41"}"#,
        #"{"id": 2, "kind": "text", "text": "Hello, table", "url": "app://x"}"#,
        #"{"id": "bad", "kind": "video"}"#,
        #"not json"#,
        #"{"id": "img", "kind": "image", "text": "Photo", "imageURL": "u", "image": {"width": "wide", "height": 4}}"#,
        #"{"id": "s", "kind": "subtitle", "text": "Title"}"#,
    ].joined(separator: "\n")

    @Test("heights: one line per item and width, in order; bad items are reported and skipped")
    func heights() throws {
        let output = try GalleyCommand.run(["heights", "--width", "320,375", "--scale", "2"], input: Self.items)
        #expect(output.status == 1)
        let lines = output.lines
        // Results on standard output, error lines on standard error.
        #expect(lines.map { "\($0["id"]!)" } == ["m1", "m1", "2", "2", "s", "s"])
        #expect(lines.map { $0["width"] as? Int } == [320, 375, 320, 375, 320, 375])
        #expect(output.errorLines.map { "\($0["id"]!)" } == ["bad", "<null>", "img"])
        for line in lines where line["error"] == nil {
            let height = try #require(line["height"] as? Double)
            #expect(height > 0 && (height * 2).rounded() == height * 2)
        }
        // The bytes, not only the values: members in this order, no spaces, an integer id as a
        // number, whole widths and heights without a fraction, and the id written on every line.
        let raw = output.stdout.split(separator: "\n").map(String.init)
        let pattern = #/\{"id":("m1"|2|"img"|"s"),"width":(320|375),"height":[0-9]+(\.5)?\}/#
        for line in raw where !line.contains(#""error""#) {
            #expect(line.wholeMatch(of: pattern) != nil, "\(line)")
        }
        #expect(raw.filter { $0.hasPrefix(#"{"id":2,"width":"#) }.count == 2)
        let errors = output.errorLines
        #expect(errors.map { $0["line"] as? Int } == [3, 4, 5])
        #expect((errors[0]["error"] as? String)?.contains("no template for kind 'video'") == true)
        #expect((errors[1]["error"] as? String)?.contains("invalid JSON at column 1") == true)
        #expect((errors[2]["error"] as? String)?.contains("field 'image.width' must be a number") == true)
        #expect(output.stderr.contains("6 records, 3 failed"))
    }

    @Test("heights: over several chunks, every line before a file that fails to read is written in order, then its error")
    func linesBeforeAnUnreadableFile() throws {
        try withTemporaryFolder("chunks") { directory in
            // Past two chunks of 4,096 lines, so that the failing file is reached partway through a third.
            let count = 9_000
            let file = directory.appendingPathComponent("rows.jsonl")
            let rows = (0..<count).map { #"{"id": \#($0), "kind": "message", "title": "Row \#($0)", "text": "Body of row \#($0)"}"# }
            try (rows.joined(separator: "\n") + "\n").write(to: file, atomically: true, encoding: .utf8)
            var outputs: [String] = []
            for jobs in ["1", "2"] {
                // /proc/self/mem opens as a regular file and fails on the first read, with EIO:
                // past the check every input gets before the run starts.
                let output = try GalleyCommand.run(["heights", "--width", "320", "--jobs", jobs, file.path, "/proc/self/mem"])
                #expect(output.status != 0)
                #expect(output.stderr.contains("cannot read /proc/self/mem: Input/output error"))
                #expect(output.lines.map { $0["id"] as? Int } == (0..<count).map { $0 }, "\(jobs) jobs")
                outputs.append(output.stdout)
            }
            #expect(outputs[0] == outputs[1])
        }
    }

    @Test("heights: string and integer ids are written the same way on each of their lines, short or long")
    func heightsIDs() throws {
        // (id as input, id as written): lines are composed a row at a time in stack memory,
        // and fall back to piece by piece for what does not fit there or is not written in place.
        let long = String(repeating: "x", count: 300)
        let longer = String(repeating: "y", count: 1500)
        let ids: [(String, String)] = [
            ("1", "1"), ("-5", "-5"), (#""abc""#, #""abc""#), (#""with \"quote\"""#, #""with \"quote\"""#),
            (#""tab\there""#, #""tab\there""#), (#""ünï""#, #""ünï""#), ("0", "0"), ("-9223372036854775808", "-9223372036854775808"),
            ("123456789012345678", "123456789012345678"), ("\"\(long)\"", "\"\(long)\""), ("\"\(longer)\"", "\"\(longer)\""),
            // Beyond Int and Double: written back as they came, digit for digit.
            ("12345678901234567890", "12345678901234567890"), ("123456789012345678901234567890", "123456789012345678901234567890"),
            ("-99999999999999999999999", "-99999999999999999999999"), (String(repeating: "7", count: 400), String(repeating: "7", count: 400)),
        ]
        let input = ids.map { #"{"id": \#($0.0), "kind": "text", "text": "Words that wrap at one width or another"}"# }
        let output = try GalleyCommand.run(["heights", "--width", "320,375.5,414"], input: input.joined(separator: "\n"))
        #expect(output.status == 0, "\(output.stderr)")
        let raw = output.stdout.split(separator: "\n").map(String.init)
        #expect(raw.count == 3 * ids.count)
        for (index, (_, written)) in ids.enumerated() {
            for (offset, width) in ["320", "375.5", "414"].enumerated() where 3 * index + offset < raw.count {
                let line = raw[3 * index + offset]
                #expect(line.hasPrefix(#"{"id":\#(written),"width":\#(width),"height":"#), "\(line.prefix(80))")
            }
        }
    }

    @Test("Blank lines (spaces, tabs, a no-break space) are skipped but counted; CRLF endings are read")
    func blankLines() throws {
        let input = "\r\n \t \n{\"id\": 1, \"kind\": \"text\", \"text\": \"One\"}\r\n\u{A0}\n  \u{A0}x\n{\"id\": 2, \"kind\": \"text\", \"text\": \"Two\"}"
        let output = try GalleyCommand.run(["heights"], input: input)
        #expect(output.lines.map { "\($0["id"]!)" } == ["1", "2"])
        #expect(output.errorLines.map { $0["line"] as? Int } == [5])
        #expect(output.stderr.contains("3 records, 1 failed"))
    }

    @Test("layout: frames of every named node, collapsed ones at zero")
    func layout() throws {
        let output = try GalleyCommand.run(["layout", "--width", "320"], input: Self.items.components(separatedBy: "\n")[0])
        #expect(output.status == 0, "\(output.stderr)")
        let line = try #require(output.lines.first)
        let frames = try #require(line["frames"] as? [String: [Double]])
        #expect(Set(frames.keys) == ["image", "title", "timestamp", "caption", "message", "accessory"])
        #expect(frames["image"] == [0, 0, 0, 0] && frames["accessory"] == [0, 0, 0, 0])
        #expect(frames["title"]?[0] == 10 && frames["title"]?[1] == 6)
        let bottom = frames.values.map { $0[1] + $0[3] }.max()!
        #expect(line["height"] as? Double == bottom + 6)
    }

    @Test("--template forces one built-in; --templates and --stylesheet read JSON files")
    func templateOptions() throws {
        try withTemporaryFolder("rows") { directory in
            let templates = directory.appendingPathComponent("templates.json")
            try
                #"{"video": {"type": "inset", "insets": "tableCellHPadding", "child": {"type": "label", "name": "title", "field": "title", "style": "tableFont"}}}"#
                .write(to: templates, atomically: true, encoding: .utf8)
            let stylesheet = directory.appendingPathComponent("style.json")
            try #"{"metrics": {"tableCellHPadding": 20}}"#.write(to: stylesheet, atomically: true, encoding: .utf8)
            let video = #"{"id": "v", "kind": "video", "title": "Sunset", "text": "Sunset"}"#
            let custom = try GalleyCommand.run(["layout", "--templates", templates.path, "--stylesheet", stylesheet.path], input: video)
            #expect(custom.status == 0, "\(custom.stderr)")
            #expect((custom.lines.first?["frames"] as? [String: [Double]])?["title"]?[0] == 20)
            let forced = try GalleyCommand.run(["heights", "--template", "uikit.default"], input: video)
            #expect(forced.status == 0)
            #expect(forced.lines.first?["height"] as? Double == 46)  // 24-point line (17-point Noto Sans, rounded) + 2 × 11
            let badTemplates = directory.appendingPathComponent("bad.json")
            try #"{"video": {"type": "lable"}}"#.write(to: badTemplates, atomically: true, encoding: .utf8)
            let bad = try GalleyCommand.run(["heights", "--templates", badTemplates.path], input: video)
            #expect(bad.status != 0)
            #expect(bad.stderr.contains("unknown node type 'lable'"))
            let unknown = try GalleyCommand.run(["heights", "--template", "nope"], input: video)
            #expect(unknown.status != 0 && unknown.stderr.contains("no built-in template 'nope'"))
            let badWidth = try GalleyCommand.run(["heights", "--width", "320,abc"], input: video)
            #expect(badWidth.status != 0 && badWidth.stderr.contains("--width"))
        }
    }

    @Test("Every bad template of a templates file is reported on standard error, by file and name, in the file's order")
    func badTemplatesFile() throws {
        try withTemporaryFolder("bad-templates") { directory in
            // Two thousand templates, every other one bad, in parsing or in compiling: far more than a
            // pipe holds (64 KiB) goes to standard error, and must all come out, in order.
            let members = (0..<2000).map { index in
                let template =
                    switch index % 4 {
                    case 1: #"{"root": null}"#
                    case 3: #"{"root": {"type": "label", "field": "a", "style": "style\#(index)"}}"#
                    default: #"{"root": {"type": "spacer"}}"#
                    }
                return #""kind\#(index)": \#(template)"#
            }
            let file = directory.appendingPathComponent("templates.json")
            try ("{" + members.joined(separator: ",\n") + "}").write(to: file, atomically: true, encoding: .utf8)
            var previous: String?
            for jobs in ["1", "2", "2"] {
                let run = try GalleyCommand.run(["heights", "--templates", file.path, "--jobs", jobs], input: #"{"id": 1, "kind": "kind0"}"#)
                #expect(run.status != 0 && !run.timedOut && run.stdout.isEmpty)
                // ArgumentParser starts the message with "Error: ".
                let reported = run.stderr.split(separator: "\n").map { $0.hasPrefix("Error: ") ? $0.dropFirst(7) : $0 }
                    .filter { $0.hasPrefix(file.path + ": ") }
                #expect(reported.count == 1000)
                for (number, line) in reported.enumerated() {
                    let index = number * 2 + 1
                    let expected =
                        index % 4 == 1
                        ? "\(file.path): invalid template at kind\(index).root: must be a node, got null"
                        : "\(file.path): invalid template at kind\(index).root.style: unknown text style 'style\(index)' in stylesheet 'standard'; its text styles: "
                    #expect(line == expected || (index % 4 != 1 && line.hasPrefix(expected)))
                }
                #expect(previous == nil || previous == run.stderr)
                previous = run.stderr
            }
        }
    }

    @Test("Huge numbers in templates, items and options are errors for their template, row or run; no result is null")
    func valueRanges() throws {
        try withTemporaryFolder("ranges") { directory in
            let templates = directory.appendingPathComponent("templates.json")
            try #"""
            {"spaced": {"root": {"type": "vstack", "spacing": 1e308, "children": [{"type": "label", "field": "title", "style": "font"}]}},
             "tall": {"root": {"type": "label", "field": "title", "style": {"size": 17, "lineHeightMultiple": 1e308}}}}
            """#.write(to: templates, atomically: true, encoding: .utf8)
            let bad = try GalleyCommand.run(["heights", "--templates", templates.path], input: #"{"id": 1, "kind": "spaced", "title": "x"}"#)
            #expect(bad.status != 0 && bad.stdout.isEmpty)
            #expect(bad.stderr.contains("invalid template at spaced.root.spacing: length 1e+308 must be a number ≥ 0 and ≤ 1000000, not 1e+308"))
            #expect(bad.stderr.contains("invalid template at tall.root.style: lineHeightMultiple must be a number ≥ 0 and ≤ 100, not 1e+308"))
            // An image's size from the item, scaled up past any display: that row fails, the rest go on.
            let images = directory.appendingPathComponent("images.json")
            try #"""
            {"photo": {"root": {"type": "image", "name": "photo", "widthField": "w", "heightField": "h", "min": {"width": 1000000, "height": 0}}},
             "clip": {"root": {"type": "label", "name": "length", "format": "{length|duration}", "style": "font"}}}
            """#.write(to: images, atomically: true, encoding: .utf8)
            let rows = [
                #"{"id": "huge", "kind": "photo", "w": 0.000001, "h": 1000000}"#, #"{"id": "far", "kind": "photo", "w": 1e308, "h": 1}"#,
                #"{"id": "fine", "kind": "photo", "w": 4, "h": 3}"#, #"{"id": "ages", "kind": "clip", "length": 1e19}"#,
                #"{"id": "long", "kind": "clip", "length": 99999999999999999999999}"#, #"{"id": "minute", "kind": "clip", "length": 61}"#,
            ]
            for command in ["heights", "layout"] {
                let run = try GalleyCommand.run([command, "--templates", images.path, "--width", "320,0"], input: rows.joined(separator: "\n"))
                #expect(run.status == 1 && !run.stdout.contains("null"), "\(run.stderr)")
                let lines = run.lines
                let errors = run.errorLines
                // A bad row gives one error line, whatever the number of widths.
                #expect(lines.map { $0["id"] as? String } == ["fine", "fine", "minute", "minute"])
                #expect(errors.map { $0["id"] as? String } == ["huge", "far", "ages", "long"])
                #expect((errors[0]["error"] as? String)?.contains("more than the largest length a result may have") == true)
                #expect((errors[1]["error"] as? String)?.contains("field 'w' must be a number ≥ 0 and ≤ 1000000") == true)
                for line in [errors[2], errors[3]] { #expect((line["error"] as? String)?.contains("field 'length'") == true, "\(line)") }
                for line in lines {
                    #expect(line["error"] == nil && (line["height"] as? Double)?.isFinite == true, "\(line)")
                }
            }
            for scale in ["1.7e308", "1e-300", "0.49", "8.5"] {
                let run = try GalleyCommand.run(["layout", "--scale", scale], input: #"{"id": 1, "kind": "text", "text": "x"}"#)
                #expect(run.status != 0 && run.stdout.isEmpty && run.stderr.contains("--scale must be a number ≥ 0.5 and ≤ 8"))
            }
            let wide = try GalleyCommand.run(["heights", "--width", "320,1e308"], input: #"{"id": 1, "kind": "text", "text": "x"}"#)
            #expect(wide.status != 0 && wide.stderr.contains("--width must be numbers from 0 to 1000000"))
        }
    }

    @Test("Limits: a line too long, a text too long, too many runs fail their row; templates too deep or too large fail to load")
    func limits() throws {
        try withTemporaryFolder("limits") { directory in
            let styled = (0..<50).map { #"{"text": "run \#($0) ", "style": "\#($0 % 2 == 0 ? "tableFont" : "tableSmallFont")"}"# }
            let rows = [
                #"{"id": "short", "kind": "text", "text": "Hello"}"#,
                #"{"id": "long", "kind": "text", "text": "\#(String(repeating: "word ", count: 300))"}"#,
                #"{"id": "huge", "kind": "text", "text": "\#(String(repeating: "x", count: 5000))"}"#,
                #"{"id": "runs", "kind": "styled", "runs": [\#(styled.joined(separator: ","))]}"#,
                #"{"id": "fine", "kind": "text", "text": "Hello again"}"#,
            ]
            let templates = directory.appendingPathComponent("styled.json")
            try #"{"styled": {"root": {"type": "label", "name": "text", "styledField": "runs", "style": "tableFont"}}}"#
                .write(to: templates, atomically: true, encoding: .utf8)
            let run = try GalleyCommand.run(
                ["heights", "--templates", templates.path, "--max-line-length", "4000", "--max-text-length", "1000", "--max-runs", "20"],
                input: rows.joined(separator: "\n"))
            #expect(run.status == 1)
            let lines = run.lines
            #expect(lines.map { $0["id"] as? String } == ["short", "fine"])
            let errors = run.errorLines
            #expect(errors.map { $0["id"] as? String } == ["long", nil, "runs"])
            #expect(errors[0]["error"] as? String == "the text is 1500 UTF-16 units long, more than the limit of 1000")
            #expect((errors[1]["error"] as? String)?.hasPrefix("the line is 50") == true && errors[1]["line"] as? Int == 3)
            #expect(errors[2]["error"] as? String == "the text has 50 styled runs, more than the limit of 20")

            // A template nested deeper than the limit, and one with more nodes.
            var deep = #"{"type": "spacer"}"#
            for _ in 0..<70 { deep = #"{"type": "inset", "insets": 1, "child": \#(deep)}"# }
            let wide = (0..<300).map { _ in #"{"type": "spacer"}"# }.joined(separator: ",")
            let big = directory.appendingPathComponent("big.json")
            try #"{"deep": {"root": \#(deep)}, "wide": {"root": {"type": "vstack", "children": [\#(wide)]}}}"#
                .write(to: big, atomically: true, encoding: .utf8)
            let refused = try GalleyCommand.run(["heights", "--templates", big.path, "--max-template-nodes", "100"], input: rows[0])
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("nodes are nested more than 64 deep, the limit"))
            #expect(refused.stderr.contains("invalid template at wide.root.children[99]: the template has more than 100 nodes, the limit"))
            let allowed = try GalleyCommand.run(
                ["heights", "--templates", big.path, "--max-template-depth", "80", "--max-template-nodes", "400"], input: rows[0])
            #expect(allowed.status == 0, "\(allowed.stderr)")
        }
    }

    @Test("Output that cannot be written stops the run with an error, not a crash")
    func unwritableOutput() throws {
        let full = open("/dev/full", O_WRONLY | O_CLOEXEC)
        #expect(full >= 0)
        defer { close(full) }
        let run = try GalleyExecutable.run(["heights"], input: Data(Self.items.utf8), stdout: full)
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot write standard output: No space left on device"))
    }

    @Test("The same input gives the same bytes with one worker or two")
    func deterministic() throws {
        let input = (0..<200).map {
            #"{"id": \#($0), "kind": "message", "title": "Row \#($0)", "text": "\#(String(repeating: "word ", count: $0 % 23))", "timestamp": "\#($0 % 12):00"}"#
        }.joined(separator: "\n")
        let one = try GalleyCommand.run(["layout", "--width", "320,768", "--scale", "3", "--jobs", "1"], input: input)
        let two = try GalleyCommand.run(["layout", "--width", "320,768", "--scale", "3", "--jobs", "2"], input: input)
        #expect(one.stdout == two.stdout)
        #expect(one.lines.count == 400)
        // In input order across the blocks the workers take: each id at both widths, in turn.
        #expect(two.lines.map { $0["id"] as? Int } == (0..<200).flatMap { [$0, $0] })
    }
}
